/**
 * How claims take the shop's money and give it back, shared by refunds and chargebacks.
 *
 * - Taking (`Shares.drawDown`): from the payment's own pending share, then its own reserve share,
 *   then the shop's `available`; the rest is owed (`merchant_receivable`).
 * - Giving back (a rejected refund, a won chargeback): the money becomes the shop's again, so it
 *   first repays what the shop owes (`Owed.toAvailable`), the rest goes to `available`.
 *
 * Every change to what is owed locks it in its transaction (`Owed.lockOwed`; the lock order is there).
 */
import { BigDecimal, DateTime, Effect } from "effect"
import * as Owed from "../balances/Owed.ts"
import type { Transfer } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Conflict } from "../ports/Transactions.ts"
import type { Payment } from "../payments/Payment.ts"
import { advance, type PaymentChanges, type PaymentEvent } from "../payments/PaymentState.ts"

export const sum = (xs: ReadonlyArray<BigDecimal.BigDecimal>) => xs.reduce(BigDecimal.sum, Money.zero)

export const makeFunds = Effect.gen(function*() {
  const payments = yield* PaymentStore
  const ledger = yield* Ledger
  const balances = yield* LedgerStore

  /** The shop's USD available balance now (a claim takes from it after the payment's own shares). */
  const availableUsd = (p: Payment) => balances.balance(p.environment, p.shopId, "payin_available", "USD")

  /** All the shop's USD a refund may count on: available, pending and reserve, less what it owes already. */
  const coverUsd = (p: Payment) =>
    Effect.map(
      Effect.forEach(["payin_available", "payin_pending", "payin_reserve", "merchant_receivable"] as const, (book) =>
        balances.balance(p.environment, p.shopId, book, "USD")),
      BigDecimal.sumAll
    )

  /** What the shop owes, locked until the transaction ends: call it before touching other accounts. */
  const lockOwed = (p: Payment) => Owed.lockOwed(balances, p)

  /**
   * A claim's entry. `available` was read before, so a concurrent withdrawal may have taken it:
   * the guard refuses the entry and the claim is tried again (`Conflict`).
   */
  const entry = Effect.fnUntraced(function*(p: Payment, kind: string, reference: string, transfers: ReadonlyArray<Transfer>) {
    if (transfers.some((x) => (x.from === "merchant_receivable" || x.to === "merchant_receivable") && !BigDecimal.isZero(x.amount))) yield* lockOwed(p)
    yield* ledger.record(p, kind, reference, transfers).pipe(Effect.catchTag("GuardViolation", () => Effect.fail(new Conflict())))
  })

  /** `amountUsd` frozen for a claim goes back to the shop: what it owes first (`owed`, locked), then available. */
  const unfreeze = (amountUsd: BigDecimal.BigDecimal, owed: BigDecimal.BigDecimal): ReadonlyArray<Transfer> =>
    Owed.toAvailable("payin_frozen", amountUsd, owed)

  /** `amountUsd` frozen for a claim leaves: to the provider, which returns it to the buyer. */
  const payOut = (amountUsd: BigDecimal.BigDecimal): ReadonlyArray<Transfer> => [
    { from: "payin_frozen", to: "provider_clearing", currency: "USD", amount: amountUsd }
  ]

  /**
   * Writes the payment's next version (optimistic check; `event` moves its status through the
   * state machine), or fails with `Conflict`; a refused event is a defect (the caller checked it).
   */
  const bump = Effect.fnUntraced(function*(p: Payment, changes: PaymentChanges = {}, event?: PaymentEvent) {
    const next = yield* Effect.orDie(Effect.fromResult(advance(p, yield* DateTime.now, changes, event)))
    if (!(yield* payments.update(next))) return yield* new Conflict()
    return next
  })

  return { availableUsd, coverUsd, lockOwed, entry, unfreeze, payOut, bump }
})

export type Funds = Effect.Success<typeof makeFunds>
