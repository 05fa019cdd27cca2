/**
 * A provider lives in the world's time: a registered provider's calls read the real clock even
 * when the work runs on a sandbox shop's advanced test clock (a request signed with the shop's
 * date would be refused upstream). The sandbox provider, the shop's simulated world, keeps the
 * shop's clock.
 */
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { ShiftedClock } from "../../core/clock/RealClock.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { ProviderRegistry } from "../../core/ports/ProviderRegistry.ts"

const day = 86_400_000

/** A provider whose charge answers the time it read. */
const clockReader = (id: string): PaymentProvider => ({
  id,
  environments: ["sandbox"],
  supports: () => true,
  charge: () => Effect.map(Clock.currentTimeMillis, (ms) => ({ providerRef: String(ms), status: "pending", paymentFormUrl: "", paymentData: {} })),
  status: () => Effect.die("unused"),
  verifyCallback: () => Effect.die("unused"),
  refund: () => Effect.die("unused")
} as unknown as PaymentProvider)

describe("a provider's clock", () => {
  it.effect("a registered provider reads the real clock on a shop's advanced clock; the sandbox provider reads the shop's", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_800_000_000_000)
      const registry = yield* ProviderRegistry
      yield* registry.register(clockReader("upstream"))
      yield* registry.register(clockReader("sandbox"))
      const base = yield* Clock.clockWith(Effect.succeed)
      const onShopClock = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, Clock.Clock, new ShiftedClock(base, 3 * day))
      const timeOf = (id: string) =>
        Effect.gen(function*() {
          const provider = Option.getOrThrow(yield* registry.get(id))
          const accepted = yield* onShopClock(provider.charge({} as never))
          return Number(accepted.providerRef)
        })
      assert.strictEqual(yield* timeOf("upstream"), 1_800_000_000_000, "the world's time")
      assert.strictEqual(yield* timeOf("sandbox"), 1_800_000_000_000 + 3 * day, "the shop's time")
    }).pipe(Effect.provide(ProviderRegistry.layer)))
})
