/**
 * Sandbox test clocks, like Stripe's: a sandbox shop moves its own time forward, and everything
 * that came due for it runs before the answer (payment expiry, sandbox outcomes, settlement T+n,
 * reserve release, refund resolution, payout and withdrawal timers: every job the shop scheduled;
 * its webhook deliveries and retries; the reconcile poll of its pending payments). So a merchant
 * advances 30 days and at once reads `settlement.status: settled`.
 *
 * An advance steps through the shop's settlement closes in order (`settlements/Schedule.ts`):
 * the clock stops just before each close to run what came due, then at the close, so each batch
 * holds what became available before it, as it would have in real time. The first 31 closes of
 * an advance are stepped through; later ones run together at its end (a year's advance does not
 * take a year of steps).
 *
 * Time only moves forward, at most 400 days per call. Production has no test clock
 * (`sandbox_only`); one shop's clock never moves another's.
 */
import { BigDecimal, Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf, invalidRequest } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Payments, reconcileAfter } from "../payments/Payments.ts"
import { SandboxClockStore } from "../ports/SandboxClockStore.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { SettlementStore } from "../ports/SettlementStore.ts"
import { JobKinds as SettlementJobKinds } from "../settlements/Close.ts"
import { closesBetween } from "../settlements/Schedule.ts"
import { Webhooks } from "../webhooks/Webhooks.ts"
import { realNow } from "./RealClock.ts"
import { atRealTime, ShopClocks } from "./ShopClocks.ts"

export const maxAdvanceSeconds = 400 * 86_400
/**
 * Settlement closes an advance steps through one by one (a month of daily closes); the closes
 * after them run together at the end of the advance, the first of them taking what is left.
 */
export const maxSteppedCloses = 31
/** Rounds of due work an advance runs inline; what is left (a flood) the worker finishes. */
const maxRounds = 50
/** How long an advance waits for due jobs another worker is already running. */
const maxWaitForOthers = Duration.seconds(5)

export interface ClockReading {
  /** The shop's time now. */
  readonly now: DateTime.Utc
  /** How far the shop's clock runs ahead of the real one. */
  readonly offsetSeconds: number
}

type ShopRef = { readonly environment: Environment; readonly shop: { readonly id: string } }

export class SandboxClocks extends Context.Service<SandboxClocks, {
  readonly read: (scope: ShopRef) => Effect.Effect<ClockReading, ApiErrorOf<"sandbox_only">>
  /** Moves the shop's clock `seconds` forward (1 to 400 days) and runs what came due. */
  readonly advance: (scope: ShopRef, seconds: number) => Effect.Effect<ClockReading, ApiErrorOf<"sandbox_only" | "invalid_request">>
  /** Runs the shop's due work now (what `advance` does after moving the clock). */
  readonly runDue: (sandboxShopId: string) => Effect.Effect<void>
}>()("core/clock/SandboxClocks") {
  static readonly layer = Layer.effect(
    SandboxClocks,
    Effect.gen(function*() {
      const store = yield* SandboxClockStore
      const clocks = yield* ShopClocks
      const jobs = yield* Jobs
      const webhooks = yield* Webhooks
      const payments = yield* Payments
      const settlements = yield* SettlementStore
      const ledger = yield* LedgerStore

      const sandboxOnly = (scope: ShopRef) =>
        scope.environment === "sandbox"
          ? Effect.void
          : Effect.fail(apiError("sandbox_only", "Test clocks exist in sandbox only: production time never moves", {}))

      const read = Effect.fn("SandboxClocks.read")(function*(scope: ShopRef) {
        yield* sandboxOnly(scope)
        const offsetMs = yield* clocks.offset("sandbox", scope.shop.id)
        const now = DateTime.add(yield* realNow, { milliseconds: offsetMs })
        return { now, offsetSeconds: Math.floor(offsetMs / 1000) }
      })

      // Rounds of due jobs and deliveries until none is left: a job that ran can make more due
      // (a sandbox outcome completes a payment whose events are then delivered). Due jobs that
      // another worker is running are waited for (and so are deliveries), so the answer reflects
      // them too.
      const runDue = (shopId: string) =>
        atRealTime(Effect.gen(function*() {
          yield* payments.reconcile(reconcileAfter, shopId)
          const deadline = DateTime.add(yield* realNow, { milliseconds: Duration.toMillis(maxWaitForOthers) })
          for (let round = 0; round < maxRounds; round++) {
            const ran = (yield* jobs.runDueOn(shopId)) + (yield* webhooks.deliverDueFor(shopId))
            if (ran > 0) continue
            const running = (yield* jobs.countDueOn(shopId)) + (yield* webhooks.countDueFor(shopId))
            if (running === 0 || DateTime.isGreaterThan(yield* realNow, deadline)) return
            yield* Effect.sleep(Duration.millis(20))
          }
        })).pipe(Effect.withSpan("SandboxClocks.runDue"))

      const advance = Effect.fn("SandboxClocks.advance")(function*(scope: ShopRef, seconds: number) {
        yield* sandboxOnly(scope)
        if (!Number.isInteger(seconds) || seconds < 1 || seconds > maxAdvanceSeconds) {
          return yield* invalidRequest(`seconds: expected an integer from 1 to ${maxAdvanceSeconds} (400 days)`, [{
            path: "seconds",
            message: `Expected an integer from 1 to ${maxAdvanceSeconds}`
          }])
        }
        // Through each settlement close on the way, in order: first what came due before the
        // close, then the close, so each batch holds what became available before it.
        const schedule = yield* settlements.schedule(scope.environment, scope.shop.id)
        const start = (yield* read(scope)).now
        const target = DateTime.add(start, { seconds })
        const closes = Option.isNone(schedule) ? [] : closesBetween(schedule.value, start, target, maxSteppedCloses)
        let at = start
        const moveTo = Effect.fnUntraced(function*(to: DateTime.Utc) {
          const by = DateTime.toEpochMillis(to) - DateTime.toEpochMillis(at)
          if (by <= 0) return
          yield* store.advance(scope.shop.id, by, yield* realNow)
          at = to
          yield* runDue(scope.shop.id)
        })
        // A close is stepped through when it can matter: money is available to sweep, or work
        // (a settlement, a release, a refund...) comes due before it. Otherwise it runs with the
        // last step and finds nothing to take, as it would have.
        const matters = Effect.fnUntraced(function*(close: DateTime.Utc) {
          if (BigDecimal.isPositive(yield* ledger.balance("sandbox", scope.shop.id, "payin_available", "USD"))) return true
          const ahead = DateTime.toEpochMillis(close) - DateTime.toEpochMillis(at)
          return (yield* jobs.countDueAhead(scope.shop.id, ahead, [SettlementJobKinds.close])) > 0
        })
        for (const close of closes) {
          if (!(yield* matters(close))) continue
          yield* moveTo(DateTime.subtract(close, { milliseconds: 1 }))
          yield* moveTo(close)
        }
        yield* moveTo(target)
        return yield* read(scope)
      })

      return SandboxClocks.of({ read, advance, runDue })
    })
  )
}
