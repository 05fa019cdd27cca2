/**
 * Payouts as a merchant calls them: methods and their recipient fields, funding the payout balance
 * (transfer from pay-in, swap to local), sending on a real rail (simulated driver) and on the
 * sandbox rails, every refusal, and racing payouts that must never overdraw, on every store.
 * Requests go through the typed client (TypedApi.ts); `call` stays for a static icon and for
 * bodies the typed client would not send.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { ApiError } from "../../core/ApiError.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import type { PayoutAction } from "../../core/payouts/Payout.ts"
import { call, createMerchant, fundProductionPayouts, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

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

const d = Money.decimal

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

/** The refusal has the status and code expected. */
const expectRefusal = (refusal: ApiError, status: number, code: string) => {
  assert.strictEqual(httpStatus[refusal.code], status, JSON.stringify(refusal))
  assert.strictEqual(refusal.code, code)
}

for (const target of storeTargets("payouts")) {
  describe(`payouts on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("methods list the sandbox rails first with exact recipient fields; icons resolve; currencies USD first", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          const methods = (yield* api.payouts.methods()).items
          assert.deepStrictEqual(methods.slice(0, 4).map((x) => x.id), ["sbx_po_mx_spei", "sbx_po_br_pix", "sbx_po_co_bank", "sbx_po_pe_bank"])
          const mx = methods.find((x) => x.id === "po_mx_spei")!
          assert.deepInclude(mx, { currency: "MXN", country: "MX", rail: "spei", minUsd: 1, maxUsd: 50000, funded: false, currencyAvailable: 0 })
          assert.deepStrictEqual(mx.recipientFields.map((f) => `${f.key}${f.required ? "*" : ""}`), [
            "name*",
            "documentType*",
            "documentId*",
            "account*",
            "email"
          ])
          // A static asset, not an API operation.
          const icon = yield* call("GET", new URL(mx.iconUrl).pathname, {})
          assert.strictEqual(icon.status, 200)
          assert.include(icon.body, "<svg")
          const live = (yield* (yield* apiAs(m.keys.production.secretKey)).payouts.methods()).items
          assert.isFalse(live.some((x) => x.id.startsWith("sbx_")))
          const currencies = (yield* api.payouts.currencies()).currencies
          assert.strictEqual(currencies[0]!.currency, "USD")
          const rest = currencies.slice(1).map((c) => c.currency)
          assert.deepStrictEqual(rest, [...rest].sort())
        }))

      it.effect("transfer, swap, send on SPEI: exact amounts, balanced journal, payout.completed", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          const shopId = m.shops[0]!.id
          const [, funded] = yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: d("500") }, ...withResponse })
          assert.strictEqual(funded.status, 200)

          const transfer = api.payouts.transfer({ payload: { amount: d("200") }, headers: { "idempotency-key": "t-1" }, ...withResponse })
          const [moved, movedReply] = yield* transfer
          assert.strictEqual(movedReply.status, 200)
          assert.deepInclude(moved.transfer, { amount: 200, currency: "USD", payinAvailableAfter: 300, payoutAvailableAfter: 200 })
          const [again] = yield* transfer
          assert.deepStrictEqual(again, moved)
          const tooMuch = yield* refused(api.payouts.transfer({ payload: { amount: d("300.01") }, headers: {} }))
          assert.strictEqual(httpStatus[tooMuch.code], 422)
          assert.deepInclude(tooMuch.details, { currency: "USD", available: 300, shortfall: 0.01, availableUsd: 300, shortfallUsd: 0.01 })

          const quote = (yield* api.payouts.swapQuote({ query: { to: "MXN", amount: 100 } })).quote
          assert.deepStrictEqual(quote, { fromCurrency: "USD", toCurrency: "MXN", amountUsd: 100, rate: 18.13, amount: 1813, indicative: true })
          const [swap, swapReply] = yield* api.payouts.swap({ payload: { toCurrency: "MXN", amountUsd: d("100") }, headers: { "idempotency-key": "sw-1" }, ...withResponse })
          assert.strictEqual(swapReply.status, 200)
          assert.deepInclude(swap.swap, { amountUsd: 100, amount: 1813, usdAvailableAfter: 100, localAvailableAfter: 1813 })
          assert.strictEqual(httpStatus[(yield* refused(api.payouts.swap({ payload: { toCurrency: "EUR", amountUsd: d("1") }, headers: {} }))).code], 400)

          const send = api.payouts.send({ payload: { methodId: "po_mx_spei", amount: d("1000.5"), recipient: spei }, headers: { "idempotency-key": "p-1" }, ...withResponse })
          const [sent, sentReply] = yield* send
          assert.strictEqual(sentReply.status, 201)
          assert.match(sent.payout.id, /^po-/)
          assert.deepInclude(sent.payout, { methodId: "po_mx_spei", method: "spei", currency: "MXN", amount: 1000.5, status: "completed", provider: "simulated" })
          assert.isString(sent.payout.completedAt)
          const [replay] = yield* send
          assert.deepStrictEqual(replay, sent)

          const balance = yield* api.payouts.balance()
          assert.deepStrictEqual(balance.balances, [
            { currency: "USD", available: 100, pending: 0, reserved: 0 },
            { currency: "MXN", available: 812.5, pending: 0, reserved: 0 }
          ])
          assert.deepStrictEqual(balance.transferableFromPayin, { currency: "USD", amount: 300 })
          const got = yield* api.payouts.get({ params: { id: sent.payout.id } })
          assert.deepStrictEqual(got.payout, sent.payout)
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
          const api = yield* apiAs(sk)
          const send = (methodId: string, amount: string, recipient: unknown = spei) =>
            refused(api.payouts.send({ payload: { methodId, amount: d(amount), recipient }, headers: {} }))
          expectRefusal(yield* send("po_xx", "10"), 422, "payout_method_unavailable")
          expectRefusal(yield* send("po_mx_spei", "10.123"), 422, "amount_invalid")
          expectRefusal(yield* send("po_mx_spei", "5"), 422, "amount_invalid") // below 1 USD
          expectRefusal(yield* send("po_mx_spei", "100"), 422, "currency_not_funded")
          const bad = yield* send("po_mx_spei", "100", { ...spei, account: "032180000118359718", documentId: "" })
          expectRefusal(bad, 400, "invalid_request")
          assert.deepStrictEqual((bad.details["issues"] as ReadonlyArray<{ path: string }>).map((i) => i.path).sort(), ["recipient.account", "recipient.documentId"])
          expectRefusal(yield* send("po_mx_spei", "100", "nobody"), 400, "invalid_request")

          yield* api.payouts.fundSandbox({ payload: { currency: "MXN", amount: d("150") } })
          const short = yield* send("po_mx_spei", "185")
          expectRefusal(short, 422, "balance_insufficient")
          // USD equivalents at the rate of the moment, FX margin inside: 150 / 18.50 × 0.98 = 7.945… → 7.95; 35 → 1.854… → 1.85.
          assert.deepStrictEqual(short.details, { currency: "MXN", requested: 185, available: 150, shortfall: 35, availableUsd: 7.94, shortfallUsd: 1.85 })

          // Test money follows the pay-in balance's rules: known currency, 0 < amount <= 1000000 (raw: amounts out of bounds).
          for (const body of [{ currency: "XYZ", amount: 1 }, { currency: "MXN", amount: 0 }, { currency: "MXN", amount: 1000000.01 }]) {
            const reply = yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body })
            assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
            assert.strictEqual(reply.body.error.code, "invalid_request")
          }
          const live = yield* apiAs(m.keys.production.secretKey)
          expectRefusal(yield* refused(live.payouts.fundSandbox({ payload: { currency: "MXN", amount: d("1") } })), 400, "fund_sandbox_only")
          expectRefusal(yield* refused(live.payouts.send({ payload: { methodId: "sbx_po_mx_spei", amount: d("100"), recipient: spei }, headers: {} })), 422, "payout_method_unavailable")
        }))

      it.effect("production never fakes a payout: without a payout provider the rail is not routable and sending debits nothing", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const live = yield* apiAs(m.keys.production.secretKey)
          const shopId = m.shops[0]!.id
          yield* fundProductionPayouts(shopId, "MXN", "1000")
          const methods = (yield* live.payouts.methods()).items
          const mx = methods.find((x) => x.id === "po_mx_spei")
          assert.deepInclude(mx, { routable: false, unroutableReason: "no_payout_provider_configured", driver: null })
          const sandboxMx = (yield* (yield* apiAs(m.keys.sandbox.secretKey)).payouts.methods()).items.find((x) => x.id === "po_mx_spei")
          assert.deepInclude(sandboxMx, { routable: true, unroutableReason: null, driver: "simulated" })

          const refusal = yield* refused(live.payouts.send({ payload: { methodId: "po_mx_spei", amount: d("200"), recipient: spei }, headers: {} }))
          expectRefusal(refusal, 422, "payout_method_unavailable")
          const balance = (yield* live.payouts.balance()).balances
          assert.strictEqual(balance.find((b) => b.currency === "MXN")!.available, 1000)
          assert.strictEqual((yield* live.payouts.list({ query: {} })).pagination.total, 0)
          const events = (yield* (yield* OutboxStore).list("production", shopId)).filter((e) => e.type.startsWith("payout."))
          assert.deepStrictEqual(events, [])
        }))

      it.effect("a rejected beneficiary reverses the debit (422); the corrected retry with the same key executes", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          const shopId = m.shops[0]!.id
          yield* api.payouts.fundSandbox({ payload: { currency: "MXN", amount: d("500") } })
          const headers = { "idempotency-key": "retry-1" }
          const rejected = yield* refused(api.payouts.send({ payload: { methodId: "po_mx_spei", amount: d("200"), recipient: { ...spei, name: "REJECT Me" } }, headers }))
          expectRefusal(rejected, 422, "payout_dispatch_failed")
          assert.isTrue(rejected.details["debitReversed"])
          const failed = (yield* api.payouts.get({ params: { id: String(rejected.details["payoutId"]) } })).payout
          assert.deepInclude(failed, { status: "failed", failureReason: "simulated driver: the beneficiary was rejected" })
          const mxn = () => Effect.map(api.payouts.balance(), (r) => r.balances.find((b) => b.currency === "MXN")!.available)
          assert.strictEqual(yield* mxn(), 500)

          const [fixed, fixedReply] = yield* api.payouts.send({ payload: { methodId: "po_mx_spei", amount: d("200"), recipient: spei }, headers, ...withResponse })
          assert.strictEqual(fixedReply.status, 201)
          assert.strictEqual(fixed.payout.status, "completed")
          assert.strictEqual(yield* mxn(), 300)
          const list = yield* api.payouts.list({ query: { status: "failed" } })
          assert.strictEqual(list.pagination.total, 1)
          const events = (yield* (yield* OutboxStore).list("sandbox", shopId)).filter((e) => e.type.startsWith("payout."))
          assert.sameMembers(events.map((e) => e.type), ["payout.failed", "payout.completed"])
          yield* ledgerBalances("sandbox", shopId)
        }))

      it.effect("sandbox rails debit nothing and wait for simulate; every refused transition is refused", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          const api = yield* apiAs(sk)
          const start = (amount: string) =>
            Effect.map(api.payouts.send({ payload: { methodId: "sbx_po_mx_spei", amount: d(amount), recipient: spei }, headers: {}, ...withResponse }), ([r, reply]) => {
              assert.strictEqual(reply.status, 201, JSON.stringify(r))
              assert.deepInclude(r.payout, { status: "processing", provider: "sandbox", completedAt: null })
              return r.payout.id
            })
          const simulate = (id: string, action: PayoutAction) => api.payouts.simulate({ params: { id }, payload: { action }, ...withResponse })
          for (const [actions, final] of [[["completed"], "completed"], [["processing", "paid"], "completed"], [["failed"], "failed"], [["rejected"], "failed"], [["refunded"], "failed"], [["returned"], "failed"]] as const) {
            const id = yield* start("100")
            let reply = yield* simulate(id, actions[0])
            for (const action of actions.slice(1)) reply = yield* simulate(id, action)
            assert.strictEqual(reply[1].status, 200)
            assert.strictEqual(reply[0].payout.status, final)
            if (final === "failed") assert.strictEqual(reply[0].payout.failureReason, `simulated: ${actions.at(-1)}`)
            for (const action of ["completed", "failed", "processing"] as const) {
              expectRefusal(yield* refused(simulate(id, action)), 400, "invalid_request")
            }
          }
          const balances = (yield* api.payouts.balance()).balances
          assert.deepStrictEqual(balances, [{ currency: "USD", available: 0, pending: 0, reserved: 0 }])
          assert.strictEqual(httpStatus[(yield* refused(simulate("po-missing", "completed"))).code], 404)
          // Raw: an action the typed client cannot send.
          assert.strictEqual((yield* call("POST", `/api/v1/me/payout/send/${yield* start("50")}/simulate`, { bearer: sk, body: { action: "exploded" } })).status, 400)
        }))

      it.effect("racing simulations of one payout: one moves it, every other is told what it became", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          const sent = yield* api.payouts.send({ payload: { methodId: "sbx_po_mx_spei", amount: d("100"), recipient: spei }, headers: {} })
          const id = sent.payout.id
          const replies = yield* Effect.forEach(
            Array.from({ length: 10 }, (_, i) => i % 2 === 0 ? "completed" as const : "failed" as const),
            (action) => api.payouts.simulate({ params: { id }, payload: { action }, ...withResponse }).pipe(Effect.catchTag("ApiError", (e) => Effect.succeed(e))),
            { concurrency: "unbounded" }
          )
          const moved = replies.flatMap((r) => r instanceof ApiError || r[1].status !== 200 ? [] : [r[0]])
          assert.strictEqual(moved.length, 1, JSON.stringify(replies.map((r) => r instanceof ApiError ? r : r[0])))
          const final = moved[0]!.payout.status
          for (const refusal of replies.filter((r) => r instanceof ApiError)) {
            assert.strictEqual(httpStatus[refusal.code], 400)
            assert.deepStrictEqual(refusal.details["issues"], [{ path: "action", message: `The payout is already ${final}` }])
          }
          // Every answer is either the one move or a refusal.
          assert.strictEqual(moved.length + replies.filter((r) => r instanceof ApiError).length, replies.length)
        }))

      it.effect("100 racing payouts never overdraw the balance", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const api = yield* apiAs(m.keys.sandbox.secretKey)
          yield* api.payouts.fundSandbox({ payload: { currency: "MXN", amount: d("1000") } })
          const replies = yield* Effect.forEach(
            Array.from({ length: 100 }, (_, i) => i),
            (i) =>
              api.payouts.send({ payload: { methodId: "po_mx_spei", amount: d("30"), recipient: spei }, headers: { "idempotency-key": `race-${i}` }, ...withResponse }).pipe(
                Effect.catchTag("ApiError", (e) => Effect.succeed(e))
              ),
            { concurrency: 100 }
          )
          const ok = replies.filter((r) => !(r instanceof ApiError) && r[1].status === 201).length
          assert.strictEqual(ok, 33)
          assert.isTrue(replies.every((r) => r instanceof ApiError ? r.code === "balance_insufficient" : r[1].status === 201))
          const mxn = (yield* api.payouts.balance()).balances.find((b) => b.currency === "MXN")!
          assert.strictEqual(mxn.available, 10)
          assert.strictEqual(Money.toText(Money.decimal(String(mxn.available))), "10")
          yield* ledgerBalances("sandbox", m.shops[0]!.id)
        }))
    })
  })
}
