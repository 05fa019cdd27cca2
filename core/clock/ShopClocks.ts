/**
 * Sandbox time (DESIGN "Sandbox time"): the work of a sandbox shop runs on that shop's clock, the
 * real clock shifted by the offset its test clock was advanced by (`SandboxClockStore`).
 * Production never has an offset.
 *
 * The mechanism is Effect's own: `within` provides a shifted `Clock`, so every `DateTime.now` and
 * `Clock` read in the core (timestamps, expiry dates, settlement dates, events) is shop time
 * without the core knowing, together with `CurrentClockScope`, which `Jobs.enqueue` records so
 * that a job later runs on the clock it was scheduled on. Sleeping and elapsed time (monotonic)
 * stay real: a test clock moves time, it does not make waiting shorter.
 *
 * Stores decide what is due from the real time and each scope's offset (`JobStore.claim`,
 * `WebhookStore.claimDeliveries`, `PaymentStore.pendingCreatedBefore`), so a worker passes them
 * `realNow` (`RealClock.ts`), whatever clock it runs on.
 */
import { Clock, Context, DateTime, Effect, Layer } from "effect"
import type { Environment } from "../Environment.ts"
import { SandboxClockStore } from "../ports/SandboxClockStore.ts"
import { realClock, realNow, ShiftedClock } from "./RealClock.ts"

/** The sandbox shop whose test clock the current fiber runs on; null on the real clock. */
export const CurrentClockScope = Context.Reference<string | null>("core/clock/CurrentClockScope", {
  defaultValue: () => null
})

/** Runs `effect` on the real clock, outside any shop's clock (e.g. an advance's due work, whose jobs each move to the clock they were scheduled on). */
export const atRealTime = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(realClock, (clock) =>
    effect.pipe(Effect.provideService(Clock.Clock, clock), Effect.provideService(CurrentClockScope, null)))

/** Runs `effect` on a shop's clock; a shop whose clock never moved runs on the real one, only marked as that shop's. */
const onClock = <A, E, R>(effect: Effect.Effect<A, E, R>, clockScope: string, offsetMs: number) =>
  Clock.clockWith((current) =>
    offsetMs === 0 && !(current instanceof ShiftedClock)
      ? Effect.provideService(effect, CurrentClockScope, clockScope)
      : effect.pipe(
        Effect.provideService(Clock.Clock, new ShiftedClock(current instanceof ShiftedClock ? current.base : current, offsetMs)),
        Effect.provideService(CurrentClockScope, clockScope)
      ))

export class ShopClocks extends Context.Service<ShopClocks, {
  /** How far the shop's clock runs ahead of the real one, in ms (0 in production). */
  readonly offset: (environment: Environment, shopId: string) => Effect.Effect<number>
  /** The shop's time now. */
  readonly now: (environment: Environment, shopId: string) => Effect.Effect<DateTime.Utc>
  /**
   * Runs `effect` on the shop's clock (its offset read now): a sandbox shop's, or the real clock in
   * production.
   */
  readonly within: <A, E, R>(environment: Environment, shopId: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Runs `effect` on a sandbox shop's clock whose offset the caller just read (with the credential). */
  readonly withinOffset: <A, E, R>(shopId: string, offsetMs: number, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Runs `effect` on the clock of a clock scope as `Jobs` records it (null: the real clock). */
  readonly onScope: <A, E, R>(clockScope: string | null, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("core/clock/ShopClocks") {
  static readonly layer = Layer.effect(
    ShopClocks,
    Effect.gen(function*() {
      const store = yield* SandboxClockStore
      const offset = (environment: Environment, shopId: string) =>
        environment === "production" ? Effect.succeed(0) : store.offset(shopId)
      const onScope = <A, E, R>(clockScope: string | null, effect: Effect.Effect<A, E, R>) =>
        clockScope === null
          ? atRealTime(effect)
          : Effect.flatMap(store.offset(clockScope), (offsetMs) => onClock(effect, clockScope, offsetMs))
      return ShopClocks.of({
        offset,
        now: (environment, shopId) =>
          Effect.flatMap(offset(environment, shopId), (offsetMs) => Effect.map(realNow, (now) => DateTime.add(now, { milliseconds: offsetMs }))),
        within: (environment, shopId, effect) => onScope(environment === "production" ? null : shopId, effect),
        withinOffset: (shopId, offsetMs, effect) => onClock(effect, shopId, offsetMs),
        onScope
      })
    })
  )
}
