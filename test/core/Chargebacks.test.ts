/**
 * The chargeback life cycle as an embedder drives it: the provider's word arrives through
 * `Payments.applyUpdate` (what a signed callback or the reconcile poll does), time through
 * TestClock and the job runner.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { TestClock } from "effect/testing"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import type { Book } from "../../core/ledger/Journal.ts"
import * as Money from "../../core/Money.ts"
import { RefundStore } from "../../core/ports/RefundStore.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import * as Pricing from "../../core/payments/Pricing.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { EngineTest, newScope } from "../support/Engine.ts"

const d = Money.decimal
const text = (x: BigDecimal.BigDecimal) => Money.toText(Money.round(x, "USD"))
const sum = (xs: ReadonlyArray<BigDecimal.BigDecimal>) => xs.reduce(BigDecimal.sum, Money.zero)

const drain = Effect.gen(function*() {
  const jobs = yield* Jobs
  while ((yield* jobs.runDue) > 0) {
    // run everything that is due
  }
})

const paid = (scope: ShopScope, amount = "100") =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const created = yield* payments.create(scope, { amount: d(amount), paymentMethodId: "sbx_pix", simulate: "paid" })
    yield* drain
    return yield* payments.get(scope, created.id)
  })

const book = (scope: ShopScope, name: Book) => Effect.flatMap(LedgerStore, (l) => l.balance(scope.environment, scope.shop.id, name, "USD"))

const chargebackOf = (id: string) =>
  Effect.gen(function*() {
    const claims = yield* (yield* RefundStore).forPayment(id)
    return claims.find((c) => c.kind === "chargeback")!
  })

describe("a chargeback after partial refunds", () => {
  it.effect("freezes only what remains of the payment (headline less refunded and open refunds)", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* paid(scope) // other money in the shop
      const p = yield* paid(scope)
      const claims = yield* Refunds
      const approved = yield* claims.refund(scope, p.id, { amount: Money.round(BigDecimal.multiply(p.amountLocal, d("0.2")), p.currencyLocal) })
      yield* drain
      const open = yield* claims.refund(scope, p.id, { amount: Money.round(BigDecimal.multiply(p.amountLocal, d("0.1")), p.currencyLocal) })
      assert.strictEqual((yield* claims.get(scope, approved.id)).status, "approved")
      const frozenBefore = yield* book(scope, "payin_frozen")
      assert.strictEqual(text(frozenBefore), text(open.amountUsd))

      yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback", detail: "fraudulent" })
      const chargeback = yield* chargebackOf(p.id)
      const remainingUsd = BigDecimal.subtract(p.amount, sum([approved.amountUsd, open.amountUsd]))
      assert.strictEqual(text(chargeback.amountUsd), text(remainingUsd))
      assert.strictEqual(Money.toText(chargeback.amount), Money.toText(BigDecimal.subtract(p.amountLocal, sum([approved.amount, open.amount]))))
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), text(BigDecimal.sum(frozenBefore, remainingUsd)))
    }).pipe(Effect.provide(EngineTest)))
})

/** A shop with one healthy payment and one charged back by its provider; the chargeback claim. */
const disputed = Effect.gen(function*() {
  const scope = yield* newScope()
  const healthy = yield* paid(scope)
  const p = yield* paid(scope)
  yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback" })
  return { scope, healthy, p, claim: yield* chargebackOf(p.id) }
})

const eventTypes = (scope: ShopScope) =>
  Effect.gen(function*() {
    return (yield* (yield* OutboxStore).list("sandbox", scope.shop.id)).map((e) => e.type)
  })

describe("chargeback resolution", () => {
  it.effect("won by the provider's word: the frozen amount returns, repaying what is owed first; the fee is kept; once", () =>
    Effect.gen(function*() {
      const { claim, p, scope } = yield* disputed
      // 100 + 15 due, 96 from the payment's own shares: 19 owed.
      const owed = BigDecimal.negate(yield* book(scope, "merchant_receivable"))
      assert.strictEqual(text(owed), text(BigDecimal.sum(p.fees.total, d("15"))))
      const fees = yield* book(scope, "fees_chargeback")

      yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback_won", detail: "evidence accepted" })
      const won = yield* chargebackOf(p.id)
      assert.deepInclude(won, { status: "won", resolution: "won", resolvedBy: "provider" })
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), "0")
      assert.strictEqual(text(yield* book(scope, "merchant_receivable")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_available")), text(BigDecimal.subtract(claim.amountUsd, owed)))
      assert.strictEqual(text(yield* book(scope, "fees_chargeback")), text(fees))
      assert.include(yield* eventTypes(scope), "claim.resolved")
      assert.strictEqual((yield* (yield* Payments).get(scope, p.id)).status, "chargeback")

      // The same word again, or the opposite one, changes nothing.
      const entries = (yield* (yield* LedgerStore).entries("sandbox", scope.shop.id, { limit: 1, offset: 0 })).total
      yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback_won" })
      yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback_lost" })
      assert.strictEqual((yield* chargebackOf(p.id)).status, "won")
      assert.strictEqual((yield* (yield* LedgerStore).entries("sandbox", scope.shop.id, { limit: 1, offset: 0 })).total, entries)
      assert.strictEqual((yield* eventTypes(scope)).filter((t) => t === "claim.resolved").length, 1)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("lost: the frozen amount leaves to the provider; what is owed stays owed until later income repays it", () =>
    Effect.gen(function*() {
      const { claim, healthy, p, scope } = yield* disputed
      const owed = BigDecimal.negate(yield* book(scope, "merchant_receivable"))
      const clearing = yield* book(scope, "provider_clearing")
      yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback_lost" })
      assert.deepInclude(yield* chargebackOf(p.id), { status: "lost", resolution: "lost", resolvedBy: "provider" })
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), "0")
      assert.strictEqual(text(yield* book(scope, "provider_clearing")), text(BigDecimal.sum(clearing, claim.amountUsd)))
      assert.strictEqual(text(BigDecimal.negate(yield* book(scope, "merchant_receivable"))), text(owed))

      // Both payments still settle on their schedule; the healthy one's net repays the debt first.
      yield* TestClock.adjust(`${healthy.settlement.delayDays} days`)
      yield* drain
      for (const id of [healthy.id, p.id]) assert.strictEqual((yield* (yield* Payments).get(scope, id)).settlement.status, "settled")
      const net = Pricing.net(healthy.amount, healthy.fees, healthy.settlement)
      assert.strictEqual(text(yield* book(scope, "merchant_receivable")), "0")
      assert.strictEqual(text(yield* book(scope, "payin_available")), text(BigDecimal.subtract(net, owed)))
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a provider reporting the outcome of a chargeback it never reported opening opens it first", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const p = yield* paid(scope)
      yield* (yield* Payments).applyUpdate(p.id, { providerRef: p.providerRef, status: "chargeback_lost" })
      assert.strictEqual((yield* (yield* Payments).get(scope, p.id)).status, "chargeback")
      assert.deepInclude(yield* chargebackOf(p.id), { status: "lost", resolvedBy: "provider" })
      const types = yield* eventTypes(scope)
      for (const t of ["chargeback.created", "claim.opened", "claim.resolved"]) assert.include(types, t)
      assert.strictEqual(text(yield* book(scope, "payin_frozen")), "0")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("the operator and the sandbox resolve only chargebacks, once; production refuses the simulation", () =>
    Effect.gen(function*() {
      const { p, scope } = yield* disputed
      const claims = yield* Refunds
      const live = yield* Effect.flip(claims.simulateChargeback({ ...scope, environment: "production" }, (yield* chargebackOf(p.id)).id, "won"))
      assert.strictEqual(live.code, "simulate_sandbox_only")
      const claim = yield* chargebackOf(p.id)
      const won = yield* claims.simulateChargeback(scope, claim.id, "won")
      assert.deepInclude(won, { status: "won", resolvedBy: "sandbox" })
      assert.strictEqual((yield* claims.resolveChargeback(claim.id, "won")).version, won.version)
      const other = yield* Effect.flip(claims.resolveChargeback(claim.id, "lost"))
      assert.strictEqual(other.code, "claim_already_resolved")
      assert.deepStrictEqual(other.details, { status: "won" })

      const refund = yield* claims.refund(scope, (yield* paid(scope)).id, { amount: d("1") })
      assert.strictEqual((yield* Effect.flip(claims.resolveChargeback(refund.id, "won"))).code, "claim_not_chargeback")
      assert.strictEqual((yield* Effect.flip(claims.resolveChargeback("CLM-NOPE", "won"))).code, "not_found")
      const stranger = yield* newScope()
      assert.strictEqual((yield* Effect.flip(claims.simulateChargeback(stranger, claim.id, "lost"))).code, "not_found")
    }).pipe(Effect.provide(EngineTest)))
})
