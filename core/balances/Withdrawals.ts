/**
 * Withdrawals of the USD pay-in balance to the merchant's bank (the spec shows no shape).
 *
 * - `request` holds `amount + fee` (the tier's `withdrawalFeeUsd`) out of `payin_available` in the
 *   transaction that writes the withdrawal: `amount` to `withdrawals_in_flight`, the fee to
 *   `fees_withdrawal`. Racing requests cannot overdraw (the ledger guard); a local-currency
 *   balance is swapped to USD first (`POST /me/balance/swap`).
 * - It stays `processing` until the bank transfer is confirmed: in sandbox by `simulate`, in any
 *   environment by the operator (`resolve`, admin API). `completed` sends the amount out;
 *   `failed` returns amount and fee to `payin_available`. Events `withdrawal.completed`,
 *   `withdrawal.failed` (with `failureReason`).
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option, Result } from "effect"
import { apiError, type ApiErrorOf, invalidRequest, notFound } from "../ApiError.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import { Ids } from "../Ids.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { withdrawalFeeUsd } from "../payments/Pricing.ts"
import { moved, type PayoutAction, type PayoutStatus, transitionPayout } from "../payouts/Payout.ts"
import { Audit } from "../audit/Audit.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { SettlementStore } from "../ports/SettlementStore.ts"
import { WithdrawalStore } from "../ports/WithdrawalStore.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { Events } from "../webhooks/Events.ts"
import { destinationIssues, maskedAccount, normalizeDestination, type Withdrawal } from "./Withdrawal.ts"

type ShopRef = Pick<ShopScope, "environment" | "shop" | "merchant">

/** The smallest withdrawal, USD. */
export const minimumWithdrawalUsd = "10"

export const withdrawalView = (w: Withdrawal) => ({
  id: w.id,
  currency: "USD" as const,
  amount: Money.toJsonNumber(w.amount),
  fee: Money.toJsonNumber(w.fee),
  totalDebited: Money.toJsonNumber(BigDecimal.sum(w.amount, w.fee)),
  status: w.status,
  destination: { ...w.destination, accountNumber: maskedAccount(w.destination.accountNumber) },
  environment: w.environment,
  createdAt: DateTime.formatIso(w.createdAt),
  completedAt: w.completedAt === null ? null : DateTime.formatIso(w.completedAt),
  failureReason: w.failureReason
})

/** What moving a withdrawal can fail with: unknown, or already past the move (`invalid_request`). */
export type MoveCode = "not_found" | "invalid_request"

export class Withdrawals extends Context.Service<Withdrawals, {
  readonly request: (scope: ShopRef, input: {
    readonly amount: BigDecimal.BigDecimal
    readonly destination: { readonly accountHolder: string; readonly bankName: string; readonly accountNumber: string; readonly swiftCode?: string | null | undefined }
  }) => Effect.Effect<Withdrawal, ApiErrorOf<"amount_invalid" | "invalid_request" | "balance_insufficient">>
  readonly get: (scope: ShopRef, id: string) => Effect.Effect<Withdrawal, ApiErrorOf<"not_found">>
  readonly list: (
    scope: ShopRef,
    filter: { readonly status?: PayoutStatus | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Withdrawal>; readonly total: number }>
  /** Sandbox: what the bank would say. */
  readonly simulate: (scope: ShopRef, id: string, action: PayoutAction) => Effect.Effect<Withdrawal, ApiErrorOf<"simulate_sandbox_only" | MoveCode>>
  /** The operator confirms the bank transfer went out, or that it failed (any environment). */
  readonly resolve: (id: string, outcome: { readonly status: "completed" | "failed"; readonly failureReason?: string | undefined }) => Effect.Effect<Withdrawal, ApiErrorOf<MoveCode>>
}>()("core/balances/Withdrawals") {
  static readonly layer = Layer.effect(
    Withdrawals,
    Effect.gen(function*() {
      const store = yield* WithdrawalStore
      const ledger = yield* Ledger
      const ids = yield* Ids
      const tx = yield* Transactions
      const audit = yield* Audit
      const clocks = yield* ShopClocks
      const events = yield* Events
      const settlements = yield* SettlementStore

      const request = Effect.fn("Withdrawals.request")(function*(scope: ShopRef, input: {
        readonly amount: BigDecimal.BigDecimal
        readonly destination: { readonly accountHolder: string; readonly bankName: string; readonly accountNumber: string; readonly swiftCode?: string | null | undefined }
      }) {
        const { amount } = input
        if (!Money.fitsExponent(amount, "USD") || BigDecimal.isLessThan(amount, Money.decimal(minimumWithdrawalUsd))) {
          return yield* apiError("amount_invalid", `A withdrawal is at least ${minimumWithdrawalUsd} USD, with at most 2 decimals`, {
            amount: Money.toJsonNumber(amount),
            minimumUsd: Number(minimumWithdrawalUsd)
          })
        }
        const issues = destinationIssues(input.destination)
        if (issues.length > 0) return yield* invalidRequest(`Invalid destination: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues)
        const destination = normalizeDestination(input.destination)
        const fee = Money.decimal(withdrawalFeeUsd[scope.merchant.tier])
        const total = BigDecimal.sum(amount, fee)
        const at = yield* DateTime.now
        const withdrawal: Withdrawal = {
          id: yield* ids.next("withdrawal"),
          environment: scope.environment,
          merchantId: scope.merchant.id,
          shopId: scope.shop.id,
          amount,
          fee,
          status: "processing",
          destination,
          failureReason: null,
          createdAt: at,
          updatedAt: at,
          completedAt: null,
          version: 1
        }
        yield* tx.run(Effect.gen(function*() {
          yield* ledger.record(withdrawal, "withdrawal.requested", withdrawal.id, [
            { from: "payin_available", to: "withdrawals_in_flight", currency: "USD", amount },
            { from: "payin_available", to: "fees_withdrawal", currency: "USD", amount: fee }
          ]).pipe(Effect.catchTag("GuardViolation", (e) => {
            const available = Money.decimal(e.available)
            return Effect.fail(apiError("balance_insufficient", `Only ${e.available} USD is available; the withdrawal needs ${Money.toText(total)} with its fee`, {
              currency: "USD",
              requested: Money.toJsonNumber(total),
              available: Money.toJsonNumber(available),
              shortfall: Money.toJsonNumber(BigDecimal.subtract(total, available)),
              fee: Money.toJsonNumber(fee)
            }))
          }))
          yield* store.insert(withdrawal)
        }))
        return withdrawal
      })

      /**
       * The settlement batch a withdrawal pays follows it, in its transaction: paid when the bank
       * transfer completed, failed when it failed (the withdrawal's own entry returned the money).
       */
      const settleBatch = Effect.fnUntraced(function*(settlementId: string, w: Withdrawal) {
        const found = yield* settlements.findById(settlementId)
        if (Option.isNone(found) || found.value.status !== "paying") return
        const b = found.value
        const now = yield* DateTime.now
        const next = w.status === "completed"
          ? { ...b, status: "paid" as const, paidAt: now, updatedAt: now, version: b.version + 1 }
          : { ...b, status: "failed" as const, failureReason: `the withdrawal ${w.id} failed: ${w.failureReason ?? "at the bank"}`, updatedAt: now, version: b.version + 1 }
        if (!(yield* settlements.update(next))) return yield* new Conflict()
      })

      const move = Effect.fnUntraced(function*(w: Withdrawal, status: PayoutStatus, failureReason: string | null) {
        if (status === w.status) return w
        const next = moved(w, status, failureReason, yield* DateTime.now)
        if (!(yield* store.update(next))) return yield* new Conflict()
        yield* ledger.record(w, `withdrawal.${status}`, w.id, status === "completed"
          ? [
            { from: "withdrawals_in_flight", to: "external", currency: "USD", amount: w.amount }
          ]
          : [
            { from: "withdrawals_in_flight", to: "payin_available", currency: "USD", amount: w.amount },
            { from: "fees_withdrawal", to: "payin_available", currency: "USD", amount: w.fee }
          ]).pipe(Effect.orDie)
        if (w.settlementId !== undefined) yield* settleBatch(w.settlementId, next)
        yield* events.emit({
          environment: next.environment,
          merchantId: next.merchantId,
          shopId: next.shopId,
          type: status === "completed" ? "withdrawal.completed" : "withdrawal.failed",
          data: withdrawalView(next),
          relatedTxId: null,
          relatedId: next.id
        })
        return next
      })

      /**
       * Moves the withdrawal `read` answers. A concurrent change wins: it is read again and the
       * move decided again (it may no longer apply).
       */
      /** Moves a withdrawal; the operator's resolution (`byOperator`) is on the audit record, in the same transaction. */
      const transition = Effect.fnUntraced(function*(read: Effect.Effect<Withdrawal, ApiErrorOf<"not_found">>, action: PayoutAction, failureReason: string, byOperator = false) {
        const w = yield* read
        const next = transitionPayout(w.status, action)
        if (Result.isFailure(next)) {
          return yield* apiError("invalid_request", `A ${w.status} withdrawal cannot be moved by '${action}'`, {
            issues: [{ path: "action", message: `The withdrawal is already ${w.status}` }],
            missingFields: []
          })
        }
        const recorded = audit.recordForShop(w.environment, w.shopId, {
          object: { type: "withdrawal", id: w.id },
          changes: { resolved: action, ...(action === "failed" ? { failureReason } : {}) }
        })
        return yield* tx.run(Effect.tap(move(w, next.success, failureReason), () => byOperator ? recorded : Effect.void))
      }, retryOnConflict("withdrawal", 5))

      const get = Effect.fn("Withdrawals.get")(function*(scope: ShopRef, id: string) {
        const found = yield* store.find(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("withdrawal", id)
        return found.value
      })

      return Withdrawals.of({
        request,
        get,
        list: (scope, filter, page) => store.list(scope.environment, scope.shop.id, filter, page),
        simulate: Effect.fn("Withdrawals.simulate")(function*(scope: ShopRef, id: string, action: PayoutAction) {
          if (scope.environment !== "sandbox") return yield* apiError("simulate_sandbox_only", "Withdrawal simulation exists in sandbox only", {})
          return yield* transition(get(scope, id), action, `simulated: ${action}`)
        }),
        resolve: Effect.fn("Withdrawals.resolve")(function*(id: string, outcome: { readonly status: "completed" | "failed"; readonly failureReason?: string | undefined }) {
          const read = Effect.flatMap(store.findById(id), (found) => Option.isNone(found) ? notFound("withdrawal", id) : Effect.succeed(found.value))
          const w = yield* read
          // The operator's call is on the clock of the withdrawal's shop.
          return yield* clocks.within(w.environment, w.shopId, transition(read, outcome.status, outcome.failureReason ?? "failed at the bank", true))
        })
      })
    })
  )
}
