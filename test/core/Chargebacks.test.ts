/**
 * The chargeback life cycle as an embedder drives it: the provider's word arrives through
 * `Payments.applyUpdate` (what a signed callback or the reconcile poll does), time through
 * TestClock and the job runner.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { Claims } from "../../core/claims/Claims.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import type { Book } from "../../core/ledger/Journal.ts"
import * as Money from "../../core/Money.ts"
import { ClaimStore } from "../../core/ports/ClaimStore.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { Payments } from "../../core/payments/Payments.ts"
import type { Scope } from "../../core/tenancy/Scopes.ts"
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

const paid = (scope: Scope, amount = "100") =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const created = yield* payments.create(scope, { amount: d(amount), paymentMethodId: "sbx_pix", simulate: "paid" })
    yield* drain
    return yield* payments.get(scope, created.id)
  })

const book = (scope: Scope, name: Book) => Effect.flatMap(LedgerStore, (l) => l.balance(scope.environment, scope.shop.id, name, "USD"))

const chargebackOf = (id: string) =>
  Effect.gen(function*() {
    const claims = yield* (yield* ClaimStore).forPayment(id)
    return claims.find((c) => c.kind === "chargeback")!
  })

describe("a chargeback after partial refunds", () => {
  it.effect("freezes only what remains of the payment (headline less refunded and open refunds)", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      yield* paid(scope) // other money in the shop
      const p = yield* paid(scope)
      const claims = yield* Claims
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
