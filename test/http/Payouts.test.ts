/**
 * Payouts as a merchant calls them: methods and their recipient fields, funding the payout balance
 * (transfer from pay-in, swap to local), sending on a real rail (simulated driver) and on the
 * sandbox rails, every refusal, and racing payouts that must never overdraw, on every store.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { call, createMerchant, fundProductionPayouts, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const spei = {
  name: "Ana María López",
  documentType: "RFC",
  documentId: "GODE561231GR8",
  account: "032180000118359719",
  email: "ana@example.com"
}

const ledgerBalances = (environment: "sandbox" | "production", shopId: string) =>
  Effect.gen(function*() {
    const sums = yield* (yield* LedgerStore).postingSums(environment, shopId)
    for (const currency of new Set(sums.map((s) => s.currency))) {
      const total = sums.filter((s) => s.currency === currency).map((s) => s.balance).reduce(BigDecimal.sum)
      assert.isTrue(BigDecimal.isZero(total), `journal of ${currency} does not sum to zero`)
    }
  })

for (const target of storeTargets("payouts")) {
  describe(`payouts on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("methods list the sandbox rails first with exact recipient fields; icons resolve; currencies USD first", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const methods = (yield* call("GET", "/api/v1/me/payout/methods", { bearer: sk })).body.items
          assert.deepStrictEqual(methods.slice(0, 4).map((x: { id: string }) => x.id), ["sbx_po_mx_spei", "sbx_po_br_pix", "sbx_po_co_bank", "sbx_po_pe_bank"])
          const mx = methods.find((x: { id: string }) => x.id === "po_mx_spei")
          assert.deepInclude(mx, { currency: "MXN", country: "MX", rail: "spei", minUsd: 1, maxUsd: 50000, funded: false, currencyAvailable: 0 })
          assert.deepStrictEqual(mx.recipientFields.map((f: { key: string; required: boolean }) => `${f.key}${f.required ? "*" : ""}`), [
            "name*",
            "documentType*",
            "documentId*",
            "account*",
            "email"
          ])
          const icon = yield* call("GET", new URL(mx.iconUrl).pathname, {})
          assert.strictEqual(icon.status, 200)
          assert.include(icon.body, "<svg")
          const live = (yield* call("GET", "/api/v1/me/payout/methods", { bearer: m.keys.production.secretKey })).body.items
          assert.isFalse(live.some((x: { id: string }) => x.id.startsWith("sbx_")))
          const currencies = (yield* call("GET", "/api/v1/me/payout/currencies", { bearer: sk })).body.currencies
          assert.strictEqual(currencies[0].currency, "USD")
          const rest = currencies.slice(1).map((c: { currency: string }) => c.currency)
          assert.deepStrictEqual(rest, [...rest].sort())
        }))

      it.effect("transfer, swap, send on SPEI: exact amounts, balanced journal, payout.completed", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const shopId = m.shops[0]!.id
          assert.strictEqual((yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 500 } })).status, 200)

          const moved = yield* call("POST", "/api/v1/me/payout/transfer", { bearer: sk, body: { amount: 200 }, headers: { "idempotency-key": "t-1" } })
          assert.strictEqual(moved.status, 200)
          assert.deepInclude(moved.body.transfer, { amount: 200, currency: "USD", payinAvailableAfter: 300, payoutAvailableAfter: 200 })
          const again = yield* call("POST", "/api/v1/me/payout/transfer", { bearer: sk, body: { amount: 200 }, headers: { "idempotency-key": "t-1" } })
          assert.deepStrictEqual(again.body, moved.body)
          const tooMuch = yield* call("POST", "/api/v1/me/payout/transfer", { bearer: sk, body: { amount: 300.01 } })
          assert.strictEqual(tooMuch.status, 422)
          assert.deepInclude(tooMuch.body.error.details, { currency: "USD", available: 300, shortfall: 0.01, availableUsd: 300, shortfallUsd: 0.01 })

          const quote = (yield* call("GET", "/api/v1/me/payout/swap?to=MXN&amount=100", { bearer: sk })).body.quote
          assert.deepStrictEqual(quote, { fromCurrency: "USD", toCurrency: "MXN", amountUsd: 100, rate: 18.13, amount: 1813, indicative: true })
          const swap = yield* call("POST", "/api/v1/me/payout/swap", { bearer: sk, body: { toCurrency: "MXN", amountUsd: 100 }, headers: { "idempotency-key": "sw-1" } })
          assert.strictEqual(swap.status, 200)
          assert.deepInclude(swap.body.swap, { amountUsd: 100, amount: 1813, usdAvailableAfter: 100, localAvailableAfter: 1813 })
          assert.strictEqual((yield* call("POST", "/api/v1/me/payout/swap", { bearer: sk, body: { toCurrency: "EUR", amountUsd: 1 } })).status, 400)

          const sent = yield* call("POST", "/api/v1/me/payout/send", {
            bearer: sk,
            body: { methodId: "po_mx_spei", amount: 1000.5, recipient: spei },
            headers: { "idempotency-key": "p-1" }
          })
          assert.strictEqual(sent.status, 201)
          assert.match(sent.body.payout.id, /^po-/)
          assert.deepInclude(sent.body.payout, { methodId: "po_mx_spei", method: "spei", currency: "MXN", amount: 1000.5, status: "completed", provider: "simulated" })
          assert.isString(sent.body.payout.completedAt)
          const replay = yield* call("POST", "/api/v1/me/payout/send", {
            bearer: sk,
            body: { methodId: "po_mx_spei", amount: 1000.5, recipient: spei },
            headers: { "idempotency-key": "p-1" }
          })
          assert.deepStrictEqual(replay.body, sent.body)

          const balance = (yield* call("GET", "/api/v1/me/payout/balance", { bearer: sk })).body
          assert.deepStrictEqual(balance.balances, [
            { currency: "USD", available: 100, pending: 0, reserved: 0 },
            { currency: "MXN", available: 812.5, pending: 0, reserved: 0 }
          ])
          assert.deepStrictEqual(balance.transferableFromPayin, { currency: "USD", amount: 300 })
          const got = yield* call("GET", `/api/v1/me/payout/send/${sent.body.payout.id}`, { bearer: sk })
          assert.deepStrictEqual(got.body.payout, sent.body.payout)
          const events = (yield* (yield* OutboxStore).list("sandbox", shopId)).filter((e) => e.type.startsWith("payout."))
          assert.deepStrictEqual(events.map((e) => e.type), ["payout.completed"])
          // The completed payout left the platform: nothing stays in flight.
          const ledger = yield* LedgerStore
          assert.strictEqual(BigDecimal.format(yield* ledger.balance("sandbox", shopId, "external", "MXN")), "1000.5")
          assert.isTrue(BigDecimal.isZero(yield* ledger.balance("sandbox", shopId, "payouts_in_flight", "MXN")))
          yield* ledgerBalances("sandbox", shopId)
        }))

      it.effect("refusals: unknown method, bad amount, unfunded currency, insufficient balance, recipient field by field", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const send = (body: unknown) => call("POST", "/api/v1/me/payout/send", { bearer: sk, body })
          const expect = (reply: { status: number; body: any }, status: number, code: string) => {
            assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
            assert.strictEqual(reply.body.error.code, code)
          }
          expect(yield* send({ methodId: "po_xx", amount: 10, recipient: spei }), 422, "payout_method_unavailable")
          expect(yield* send({ methodId: "po_mx_spei", amount: 10.123, recipient: spei }), 422, "amount_invalid")
          expect(yield* send({ methodId: "po_mx_spei", amount: 5, recipient: spei }), 422, "amount_invalid") // below 1 USD
          expect(yield* send({ methodId: "po_mx_spei", amount: 100, recipient: spei }), 422, "currency_not_funded")
          const bad = yield* send({ methodId: "po_mx_spei", amount: 100, recipient: { ...spei, account: "032180000118359718", documentId: "" } })
          expect(bad, 400, "invalid_request")
          assert.deepStrictEqual(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort(), ["recipient.account", "recipient.documentId"])
          expect(yield* send({ methodId: "po_mx_spei", amount: 100, recipient: "nobody" }), 400, "invalid_request")

          yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body: { currency: "MXN", amount: 150 } })
          const short = yield* send({ methodId: "po_mx_spei", amount: 185, recipient: spei })
          expect(short, 422, "balance_insufficient")
          // USD equivalents at the rate of the moment, FX margin inside: 150 / 18.50 × 0.98 = 7.945… → 7.95; 35 → 1.854… → 1.85.
          assert.deepStrictEqual(short.body.error.details, { currency: "MXN", requested: 185, available: 150, shortfall: 35, availableUsd: 7.95, shortfallUsd: 1.85 })

          // Test money follows the pay-in balance's rules: known currency, 0 < amount <= 1000000.
          for (const body of [{ currency: "XYZ", amount: 1 }, { currency: "MXN", amount: 0 }, { currency: "MXN", amount: 1000000.01 }]) {
            expect(yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body }), 400, "invalid_request")
          }
          const live = m.keys.production.secretKey
          expect(yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: live, body: { currency: "MXN", amount: 1 } }), 400, "fund_sandbox_only")
          expect(yield* call("POST", "/api/v1/me/payout/send", { bearer: live, body: { methodId: "sbx_po_mx_spei", amount: 100, recipient: spei } }), 422, "payout_method_unavailable")
        }))

      it.effect("production never fakes a payout: without a payout provider the rail is not routable and sending debits nothing", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const live = m.keys.production.secretKey
          const shopId = m.shops[0]!.id
          yield* fundProductionPayouts(shopId, "MXN", "1000")
          const methods = (yield* call("GET", "/api/v1/me/payout/methods", { bearer: live })).body.items
          const mx = methods.find((x: { id: string }) => x.id === "po_mx_spei")
          assert.deepInclude(mx, { routable: false, unroutableReason: "no_payout_provider_configured", driver: null })
          const sandboxMx = (yield* call("GET", "/api/v1/me/payout/methods", { bearer: m.keys.sandbox.secretKey })).body.items
            .find((x: { id: string }) => x.id === "po_mx_spei")
          assert.deepInclude(sandboxMx, { routable: true, unroutableReason: null, driver: "simulated" })

          const refused = yield* call("POST", "/api/v1/me/payout/send", { bearer: live, body: { methodId: "po_mx_spei", amount: 200, recipient: spei } })
          assert.strictEqual(refused.status, 422, JSON.stringify(refused.body))
          assert.strictEqual(refused.body.error.code, "payout_method_unavailable")
          const balance = (yield* call("GET", "/api/v1/me/payout/balance", { bearer: live })).body.balances
          assert.strictEqual(balance.find((b: { currency: string }) => b.currency === "MXN").available, 1000)
          assert.strictEqual((yield* call("GET", "/api/v1/me/payout/send", { bearer: live })).body.pagination.total, 0)
          const events = (yield* (yield* OutboxStore).list("production", shopId)).filter((e) => e.type.startsWith("payout."))
          assert.deepStrictEqual(events, [])
        }))

      it.effect("a rejected beneficiary reverses the debit (422); the corrected retry with the same key executes", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const shopId = m.shops[0]!.id
          yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body: { currency: "MXN", amount: 500 } })
          const headers = { "idempotency-key": "retry-1" }
          const rejected = yield* call("POST", "/api/v1/me/payout/send", {
            bearer: sk,
            body: { methodId: "po_mx_spei", amount: 200, recipient: { ...spei, name: "REJECT Me" } },
            headers
          })
          assert.strictEqual(rejected.status, 422)
          assert.strictEqual(rejected.body.error.code, "payout_dispatch_failed")
          assert.isTrue(rejected.body.error.details.debitReversed)
          const failed = (yield* call("GET", `/api/v1/me/payout/send/${rejected.body.error.details.payoutId}`, { bearer: sk })).body.payout
          assert.deepInclude(failed, { status: "failed", failureReason: "simulated driver: the beneficiary was rejected" })
          const mxn = () => Effect.map(call("GET", "/api/v1/me/payout/balance", { bearer: sk }), (r) => r.body.balances.find((b: { currency: string }) => b.currency === "MXN").available)
          assert.strictEqual(yield* mxn(), 500)

          const fixed = yield* call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "po_mx_spei", amount: 200, recipient: spei }, headers })
          assert.strictEqual(fixed.status, 201)
          assert.strictEqual(fixed.body.payout.status, "completed")
          assert.strictEqual(yield* mxn(), 300)
          const list = (yield* call("GET", "/api/v1/me/payout/send?status=failed", { bearer: sk })).body
          assert.strictEqual(list.pagination.total, 1)
          const events = (yield* (yield* OutboxStore).list("sandbox", shopId)).filter((e) => e.type.startsWith("payout."))
          assert.sameMembers(events.map((e) => e.type), ["payout.failed", "payout.completed"])
          yield* ledgerBalances("sandbox", shopId)
        }))

      it.effect("sandbox rails debit nothing and wait for simulate; every refused transition is refused", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const start = (amount: number) =>
            Effect.map(call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "sbx_po_mx_spei", amount, recipient: spei } }), (r) => {
              assert.strictEqual(r.status, 201, JSON.stringify(r.body))
              assert.deepInclude(r.body.payout, { status: "processing", provider: "sandbox", completedAt: null })
              return r.body.payout.id as string
            })
          const simulate = (id: string, action: string) => call("POST", `/api/v1/me/payout/send/${id}/simulate`, { bearer: sk, body: { action } })
          for (const [actions, final] of [[["completed"], "completed"], [["processing", "paid"], "completed"], [["failed"], "failed"], [["rejected"], "failed"], [["refunded"], "failed"], [["returned"], "failed"]] as const) {
            const id = yield* start(100)
            let reply = yield* simulate(id, actions[0])
            for (const action of actions.slice(1)) reply = yield* simulate(id, action)
            assert.strictEqual(reply.status, 200)
            assert.strictEqual(reply.body.payout.status, final)
            if (final === "failed") assert.strictEqual(reply.body.payout.failureReason, `simulated: ${actions.at(-1)}`)
            for (const action of ["completed", "failed", "processing"]) {
              const refused = yield* simulate(id, action)
              assert.strictEqual(refused.status, 400)
              assert.strictEqual(refused.body.error.code, "invalid_request")
            }
          }
          const balances = (yield* call("GET", "/api/v1/me/payout/balance", { bearer: sk })).body.balances
          assert.deepStrictEqual(balances, [{ currency: "USD", available: 0, pending: 0, reserved: 0 }])
          assert.strictEqual((yield* simulate("po-missing", "completed")).status, 404)
          assert.strictEqual((yield* simulate((yield* start(50)), "exploded")).status, 400)
        }))

      it.effect("racing simulations of one payout: one moves it, every other is told what it became", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const sent = yield* call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "sbx_po_mx_spei", amount: 100, recipient: spei } })
          const id = sent.body.payout.id as string
          const replies = yield* Effect.forEach(
            Array.from({ length: 10 }, (_, i) => i % 2 === 0 ? "completed" : "failed"),
            (action) => call("POST", `/api/v1/me/payout/send/${id}/simulate`, { bearer: sk, body: { action } }),
            { concurrency: "unbounded" }
          )
          const moved = replies.filter((r) => r.status === 200)
          assert.strictEqual(moved.length, 1, JSON.stringify(replies.map((r) => r.body)))
          const final = moved[0]!.body.payout.status as string
          for (const refused of replies.filter((r) => r.status !== 200)) {
            assert.strictEqual(refused.status, 400)
            assert.deepStrictEqual(refused.body.error.details.issues, [{ path: "action", message: `The payout is already ${final}` }])
          }
        }))

      it.effect("100 racing payouts never overdraw the balance", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body: { currency: "MXN", amount: 1000 } })
          const replies = yield* Effect.forEach(
            Array.from({ length: 100 }, (_, i) => i),
            (i) => call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "po_mx_spei", amount: 30, recipient: spei }, headers: { "idempotency-key": `race-${i}` } }),
            { concurrency: 100 }
          )
          const ok = replies.filter((r) => r.status === 201).length
          assert.strictEqual(ok, 33)
          assert.isTrue(replies.every((r) => r.status === 201 || r.body.error.code === "balance_insufficient"))
          const mxn = (yield* call("GET", "/api/v1/me/payout/balance", { bearer: sk })).body.balances.find((b: { currency: string }) => b.currency === "MXN")
          assert.strictEqual(mxn.available, 10)
          assert.strictEqual(Money.toText(Money.decimal(String(mxn.available))), "10")
          yield* ledgerBalances("sandbox", m.shops[0]!.id)
        }))
    })
  })
}
