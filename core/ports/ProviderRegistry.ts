/**
 * The provider plugins this engine instance knows, by id. A plugin's layer registers itself;
 * which provider serves which rail for which shop is routing configuration, not registration.
 *
 * A registered provider's operations run on the real clock (`onRealClock`): the provider is in
 * the world's time whatever test clock the sandbox shop has advanced. The sandbox provider is
 * the exception: it is the shop's simulated world, so its payments age on the shop's clock.
 */
import { Context, Effect, Layer, Option } from "effect"
import { onRealClock } from "../clock/RealClock.ts"
import type { PaymentProvider } from "./PaymentProvider.ts"
import { sandboxProviderId } from "./SandboxForm.ts"

export class ProviderRegistry extends Context.Service<ProviderRegistry, {
  readonly register: (provider: PaymentProvider) => Effect.Effect<void>
  readonly get: (id: string) => Effect.Effect<Option.Option<PaymentProvider>>
  readonly all: Effect.Effect<ReadonlyArray<PaymentProvider>>
}>()("core/ports/ProviderRegistry") {
  static readonly layer = Layer.sync(ProviderRegistry, () => {
    const providers = new Map<string, PaymentProvider>()
    return ProviderRegistry.of({
      register: (provider) =>
        Effect.suspend(() =>
          providers.has(provider.id)
            ? Effect.die(new Error(`provider '${provider.id}' is registered twice`))
            : Effect.sync(() => void providers.set(provider.id, provider.id === sandboxProviderId ? provider : onRealClock(provider)))
        ),
      get: (id) => Effect.sync(() => Option.fromNullishOr(providers.get(id))),
      all: Effect.sync(() => [...providers.values()])
    })
  })

  /** A layer that registers a provider built by `make` (a plugin exports one of these). */
  static readonly register = <E, R>(make: Effect.Effect<PaymentProvider, E, R>) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const registry = yield* ProviderRegistry
      yield* registry.register(yield* make)
    }))
}
