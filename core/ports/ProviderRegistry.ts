/**
 * The provider plugins this engine instance knows, by id. A plugin's layer registers itself;
 * which provider serves which rail for which shop is routing configuration, not registration.
 *
 * Two kinds of entries: a plugin registered for the life of the engine (`register`: the sandbox
 * provider, a connector of the host's `CONNECTORS`), which serves any shop its routes name; and
 * a connector account (`core/connectors/`), put and replaced while the engine runs (`put`,
 * `remove`), which serves only the shops of its `scope` and, while disabled, none: it still
 * answers for the payments already on it (status, callbacks, refunds), by `get`.
 *
 * A registered provider's operations run on the real clock (`onRealClock`): the provider is in
 * the world's time whatever test clock the sandbox shop has advanced. The sandbox provider is
 * the exception: it is the shop's simulated world, so its payments age on the shop's clock.
 */
import { Context, Effect, Layer, Option } from "effect"
import { onRealClock } from "../clock/RealClock.ts"
import type { PaymentProvider } from "./PaymentProvider.ts"
import { sandboxProviderId } from "./SandboxForm.ts"

/** Which shops a connector account's provider serves: `shopIds` null for any shop; none while not `active`. */
export interface ProviderScope {
  readonly active: boolean
  readonly shopIds: ReadonlyArray<string> | null
}

export class ProviderRegistry extends Context.Service<ProviderRegistry, {
  readonly register: (provider: PaymentProvider) => Effect.Effect<void>
  /** The provider by id, whatever shop it serves: for the payments already on it. */
  readonly get: (id: string) => Effect.Effect<Option.Option<PaymentProvider>>
  /** The provider by id when it may take new payments of `shopId` (a registered plugin, or an account serving it). */
  readonly forShop: (id: string, shopId: string) => Effect.Effect<Option.Option<PaymentProvider>>
  readonly all: Effect.Effect<ReadonlyArray<PaymentProvider>>
  /** The providers that may take new payments of `shopId`. */
  readonly allForShop: (shopId: string) => Effect.Effect<ReadonlyArray<PaymentProvider>>
  /** Puts (or replaces) a connector account's provider; false when a registered plugin has its id. */
  readonly put: (provider: PaymentProvider, scope: ProviderScope) => Effect.Effect<boolean>
  /** Removes a connector account's provider (never a registered plugin). */
  readonly remove: (id: string) => Effect.Effect<void>
  /** Whether the id is a connector account's (put), not a registered plugin's. */
  readonly isAccount: (id: string) => Effect.Effect<boolean>
  /** Whether the provider may ever serve `shopId` (active or not): a registered plugin, or an account of that shop. */
  readonly mayServe: (id: string, shopId: string) => Effect.Effect<boolean>
}>()("core/ports/ProviderRegistry") {
  static readonly layer = Layer.sync(ProviderRegistry, () => {
    const providers = new Map<string, PaymentProvider>()
    const scopes = new Map<string, ProviderScope>()
    const clocked = (provider: PaymentProvider) => provider.id === sandboxProviderId ? provider : onRealClock(provider)
    const serves = (id: string, shopId: string) => {
      const scope = scopes.get(id)
      return scope === undefined || (scope.active && (scope.shopIds === null || scope.shopIds.includes(shopId)))
    }
    return ProviderRegistry.of({
      // A registered plugin takes the place of a connector account of the same id.
      register: (provider) =>
        Effect.suspend(() =>
          providers.has(provider.id) && !scopes.has(provider.id)
            ? Effect.die(new Error(`provider '${provider.id}' is registered twice`))
            : Effect.sync(() => {
              scopes.delete(provider.id)
              providers.set(provider.id, clocked(provider))
            })
        ),
      get: (id) => Effect.sync(() => Option.fromNullishOr(providers.get(id))),
      forShop: (id, shopId) => Effect.sync(() => serves(id, shopId) ? Option.fromNullishOr(providers.get(id)) : Option.none()),
      all: Effect.sync(() => [...providers.values()]),
      allForShop: (shopId) => Effect.sync(() => [...providers.values()].filter((p) => serves(p.id, shopId))),
      put: (provider, scope) =>
        Effect.sync(() => {
          if (providers.has(provider.id) && !scopes.has(provider.id)) return false
          providers.set(provider.id, clocked(provider))
          scopes.set(provider.id, scope)
          return true
        }),
      isAccount: (id) => Effect.sync(() => scopes.has(id)),
      mayServe: (id, shopId) =>
        Effect.sync(() => {
          const scope = scopes.get(id)
          return scope === undefined || scope.shopIds === null || scope.shopIds.includes(shopId)
        }),
      remove: (id) =>
        Effect.sync(() => {
          if (!scopes.has(id)) return
          scopes.delete(id)
          providers.delete(id)
        })
    })
  })

  /** A layer that registers a provider built by `make` (a plugin exports one of these). */
  static readonly register = <E, R>(make: Effect.Effect<PaymentProvider, E, R>) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const registry = yield* ProviderRegistry
      yield* registry.register(yield* make)
    }))
}
