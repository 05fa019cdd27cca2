/**
 * Sandbox funding and local-currency to USD swaps of the pay-in balance, to the cent; what the
 * shop owes in netBalance and ledgerWarnings, repaid first when a chargeback is won. Requests go
 * through the typed client (TypedApi.ts); `call` stays for bodies it would not send.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const d = Money.decimal

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

for (const target of storeTargets("balance")) {
  describe(`pay-in balance on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("fund-sandbox, quote, swap at the rate of the moment, and balance_insufficient in the source currency", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const api = yield* apiAs(sk)
          const [funded, fundedReply] = yield* api.identity.fundSandbox({ payload: { currency: "brl", amount: d("1000") }, ...withResponse })
          assert.strictEqual(fundedReply.status, 200)
          assert.deepStrictEqual(funded, {
            currency: "BRL",
            amount: 1000,
            balances: [
              { currency: "USD", available: 0, pending: 0, reserved: 0 },
              { currency: "BRL", available: 1000, pending: 0, reserved: 0 }
            ]
          })
          // Raw: amounts the typed client would not send (and an unknown currency beside them).
          for (const body of [{ currency: "XYZ", amount: 1 }, { currency: "BRL", amount: 0 }, { currency: "CLP", amount: 1.5 }]) {
            assert.strictEqual((yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body })).status, 400)
          }
          const live = yield* refused(Effect.flatMap(apiAs(m.keys.production.secretKey), (prod) => prod.identity.fundSandbox({ payload: { currency: "BRL", amount: d("1") } })))
          assert.strictEqual(httpStatus[live.code], 400)
          assert.strictEqual(live.code, "fund_sandbox_only")

          const usd = Money.round(BigDecimal.multiply(BigDecimal.divideUnsafe(Money.decimal("540"), Money.decimal("5.40")), Money.decimal("0.98")), "USD")
          const quote = yield* api.identity.swapQuote({ query: { from: "BRL", amount: 540 } })
          assert.deepInclude(quote.quote, { fromCurrency: "BRL", toCurrency: "USD", amount: 540, amountUsd: Money.toJsonNumber(usd), available: 1000, indicative: true })

          const swapBrl = api.identity.swap({ payload: { fromCurrency: "BRL", amount: d("540") }, headers: { "idempotency-key": "s-1" }, ...withResponse })
          const [swap, swapReply] = yield* swapBrl
          assert.strictEqual(swapReply.status, 200)
          assert.match(swap.swap.id, /^bsw_/)
          assert.deepInclude(swap.swap, { fromCurrency: "BRL", toCurrency: "USD", amount: 540, amountUsd: 98, localAvailableAfter: 460, usdAvailableAfter: 98 })
          assert.strictEqual(Money.toText(Money.round(BigDecimal.multiply(Money.decimal("540"), Money.decimal(String(swap.swap.rate))), "USD")), "98")
          const [replay] = yield* swapBrl
          assert.deepStrictEqual(replay, swap)

          const short = yield* refused(api.identity.swap({ payload: { fromCurrency: "BRL", amount: d("500") }, headers: {} }))
          assert.strictEqual(httpStatus[short.code], 422)
          assert.strictEqual(short.code, "balance_insufficient")
          assert.deepStrictEqual(short.details, { requested: 500, available: 460, shortfall: 40, currency: "BRL" })
          assert.strictEqual(httpStatus[(yield* refused(api.identity.swap({ payload: { fromCurrency: "USD", amount: d("1") }, headers: {} }))).code], 400)

          const balance = yield* api.identity.balance({ query: {} })
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
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          const created = yield* api.payments.create({ payload: { amount: d("100"), paymentMethodId: "sbx_card" }, headers: { "sandbox-simulate": "chargeback" } })
          const id = created.transactionId
          const opened = yield* eventually(
            Effect.gen(function*() {
              return yield* (yield* OutboxStore).list("sandbox", m.shops[0]!.id)
            }),
            (events) => events.some((e) => e.type === "chargeback.created")
          )
          const claimId = ((opened.find((e) => e.type === "chargeback.created")!.data["data"] as { claim: { id: string } }).claim).id
          // The payment's own shares (100 - fees) cover part of 100 + 15: fees + 15 are owed.
          const owed = BigDecimal.sum(Money.decimal(String(created.fees.total)), Money.decimal("15"))
          const before = yield* api.identity.balance({ query: {} })
          assert.deepStrictEqual(before.balance, { available: 0, pending: 0, frozen: 100, reserve: 0 })
          assert.strictEqual(before.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.subtract(Money.decimal("100"), owed)))
          assert.deepStrictEqual(before.ledgerWarnings, [
            `The shop owes ${Money.toText(owed)} USD: refunds and chargebacks its balance could not cover; it is repaid from the next money that becomes available`
          ])

          const won = yield* api.claims.simulate({ params: { id: claimId }, payload: { outcome: "won" } })
          assert.strictEqual(won.status, "won", JSON.stringify(won))
          const after = yield* api.identity.balance({ query: {} })
          assert.deepStrictEqual(after.balance, { available: Money.toJsonNumber(BigDecimal.subtract(Money.decimal("100"), owed)), pending: 0, frozen: 0, reserve: 0 })
          assert.strictEqual(after.feeSummary.netBalance, before.feeSummary.netBalance)
          assert.deepStrictEqual(after.ledgerWarnings, [])
          assert.strictEqual(Money.toText(yield* (yield* LedgerStore).balance("sandbox", m.shops[0]!.id, "merchant_receivable", "USD")), "0")
          assert.strictEqual((yield* api.payments.get({ params: { id } })).status, "chargeback")
        }))
    })
  })
}
