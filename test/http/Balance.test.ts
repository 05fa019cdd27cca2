/**
 * Sandbox funding and local-currency to USD swaps of the pay-in balance, to the cent; what the
 * shop owes in netBalance and ledgerWarnings, repaid first when a chargeback is won.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"


for (const target of storeTargets("balance")) {
  describe(`pay-in balance on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("fund-sandbox, quote, swap at the rate of the moment, and balance_insufficient in the source currency", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const funded = yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "brl", amount: 1000 } })
          assert.strictEqual(funded.status, 200)
          assert.deepStrictEqual(funded.body, {
            currency: "BRL",
            amount: 1000,
            balances: [
              { currency: "USD", available: 0, pending: 0, reserved: 0 },
              { currency: "BRL", available: 1000, pending: 0, reserved: 0 }
            ]
          })
          for (const body of [{ currency: "XYZ", amount: 1 }, { currency: "BRL", amount: 0 }, { currency: "CLP", amount: 1.5 }]) {
            assert.strictEqual((yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body })).status, 400)
          }
          const live = yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: m.keys.production.secretKey, body: { currency: "BRL", amount: 1 } })
          assert.strictEqual(live.status, 400)
          assert.strictEqual(live.body.error.code, "fund_sandbox_only")

          const usd = Money.round(BigDecimal.multiply(BigDecimal.divideUnsafe(Money.decimal("540"), Money.decimal("5.40")), Money.decimal("0.98")), "USD")
          const quote = yield* call("GET", "/api/v1/me/balance/swap?from=BRL&amount=540", { bearer: sk })
          assert.deepInclude(quote.body.quote, { fromCurrency: "BRL", toCurrency: "USD", amount: 540, amountUsd: Money.toJsonNumber(usd), available: 1000, indicative: true })

          const swap = yield* call("POST", "/api/v1/me/balance/swap", { bearer: sk, body: { fromCurrency: "BRL", amount: 540 }, headers: { "idempotency-key": "s-1" } })
          assert.strictEqual(swap.status, 200)
          assert.match(swap.body.swap.id, /^bsw_/)
          assert.deepInclude(swap.body.swap, { fromCurrency: "BRL", toCurrency: "USD", amount: 540, amountUsd: 98, localAvailableAfter: 460, usdAvailableAfter: 98 })
          assert.strictEqual(Money.toText(Money.round(BigDecimal.multiply(Money.decimal("540"), Money.decimal(String(swap.body.swap.rate))), "USD")), "98")
          const replay = yield* call("POST", "/api/v1/me/balance/swap", { bearer: sk, body: { fromCurrency: "BRL", amount: 540 }, headers: { "idempotency-key": "s-1" } })
          assert.deepStrictEqual(replay.body, swap.body)

          const short = yield* call("POST", "/api/v1/me/balance/swap", { bearer: sk, body: { fromCurrency: "BRL", amount: 500 } })
          assert.strictEqual(short.status, 422)
          assert.strictEqual(short.body.error.code, "balance_insufficient")
          assert.deepStrictEqual(short.body.error.details, { requested: 500, available: 460, shortfall: 40, currency: "BRL" })
          assert.strictEqual((yield* call("POST", "/api/v1/me/balance/swap", { bearer: sk, body: { fromCurrency: "USD", amount: 1 } })).status, 400)

          const balance = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
          assert.strictEqual(balance.balance.available, 98)
          assert.deepStrictEqual(balance.balances, [{ currency: "BRL", available: 460, pending: 0, reserved: 0 }])
          // Every journal entry balances: per currency, all books of the shop sum to zero.
          const sums = yield* (yield* LedgerStore).postingSums("sandbox", m.shops[0]!.id)
          for (const currency of new Set(sums.map((s) => s.currency))) {
            const total = sums.filter((s) => s.currency === currency).map((s) => s.balance).reduce(BigDecimal.sum)
            assert.isTrue(BigDecimal.isZero(total), currency)
          }
        }))

      it.effect("what the shop owes: netBalance subtracts it, ledgerWarnings states it, a won chargeback repays it first", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const created = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "chargeback" }, body: { amount: 100, paymentMethodId: "sbx_card" } })
          const id = created.body.transactionId
          const opened = yield* eventually(
            Effect.gen(function*() {
              return yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)
            }),
            (events) => events.some((e) => e.type === "chargeback.created")
          )
          const claimId = ((opened.find((e) => e.type === "chargeback.created")!.data["data"] as { claim: { id: string } }).claim).id
          // The payment's own shares (100 - fees) cover part of 100 + 15: fees + 15 are owed.
          const owed = BigDecimal.sum(Money.decimal(String(created.body.fees.total)), Money.decimal("15"))
          const before = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
          assert.deepStrictEqual(before.balance, { available: 0, pending: 0, frozen: 100, reserve: 0 })
          assert.strictEqual(before.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.subtract(Money.decimal("100"), owed)))
          assert.deepStrictEqual(before.ledgerWarnings, [
            `The shop owes ${Money.toText(owed)} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`
          ])

          const won = yield* call("POST", `/api/v1/claims/${claimId}/simulate`, { bearer: sk, body: { outcome: "won" } })
          assert.strictEqual(won.body.status, "won", JSON.stringify(won.body))
          const after = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
          assert.deepStrictEqual(after.balance, { available: Money.toJsonNumber(BigDecimal.subtract(Money.decimal("100"), owed)), pending: 0, frozen: 0, reserve: 0 })
          assert.strictEqual(after.feeSummary.netBalance, before.feeSummary.netBalance)
          assert.deepStrictEqual(after.ledgerWarnings, [])
          assert.strictEqual(Money.toText(yield* (yield* LedgerStore).balance("sandbox", m.shops[0]!.id, "merchant_receivable", "USD")), "0")
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })).body.status, "chargeback")
        }))
    })
  })
}
