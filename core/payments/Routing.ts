/**
 * Which providers may charge a rail for a shop, in the order the cascade tries them: the shop's
 * configured routes (ascending priority) whose provider is registered, allowed in the
 * environment, supports that exact rail and, when the route names methods, names this one. In
 * sandbox the sandbox provider serves every rail of every shop after the configured routes, so a
 * new shop can charge in sandbox at once; configure a route for it to change its place.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import type { Environment } from "../Environment.ts"
import type { PaymentProvider } from "../ports/PaymentProvider.ts"
import { ProviderRouteStore } from "../ports/ProviderRouteStore.ts"
import { ProviderRegistry } from "./ProviderRegistry.ts"

export const sandboxProviderId = "sandbox"

/** The reason a listed method cannot be charged, as `unroutableReason` and `details.reason` say it. */
export const noProviderReason = "no_provider_for_method_region"

export class Routing extends Context.Service<Routing, {
  readonly candidates: (
    environment: Environment,
    shopId: string,
    method: PaymentMethodDef
  ) => Effect.Effect<ReadonlyArray<PaymentProvider>>
  /** One read of the shop's routes, answering for many methods (the catalog listing). */
  readonly routerFor: (
    environment: Environment,
    shopId: string
  ) => Effect.Effect<(method: PaymentMethodDef) => ReadonlyArray<PaymentProvider>>
}>()("core/payments/Routing") {
  static readonly layer = Layer.effect(
    Routing,
    Effect.gen(function*() {
      const routes = yield* ProviderRouteStore
      const registry = yield* ProviderRegistry

      const routerFor = Effect.fn("Routing.routerFor")(function*(environment: Environment, shopId: string) {
        const configured = yield* routes.list(environment, shopId)
        const ordered: Array<{ readonly provider: PaymentProvider; readonly methodIds: ReadonlyArray<string> | null }> = []
        for (const route of configured) {
          if (!route.enabled) continue
          const provider = yield* registry.get(route.providerId)
          if (Option.isSome(provider)) ordered.push({ provider: provider.value, methodIds: route.methodIds })
        }
        if (environment === "sandbox" && !configured.some((r) => r.providerId === sandboxProviderId)) {
          const sandbox = yield* registry.get(sandboxProviderId)
          if (Option.isSome(sandbox)) ordered.push({ provider: sandbox.value, methodIds: null })
        }
        return (method: PaymentMethodDef) =>
          (method.sandboxOnly && environment !== "sandbox") ? [] : ordered
            .filter(({ methodIds, provider }) =>
              provider.environments.includes(environment) && provider.supports(method) &&
              (methodIds === null || methodIds.includes(method.id))
            )
            .map(({ provider }) => provider)
      })

      return Routing.of({
        routerFor,
        candidates: (environment, shopId, method) => Effect.map(routerFor(environment, shopId), (route) => route(method))
      })
    })
  )
}
