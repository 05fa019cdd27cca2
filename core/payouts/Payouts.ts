/**
 * Payouts (spec 2.10-2.12, 3.4, 4.9): a separate balance that the merchant funds from the pay-in
 * balance (USD transfer), optionally swaps to a local currency, and sends to beneficiaries.
 *
 * - Real rails debit `payout_available` in the method's currency into `payouts_in_flight` in the
 *   same transaction as the payout row and the binding of the client's `Idempotency-Key` (write
 *   ahead: the guard makes racing payouts unable to overdraw, and a retry after a crash continues
 *   the same payout, dispatched with the same upstream key `payout.id`). Who pays out is in
 *   `Drivers.ts`: a payout provider plugin (`processing` until it says), in sandbox the simulated
 *   driver (completes at once), in production without a provider nobody: 422
 *   `payout_method_unavailable`, nothing debited. A refusal of the beneficiary data reverses the
 *   debit and answers 422 `payout_dispatch_failed`; errors are not stored by idempotency, so a
 *   corrected retry with the same key executes again. The simulated driver refuses a recipient
 *   whose name contains `REJECT` (documented test value). A recovery job (5 minutes on) finishes
 *   a dispatch an interrupted execution left behind.
 * - Sandbox synthetic rails (`sbx_po_*`) debit nothing and call no provider; they stay
 *   `processing` until `simulate`.
 * - A failed real payout returns its debit to `payout_available`. Events `payout.completed` and
 *   `payout.failed` (with `failureReason`) carry id, status, amount, currency, method, timestamps.
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option, Result } from "effect"
import type { KeyHandle } from "../idempotency/Idempotency.ts"
import { apiError, type ApiErrorOf, invalidRequest, notFound } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { checkSandboxFunding, type FundSandboxCode, type SwapFields } from "../balances/Swaps.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import { bookable, type Conversion, Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import type { Book } from "../ledger/Journal.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { type PayoutProvider, PayoutProviders } from "../ports/PayoutProvider.ts"
import { PayoutStore } from "../ports/PayoutStore.ts"
import { Audit } from "../audit/Audit.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { Events } from "../webhooks/Events.ts"
import { moved, type Payout, type PayoutAction, type PayoutStatus, transitionPayout } from "./Payout.ts"
import { driverFor, driverName, noPayoutProviderReason } from "./Drivers.ts"
import type { PayoutMethodDef } from "./PayoutMethod.ts"
import { payoutMethods } from "./payoutMethods.ts"
import { type CallbackCode, makeProviderUpdates } from "./ProviderUpdates.ts"
import { makeSend } from "./Send.ts"

type ShopRef = Pick<ShopScope, "environment" | "shop" | "merchant">

export interface PayoutBalance {
  readonly currency: string
  readonly available: BigDecimal.BigDecimal
  readonly pending: BigDecimal.BigDecimal
  readonly reserved: BigDecimal.BigDecimal
}

export const payoutView = (p: Payout) => ({
  id: p.id,
  methodId: p.methodId,
  methodName: p.methodName,
  method: p.rail,
  currency: p.currency,
  amount: Money.toJsonNumber(p.amount),
  status: p.status,
  provider: p.provider,
  providerRef: p.providerRef,
  environment: p.environment,
  createdAt: DateTime.formatIso(p.createdAt),
  completedAt: p.completedAt === null ? null : DateTime.formatIso(p.completedAt),
  ...(p.status === "failed" ? { failureReason: p.failureReason } : {})
})


/** What sending a payout can fail with. */
export type SendCode = "invalid_request" | "payout_method_unavailable" | "amount_invalid" | "currency_not_funded" | "balance_insufficient" | "payout_dispatch_failed" | "fx_unavailable"

export class Payouts extends Context.Service<Payouts, {
  readonly methods: (environment: Environment) => ReadonlyArray<PayoutMethodDef>
  /** Who pays out on each method here: `routable` false in production without a payout provider. */
  readonly routing: (environment: Environment) => ReadonlyArray<{
    readonly method: PayoutMethodDef
    readonly driver: string | null
    readonly routable: boolean
    readonly unroutableReason: string | null
  }>
  readonly balances: (scope: ShopRef) => Effect.Effect<{ readonly balances: ReadonlyArray<PayoutBalance>; readonly transferableUsd: BigDecimal.BigDecimal }>
  readonly transfer: (scope: ShopRef, amountUsd: BigDecimal.BigDecimal) => Effect.Effect<{
    readonly id: string
    readonly amount: BigDecimal.BigDecimal
    readonly payinAvailableAfter: BigDecimal.BigDecimal
    readonly payoutAvailableAfter: BigDecimal.BigDecimal
  }, ApiErrorOf<"amount_invalid" | "balance_insufficient">>
  /**
   * A payout swap sells USD for fewer local units (rounded down); one worth less than a local unit is refused (422 `amount_rounds_to_zero`).
   * `fields`: the names the caller's client gave the currency and the amount, which a refusal names (default `toCurrency`, `amountUsd`).
   */
  readonly quoteSwap: (
    scope: ShopRef,
    currency: string,
    amountUsd: BigDecimal.BigDecimal,
    fields?: SwapFields
  ) => Effect.Effect<Conversion, ApiErrorOf<"invalid_request" | "amount_invalid" | "fx_unavailable" | "amount_rounds_to_zero">>
  readonly swap: (scope: ShopRef, currency: string, amountUsd: BigDecimal.BigDecimal, fields?: SwapFields) => Effect.Effect<{
    readonly id: string
    readonly conversion: Conversion
    readonly usdAvailableAfter: BigDecimal.BigDecimal
    readonly localAvailableAfter: BigDecimal.BigDecimal
  }, ApiErrorOf<"invalid_request" | "amount_invalid" | "fx_unavailable" | "balance_insufficient" | "amount_rounds_to_zero">>
  readonly fundSandbox: (scope: ShopRef, currency: string, amount: BigDecimal.BigDecimal) => Effect.Effect<ReadonlyArray<PayoutBalance>, ApiErrorOf<FundSandboxCode>>
  /**
   * `key`: the request's `Idempotency-Key`, bound to the payout in its write-ahead; `key.resume`
   * names the payout an interrupted execution of the same key wrote ahead, which is continued.
   */
  readonly send: (
    scope: ShopRef,
    input: { readonly methodId: string; readonly amount: BigDecimal.BigDecimal; readonly recipient: unknown },
    key?: KeyHandle | undefined
  ) => Effect.Effect<
    { readonly payout: Payout; readonly method: PayoutMethodDef },
    ApiErrorOf<SendCode>
  >
  readonly get: (scope: ShopRef, id: string) => Effect.Effect<Payout, ApiErrorOf<"not_found">>
  readonly list: (
    scope: ShopRef,
    filter: { readonly status?: PayoutStatus | undefined; readonly methodId?: string | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<Payout>; readonly total: number }>
  readonly simulate: (scope: ShopRef, id: string, action: PayoutAction) => Effect.Effect<Payout, ApiErrorOf<"simulate_sandbox_only" | "not_found" | "invalid_request">>
  /**
   * The operator records the provider's answer for a processing payout, in either environment
   * (a provider that stayed unreachable, a plugin that was removed): `completed` sends the money
   * out, `failed` reverses the debit. A final payout is refused (409 `payout_already_final`).
   */
  readonly resolve: (id: string, outcome: { readonly status: "completed" | "failed"; readonly failureReason?: string | undefined }) => Effect.Effect<Payout, ApiErrorOf<"not_found" | "payout_already_final">>
  /** Verifies and applies a payout provider's callback; answers how many payouts it spoke about. */
  readonly handleCallback: (
    providerId: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string
  ) => Effect.Effect<number, ApiErrorOf<CallbackCode>>
}>()("core/payouts/Payouts") {
  static readonly layer = Layer.effect(
    Payouts,
    Effect.gen(function*() {
      const store = yield* PayoutStore
      const ledgerStore = yield* LedgerStore
      const ledger = yield* Ledger
      const fx = yield* Fx
      const ids = yield* Ids
      const tx = yield* Transactions
      const audit = yield* Audit
      const events = yield* Events
      const providers = yield* PayoutProviders
      const clocks = yield* ShopClocks

      const methods = (environment: Environment) => payoutMethods.filter((m) => environment === "sandbox" || !m.sandboxOnly)

      const shopOf = (scope: ShopRef) => ({ environment: scope.environment, shopId: scope.shop.id })

      const balance = (scope: ShopRef, book: Book, currency: string) => ledgerStore.balance(scope.environment, scope.shop.id, book, currency)

      const post = ledger.record

      const balances = Effect.fn("Payouts.balances")(function*(scope: ShopRef) {
        const all = yield* ledgerStore.balances(scope.environment, scope.shop.id)
        const of = (book: Book, currency: string) => all.find((b) => b.book === book && b.currency === currency)?.balance ?? Money.zero
        const currencies = [...new Set(["USD", ...all.filter((b) => b.book.startsWith("payout_")).map((b) => b.currency)])]
        return {
          balances: currencies.sort((a, b) => a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)).map((currency) => ({
            currency,
            available: of("payout_available", currency),
            pending: of("payout_pending", currency),
            reserved: of("payout_reserved", currency)
          })),
          transferableUsd: of("payin_available", "USD")
        }
      })

      const positiveUsd = (amount: BigDecimal.BigDecimal, field = "amount") =>
        BigDecimal.isPositive(amount) && Money.fitsExponent(amount, "USD")
          ? Effect.void
          : Effect.fail(apiError("amount_invalid", `${field} must be a positive USD amount with at most 2 decimals`, { amount: Money.toJsonNumber(amount) }))

      const insufficient = Effect.fnUntraced(function*(currency: string, requested: BigDecimal.BigDecimal, available: BigDecimal.BigDecimal) {
        const shortfall = BigDecimal.subtract(requested, available)
        const toUsd = (x: BigDecimal.BigDecimal) => Effect.map(fx.toUsd(x, currency), (c) => Money.toJsonNumber(c.converted)).pipe(Effect.orElseSucceed(() => null))
        return yield* apiError("balance_insufficient", `Only ${Money.toText(available)} ${currency} is available`, {
          currency,
          requested: Money.toJsonNumber(requested),
          available: Money.toJsonNumber(available),
          shortfall: Money.toJsonNumber(shortfall),
          availableUsd: currency === "USD" ? Money.toJsonNumber(available) : yield* toUsd(available),
          shortfallUsd: currency === "USD" ? Money.toJsonNumber(shortfall) : yield* toUsd(shortfall)
        })
      })

      const transfer = Effect.fn("Payouts.transfer")(function*(scope: ShopRef, amountUsd: BigDecimal.BigDecimal) {
        yield* positiveUsd(amountUsd)
        return yield* tx.run(Effect.gen(function*() {
          const id = yield* ids.next("transfer")
          yield* post(shopOf(scope), "payout.transfer", id, [
            { from: "payin_available", to: "payout_available", currency: "USD", amount: amountUsd }
          ]).pipe(Effect.catchTag("GuardViolation", (e) => insufficient("USD", amountUsd, Money.decimal(e.available))))
          return {
            id,
            amount: amountUsd,
            payinAvailableAfter: yield* balance(scope, "payin_available", "USD"),
            payoutAvailableAfter: yield* balance(scope, "payout_available", "USD")
          }
        }))
      })

      const swapFields: SwapFields = { currency: "toCurrency", amount: "amountUsd" }
      const target = (currency: string, field: string) => {
        const code = Money.normalizeCurrency(currency)
        return code._tag === "None" || code.value === "USD" || !payoutMethods.some((m) => m.currency === code.value)
          ? Effect.fail(invalidRequest(`No payout rail pays out in '${currency}'`, [{ path: field, message: "Expected the currency of a payout method" }]))
          : Effect.succeed(code.value)
      }

      const quoteSwap = Effect.fn("Payouts.quoteSwap")(function*(_scope: ShopRef, currency: string, amountUsd: BigDecimal.BigDecimal, fields = swapFields) {
        yield* positiveUsd(amountUsd, fields.amount)
        return yield* Effect.flatMap(fx.sellUsd(amountUsd, yield* target(currency, fields.currency)), bookable)
      })

      const swap = Effect.fn("Payouts.swap")(function*(scope: ShopRef, currency: string, amountUsd: BigDecimal.BigDecimal, fields = swapFields) {
        yield* positiveUsd(amountUsd, fields.amount)
        const to = yield* target(currency, fields.currency)
        return yield* tx.run(Effect.gen(function*() {
          const conversion = yield* Effect.flatMap(fx.sellUsd(amountUsd, to), bookable)
          const id = yield* ids.next("swap")
          yield* post(shopOf(scope), "payout.swap", id, [
            { from: "payout_available", to: "fx", currency: "USD", amount: amountUsd },
            { from: "fx", to: "payout_available", currency: to, amount: conversion.converted }
          ]).pipe(Effect.catchTag("GuardViolation", (e) => insufficient("USD", amountUsd, Money.decimal(e.available))))
          return {
            id,
            conversion,
            usdAvailableAfter: yield* balance(scope, "payout_available", "USD"),
            localAvailableAfter: yield* balance(scope, "payout_available", to)
          }
        }))
      })

      const fundSandbox = Effect.fn("Payouts.fundSandbox")(function*(scope: ShopRef, currencyInput: string, amount: BigDecimal.BigDecimal) {
        const currency = yield* checkSandboxFunding(scope, currencyInput, amount, fx)
        yield* post(shopOf(scope), "payout.fund_sandbox", "sandbox", [
          { from: "sandbox_funding", to: "payout_available", currency, amount }
        ]).pipe(Effect.orDie)
        return (yield* balances(scope)).balances
      })

      const emit = (p: Payout) =>
        p.status === "processing" ? Effect.void : Effect.asVoid(events.emit({
          environment: p.environment,
          merchantId: p.merchantId,
          shopId: p.shopId,
          type: p.status === "completed" ? "payout.completed" : "payout.failed",
          data: payoutView(p),
          relatedTxId: null,
          relatedId: p.id
        }))

      /** Moves a payout to its next status with the money that goes with it, in one transaction. */
      const move = Effect.fnUntraced(function*(payout: Payout, status: PayoutStatus, failureReason: string | null) {
        if (status === payout.status) return payout
        const next = moved(payout, status, failureReason, yield* DateTime.now)
        if (!(yield* store.update(next))) return yield* new Conflict()
        if (payout.debited) {
          const back: Book = status === "completed" ? "external" : "payout_available"
          yield* post(payout, `payout.${status}`, payout.id, [
            { from: "payouts_in_flight", to: back, currency: payout.currency, amount: payout.amount }
          ]).pipe(Effect.orDie)
        }
        yield* emit(next)
        return next
      })

      const updates = yield* makeProviderUpdates({ move })
      const { send } = yield* makeSend({ methods, move, insufficient, schedulePoll: updates.schedulePoll })

      const get = Effect.fn("Payouts.get")(function*(scope: ShopRef, id: string) {
        const found = yield* store.find(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("payout", id)
        return found.value
      })

      const simulate = Effect.fn("Payouts.simulate")(function*(scope: ShopRef, id: string, action: PayoutAction) {
        if (scope.environment !== "sandbox") return yield* apiError("simulate_sandbox_only", "Payout simulation exists in sandbox only", {})
        // A concurrent change wins: read again and decide again (the action may no longer apply).
        return yield* Effect.gen(function*() {
          const payout = yield* get(scope, id)
          const next = transitionPayout(payout.status, action)
          if (Result.isFailure(next)) {
            return yield* apiError("invalid_request", `A ${payout.status} payout cannot be moved by '${action}'`, {
              issues: [{ path: "action", message: `The payout is already ${payout.status}` }],
              missingFields: []
            })
          }
          return yield* tx.run(move(payout, next.success, `simulated: ${action}`))
        }).pipe(retryOnConflict(`payout ${id}`, 5))
      })

      const resolve = Effect.fn("Payouts.resolve")(function*(id: string, outcome: { readonly status: "completed" | "failed"; readonly failureReason?: string | undefined }) {
        return yield* Effect.gen(function*() {
          const found = yield* store.findById(id)
          if (Option.isNone(found)) return yield* notFound("payout", id)
          const payout = found.value
          if (payout.status !== "processing") {
            return yield* apiError("payout_already_final", `The payout is already ${payout.status}`, { status: payout.status })
          }
          const reason = outcome.status === "failed" ? outcome.failureReason ?? "failed, recorded by the operator" : null
          // The operator's call is on the clock of the payout's shop.
          const recorded = audit.recordForShop(payout.environment, payout.shopId, {
            object: { type: "payout", id },
            changes: { resolved: outcome.status, ...(reason === null ? {} : { failureReason: reason }) }
          })
          return yield* clocks.within(payout.environment, payout.shopId, tx.run(Effect.tap(move(payout, outcome.status, reason), () => recorded)))
        }).pipe(retryOnConflict(`payout ${id}`, 5))
      })

      const routing = (environment: Environment) =>
        methods(environment).map((method) => {
          const driver = driverFor(environment, method, providers.forMethod(environment, method))
          return driver._tag === "None"
            ? { method, driver: null, routable: false, unroutableReason: noPayoutProviderReason }
            : { method, driver: driverName(driver), routable: true, unroutableReason: null }
        })

      return Payouts.of({
        handleCallback: updates.handleCallback,
        resolve,
        methods,
        routing,
        balances,
        transfer,
        quoteSwap,
        swap,
        fundSandbox,
        send,
        get,
        list: (scope, filter, page) => store.list(scope.environment, scope.shop.id, filter, page),
        simulate
      })
    })
  )

  /** These payout provider plugins, each serving the rails it supports in its environments. */
  static readonly providers = (list: ReadonlyArray<PayoutProvider>) =>
    Layer.succeed(PayoutProviders, PayoutProviders.of({
      forMethod: (environment, method) => list.filter((p) => p.environments.includes(environment) && p.supports(method)),
      byId: (id) => list.find((p) => p.id === id)
    }))

  /** No payout provider plugins: real rails use the simulated driver in sandbox and are not routable in production. */
  static readonly noProviders = Payouts.providers([])
}

