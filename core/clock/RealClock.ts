/**
 * The clock no shop can move. Sandbox work runs on its shop's shifted clock (`ShopClocks.ts`),
 * but some time is the world's, not a shop's: ids, Idempotency-Key leases and expiry, job and
 * delivery leases, signature timestamps, access tokens and console sessions, provider health and
 * FX quotes. Those read the clock under any shift, here: whichever shop's clock the caller runs
 * on, they see the host's real clock (or the `TestClock` of a test), so advancing a test clock
 * can expire no key, token or lease early.
 */
import { Clock, DateTime, type Duration, Effect } from "effect"

/** A clock `offsetMs` ahead of `base`; sleeping and monotonic time are the base's. */
export class ShiftedClock implements Clock.Clock {
  readonly currentTimeMillis: Effect.Effect<number>
  readonly currentTimeNanos: Effect.Effect<bigint>
  readonly monotonicTimeNanos: Effect.Effect<bigint>
  private readonly offsetNanos: bigint
  constructor(readonly base: Clock.Clock, readonly offsetMs: number) {
    this.offsetNanos = BigInt(offsetMs) * 1_000_000n
    this.currentTimeMillis = Effect.sync(() => this.currentTimeMillisUnsafe())
    this.currentTimeNanos = Effect.sync(() => this.currentTimeNanosUnsafe())
    this.monotonicTimeNanos = base.monotonicTimeNanos
  }
  currentTimeMillisUnsafe(): number {
    return this.base.currentTimeMillisUnsafe() + this.offsetMs
  }
  currentTimeNanosUnsafe(): bigint {
    return this.base.currentTimeNanosUnsafe() + this.offsetNanos
  }
  monotonicTimeNanosUnsafe(): bigint {
    return this.base.monotonicTimeNanosUnsafe()
  }
  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return this.base.sleep(duration)
  }
}

/** The clock under any test-clock shift: the host's real clock (or the `TestClock` of a test). */
export const realClock: Effect.Effect<Clock.Clock> = Clock.clockWith((clock) =>
  Effect.succeed(clock instanceof ShiftedClock ? clock.base : clock)
)

/** The real time, on whatever clock the caller runs. */
export const realNow: Effect.Effect<DateTime.Utc> = Effect.map(realClock, (clock) => DateTime.makeUnsafe(clock.currentTimeMillisUnsafe()))

/** Epoch milliseconds on the real clock (provider health is the same for every shop, whatever its test clock). */
export const realMillis: Effect.Effect<number> = Effect.map(realClock, (clock) => clock.currentTimeMillisUnsafe())

/**
 * The same service with every operation run on the real clock: an upstream provider lives in the
 * world's time, so a request it signs with a date (dLocal's `X-Date`), a timestamp it checks on a
 * callback, and the timeout of a call to it read the host's clock, not the advanced test clock of
 * the sandbox shop the work is for.
 */
export const onRealClock = <S extends object>(service: S): S =>
  Object.fromEntries(Object.entries(service).map(([name, member]) => [
    name,
    typeof member !== "function" ? member : (...args: ReadonlyArray<unknown>) => {
      const result = (member as (...a: Array<unknown>) => unknown).apply(service, [...args])
      return Effect.isEffect(result) ? Effect.flatMap(realClock, (clock) => Effect.provideService(result, Clock.Clock, clock)) : result
    }
  ])) as S
