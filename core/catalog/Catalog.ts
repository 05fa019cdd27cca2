/**
 * The payment-method catalog as a shop sees it in one environment: every rail of the shipped
 * data (sandbox test methods in sandbox only), each marked `routable` only when a configured
 * provider can charge that exact rail for this shop now.
 */
import { Context, Effect, Layer } from "effect"
import type { Environment } from "../Environment.ts"
import { noProviderReason, Routing } from "../payments/Routing.ts"
import type { Channel } from "./Channel.ts"
import { paymentMethods } from "./methods.ts"
import type { PaymentMethodDef } from "./PaymentMethod.ts"

export interface CatalogEntry {
  readonly method: PaymentMethodDef
  readonly routable: boolean
  readonly unroutableReason: string | null
  /** Ids of the providers that would be tried, in order. */
  readonly providers: ReadonlyArray<string>
}

export interface CatalogFilter {
  /** ISO-2. */
  readonly country?: string | undefined
  readonly channel?: Channel | undefined
  readonly method?: string | undefined
}

export class Catalog extends Context.Service<Catalog, {
  /** Every method visible in the environment, whatever the shop. */
  readonly methods: (environment: Environment) => ReadonlyArray<PaymentMethodDef>
  readonly find: (environment: Environment, id: string) => PaymentMethodDef | undefined
  /** The shop's listing: visible methods with their routability, filtered. */
  readonly listing: (
    environment: Environment,
    shopId: string,
    filter: CatalogFilter
  ) => Effect.Effect<{ readonly entries: ReadonlyArray<CatalogEntry>; readonly totalAvailable: number }>
}>()("core/catalog/Catalog") {
  static readonly layer = Layer.effect(
    Catalog,
    Effect.gen(function*() {
      const routing = yield* Routing
      const visible = (environment: Environment) => paymentMethods.filter((m) => environment === "sandbox" || !m.sandboxOnly)
      const byEnvironment = { sandbox: visible("sandbox"), production: visible("production") }
      const methods = (environment: Environment) => byEnvironment[environment]

      const listing = Effect.fn("Catalog.listing")(function*(environment: Environment, shopId: string, filter: CatalogFilter) {
        const route = yield* routing.routerFor(environment, shopId)
        const all = methods(environment)
        const entries = all
          .filter((m) =>
            (filter.country === undefined || m.country === filter.country) &&
            (filter.channel === undefined || m.channel === filter.channel) &&
            (filter.method === undefined || m.method === filter.method)
          )
          .map((method): CatalogEntry => {
            const providers = route(method).map((p) => p.id)
            return { method, routable: providers.length > 0, unroutableReason: providers.length > 0 ? null : noProviderReason, providers }
          })
        return { entries, totalAvailable: all.length }
      })

      return Catalog.of({
        methods,
        find: (environment, id) => methods(environment).find((m) => m.id === id),
        listing
      })
    })
  )
}
