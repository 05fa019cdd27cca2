/**
 * Pay-ins through the API as a merchant calls it: the catalog, creating payments with every rule
 * of spec 4.5, Sandbox-Simulate outcomes, idempotent retries under concurrency, lists and reads,
 * forged callbacks (PaymentsOnStores.test.ts: idempotent retries under concurrency and the balance,
 * on every store). Requests go through the typed
 * client (TypedApi.ts), so a changed answer shape fails to compile; `call` stays for what that
 * client cannot send (malformed input, forged callbacks) or decodes away (an error's wire `type`).
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect, Option, Redacted, Schema } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { PaymentJson } from "../../core/payments/Payment.ts"
import { adminToken, baseUrl, call, createMerchant, drainWork, eventually, testHost } from "../support/Host.ts"
import { apiAs, refused, withResponse } from "../support/TypedApi.ts"

const d = Money.decimal
const markup = d("1.02")
const round = Money.round

const sandboxMerchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey }))


describe("pay-ins", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the sandbox catalog lists every rail as routable, filtered by country, channel and method", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const [all, allReply] = yield* (yield* apiAs(keys.sandbox.publishableKey)).catalog.paymentMethods({ query: {}, ...withResponse })
        assert.strictEqual(allReply.status, 200)
        assert.strictEqual(all.environment, "sandbox")
        assert.strictEqual(all.count, all.methods.length)
        assert.strictEqual(all.routableCount, all.count)
        assert.strictEqual(all.totalAvailable, all.count)
        for (const id of ["sbx_pix", "sbx_spei", "sbx_card", "sbx_pse", "sbx_cash"]) {
          assert.include(all.methods.map((m) => m.paymentMethodId), id)
        }
        const api = yield* apiAs(keys.sandbox.secretKey)
        const brazil = yield* api.catalog.paymentMethods({ query: { country: "bra" } })
        assert.isTrue(brazil.methods.every((m) => m.country === "BR" && m.countryIso3 === "BRA"))
        assert.strictEqual(brazil.filters.country, "BR")
        assert.isAbove(brazil.count, 20)
        const cash = yield* api.catalog.paymentMethods({ query: { country: "MX", channel: "CASH" } })
        assert.isTrue(cash.count > 0 && cash.methods.every((m) => m.channel === "CASH"))
        const pix = yield* api.catalog.paymentMethods({ query: { method: "pix" } })
        assert.isTrue(pix.methods.every((m) => m.method === "pix"))
        const bad = yield* refused(api.catalog.paymentMethods({ query: { country: "XX" } }))
        assert.strictEqual(httpStatus[bad.code], 400)

        const icon = all.methods[0]!.iconUrl
        assert.match(icon, /^http:\/\/api\.test\.local\/icons\/payment-methods\/.+\.svg$/)
        const served = yield* Effect.flatMap(baseUrl, (base) => Effect.promise(() => fetch(base + new URL(icon).pathname)))
        assert.strictEqual(served.status, 200)
        assert.include(served.headers.get("content-type") ?? "", "image/svg+xml")
      }))

    it.effect("in production nothing is routable until a provider is configured; sandbox test methods are not listed", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const api = yield* apiAs(keys.production.secretKey)
        const live = yield* api.catalog.paymentMethods({ query: {} })
        assert.strictEqual(live.environment, "production")
        assert.strictEqual(live.routableCount, 0)
        assert.isTrue(live.methods.every((m) => !m.routable && m.unroutableReason === "no_provider_for_method_region"))
        assert.notInclude(live.methods.map((m) => m.paymentMethodId), "sbx_pix")
        const refusal = yield* refused(api.payments.create({ payload: { amount: d("10"), paymentMethodId: live.methods[0]!.paymentMethodId }, headers: {} }))
        assert.strictEqual(httpStatus[refusal.code], 422)
        assert.strictEqual(refusal.code, "cascade_exhausted")
        assert.strictEqual(refusal.details["reason"], "no_provider_for_method_region")
        // The id is in the shop's own listing: enabled for it, only no provider serves it.
        assert.strictEqual(refusal.details["paymentMethodEnabledForShop"], true)
      }))

    it.effect("a USD payment: converted amounts, fees and settlement to the cent", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const [p, reply] = yield* api.payments.create({
          payload: {
            amount: d("100"), paymentMethodId: "sbx_pix", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725"),
            merchantOrderId: "order-77", tag1: "  keep me  ", tag3: "é ü 😀"
          },
          headers: {},
          ...withResponse
        })
        assert.strictEqual(reply.status, 201)
        const method = findMethod("sbx_pix")!
        const local = round(BigDecimal.multiply(BigDecimal.multiply(d("100"), d("5.40")), markup), "BRL")
        assert.match(p.transactionId, /^TXN-/)
        assert.strictEqual(p.status, "pending")
        assert.strictEqual(p.currency, "USD")
        assert.strictEqual(p.amount, 100)
        assert.notProperty(p, "inputCurrency")
        assert.strictEqual(p.amountLocal, Money.toJsonNumber(local))
        assert.strictEqual(p.currencyLocal, "BRL")
        assert.strictEqual(p.paymentMethod, "pix")
        assert.strictEqual(p.paymentData.method, "pix")
        assert.match(p.paymentFormUrl ?? "", /^http/)
        assert.notProperty(p, "checkoutUrl")
        const providerFee = BigDecimal.sum(round(BigDecimal.divideUnsafe(BigDecimal.multiply(d("100"), d(method.fee.percent)), d("100")), "USD"), d(method.fee.flat))
        assert.deepStrictEqual(p.fees, {
          platform: 3.2,
          provider: Money.toJsonNumber(providerFee),
          network: 0,
          total: Money.toJsonNumber(BigDecimal.sum(d("3.2"), providerFee))
        })
        assert.deepStrictEqual(p.settlement, { type: "delayed", delay: `T+${method.settlementDays}`, reserve: 10, status: "pending" })
        assert.strictEqual(p.tag1, "  keep me  ")
        assert.strictEqual(p.tag2, null)
        assert.strictEqual(p.tag3, "é ü 😀")
        assert.strictEqual(p.merchantOrderId, "order-77")
        assert.isFalse(Number.isNaN(Date.parse(p.expiresAt)))

        // The answers decode with unknown fields refused, so the document cannot hide in an undeclared one either.
        const [read, readReply] = yield* api.payments.get({ params: { id: p.transactionId }, ...withResponse })
        assert.strictEqual(readReply.status, 200)
        assert.strictEqual(read.id, p.transactionId)
        assert.strictEqual(read.country, "BRA")
        assert.strictEqual(read.routing.provider, "sandbox")
        assert.strictEqual(read.routing.attempts[0]!.outcome, "accepted")
        assert.notInclude(JSON.stringify(read), "52998224725")
        const alias = yield* api.payments.getTransaction({ params: { id: p.transactionId } })
        assert.deepStrictEqual(alias, read)

        // Stored: the caller's address as userIp (none was sent), and never the document.
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(p.transactionId))
        assert.match(stored.userIp ?? "", /127\.0\.0\.1/)
        assert.notInclude(JSON.stringify(Schema.encodeSync(PaymentJson)(stored)), "52998224725")
      }))

    it.effect("a presentment currency: inputCurrency/inputAmount and the USD headline at the rate minus markup", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const [payment, reply] = yield* api.payments.createTransaction({ payload: { amount: d("540"), currency: "brl", paymentMethodId: "sbx_pix" }, headers: {}, ...withResponse })
        assert.strictEqual(reply.status, 201)
        // The headline is what the merchant receives: rounded down.
        const usd = Money.roundFor(BigDecimal.multiply(BigDecimal.divideUnsafe(d("540"), d("5.40")), d("0.98")), "USD", "receives")
        assert.strictEqual(payment.currency, "USD")
        assert.strictEqual(payment.inputCurrency, "BRL")
        assert.strictEqual(payment.inputAmount, 540)
        assert.strictEqual(payment.amount, Money.toJsonNumber(usd))
        // Priced in the rail's currency: the buyer pays exactly that, no round trip through USD.
        assert.strictEqual(payment.amountLocal, 540)

        const cop = yield* api.payments.create({ payload: { amount: d("25"), paymentMethodId: "sbx_pse" }, headers: {} })
        assert.strictEqual(cop.currencyLocal, "COP")
        // Priced in USD: what the buyer pays in the rail's currency is rounded up.
        assert.strictEqual(cop.amountLocal, Money.toJsonNumber(Money.roundFor(BigDecimal.multiply(BigDecimal.multiply(d("25"), d("4100")), markup), "COP", "pays")))
      }))

    it.effect("each Sandbox-Simulate value ends in its documented status", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const expected = [["paid", "completed"], ["failed", "failed"], ["expired", "expired"], ["chargeback", "chargeback"]] as const
        for (const [simulate, status] of expected) {
          const [created, reply] = yield* api.payments.create({ payload: { amount: d("20"), paymentMethodId: "sbx_spei" }, headers: { "sandbox-simulate": simulate }, ...withResponse })
          assert.strictEqual(reply.status, 201, simulate)
          assert.strictEqual(created.status, "pending")
          const final = yield* eventually(api.payments.get({ params: { id: created.transactionId } }), (p) => p.status === status)
          assert.strictEqual(final.status, status, simulate)
        }
        const slow = yield* api.payments.create({ payload: { amount: d("20"), paymentMethodId: "sbx_spei" }, headers: { "sandbox-simulate": "slow_payment" } })
        // Everything due has run: a slow payment is still pending.
        yield* drainWork
        assert.strictEqual((yield* api.payments.get({ params: { id: slow.transactionId } })).status, "pending")
        // Not a value the typed client can send.
        const invalid = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "explode" }, body: { amount: 20, paymentMethodId: "sbx_spei" } })
        assert.strictEqual(invalid.status, 400)
      }))

    it.effect("every validation rule of 4.5 answers its code", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        // Raw requests: most of these bodies are ones the typed client refuses to encode.
        const post = (body: Record<string, unknown>) => call("POST", "/api/v1/payments", { bearer: sk, body })
        const cases: Array<[Record<string, unknown>, number, string]> = [
          [{ paymentMethodId: "sbx_pix" }, 400, "invalid_request"],
          [{ amount: 0, paymentMethodId: "sbx_pix" }, 400, "invalid_request"],
          [{ amount: -5, paymentMethodId: "sbx_pix" }, 400, "invalid_request"],
          [{ amount: "10", paymentMethodId: "sbx_pix" }, 400, "invalid_request"],
          [{ amount: 10.555, paymentMethodId: "sbx_pix" }, 400, "invalid_request"],
          [{ amount: 10 }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", currency: "XYZ" }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", country: "MX" }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", country: "Narnia" }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", userEmail: "nope" }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", tag1: "x".repeat(201) }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", merchantOrderId: "x".repeat(121) }, 400, "invalid_request"],
          [{ amount: 10, paymentMethodId: "sbx_pix", userName: "x".repeat(121) }, 400, "invalid_request"],
          [{ amount: 100001, paymentMethodId: "sbx_pix" }, 422, "amount_out_of_limits"],
          [{ amount: 0.01, paymentMethodId: "sbx_pix" }, 422, "amount_out_of_limits"],
          [{ amount: 10, paymentMethodId: "9999" }, 422, "cascade_exhausted"],
          [{ amount: 10, paymentMethodId: "sbx_pix", currency: "JPY" }, 422, "fx_unavailable"]
        ]
        for (const [body, status, code] of cases) {
          const reply = yield* post(body)
          assert.strictEqual(reply.status, status, JSON.stringify(body))
          assert.strictEqual(reply.body.error.code, code, JSON.stringify(body))
        }
        const missing = yield* post({})
        assert.sameMembers(missing.body.error.details.missingFields, ["amount"])
        const api = yield* apiAs(sk)
        const unknown = yield* refused(api.payments.create({ payload: { amount: d("10"), paymentMethodId: "9999" }, headers: {} }))
        assert.strictEqual(unknown.details["paymentMethodEnabledForShop"], false)
        const limits = yield* refused(api.payments.create({ payload: { amount: d("100001"), paymentMethodId: "sbx_pix" }, headers: {} }))
        assert.strictEqual(limits.details["maxUsd"], 100000)
      }))

    it.effect("an FX rate withdrawn by the operator gives fx_unavailable; restored, it converts again", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const admin = yield* apiAs(adminToken)
        const [, off] = yield* admin.admin.putFxRate({ params: { currency: "EUR" }, payload: { perUsd: 0.92, enabled: false }, ...withResponse })
        assert.strictEqual(off.status, 200)
        const eur = { amount: d("10"), currency: "EUR", paymentMethodId: "sbx_pix" }
        const refusal = yield* refused(api.payments.create({ payload: eur, headers: {} }))
        assert.strictEqual(httpStatus[refusal.code], 422)
        assert.strictEqual(refusal.code, "fx_unavailable")
        yield* admin.admin.putFxRate({ params: { currency: "EUR" }, payload: { perUsd: 0.8 } })
        const [ok, okReply] = yield* api.payments.create({ payload: eur, headers: {}, ...withResponse })
        assert.strictEqual(okReply.status, 201)
        assert.strictEqual(ok.amount, Money.toJsonNumber(round(BigDecimal.multiply(BigDecimal.divideUnsafe(d("10"), d("0.8")), d("0.98")), "USD")))
      }))

    it.effect("legacy slug routing, hosted checkout URL, and the credential's own shop only", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const [slug, slugReply] = yield* api.payments.create({ payload: { amount: d("10"), paymentMethod: "pix", country: "BR" }, headers: {}, ...withResponse })
        assert.strictEqual(slugReply.status, 201)
        assert.strictEqual(slug.paymentMethod, "pix")
        const noBucket = yield* refused(api.payments.create({ payload: { amount: d("10"), paymentMethod: "pix" }, headers: {} }))
        assert.strictEqual(noBucket.code, "cascade_exhausted")

        const buyer = { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }
        const incomplete = yield* refused(api.payments.create({
          payload: { amount: d("10"), paymentMethodId: "sbx_pix", hostedCheckout: true, userName: Redacted.make("Ana"), merchantOrderId: "hosted-incomplete" },
          headers: {}
        }))
        assert.strictEqual(httpStatus[incomplete.code], 422)
        assert.strictEqual(incomplete.code, "missing_required_fields")
        assert.deepStrictEqual(incomplete.details["missingFields"], ["userName", "email", "documentId"])
        assert.strictEqual((yield* api.payments.list({ query: { merchantOrderId: "hosted-incomplete" } })).pagination.total, 0)
        const hosted = yield* api.payments.create({
          payload: { amount: d("10"), paymentMethodId: "sbx_pix", hostedCheckout: true, returnUrl: "https://shop.example/done?x=1&y=2", ...buyer },
          headers: {}
        })
        const hostedUrl = new URL(hosted.checkoutUrl ?? "")
        assert.strictEqual(hostedUrl.origin + hostedUrl.pathname, `http://pay.test.local/c/${hosted.transactionId}`)
        assert.strictEqual(hostedUrl.searchParams.get("returnUrl"), "https://shop.example/done?x=1&y=2")
        assert.match(hostedUrl.searchParams.get("token") ?? "", /^[0-9A-Za-z]{32,}$/)
        assert.notProperty(hosted, "paymentFormUrl")

        // Raw reads: another shop's id must answer exactly as an unknown one, down to the envelope's
        // `type`, which the typed client derives from the code rather than reads.
        const other = yield* sandboxMerchant
        const foreign = yield* call("GET", `/api/v1/payments/${slug.transactionId}`, { bearer: other.sk })
        assert.strictEqual(foreign.status, 404)
        assert.strictEqual(foreign.body.error.code, "not_found")
        const unknown = yield* call("GET", "/api/v1/payments/TXN-NOPE", { bearer: other.sk })
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(foreign.body.error.type, unknown.body.error.type)
        assert.strictEqual(foreign.body.error.message, `No such payment: '${slug.transactionId}'`)
        const wrongShop = yield* refused(api.payments.create({ payload: { amount: d("10"), paymentMethodId: "sbx_pix", shopId: other.shops[0]!.id }, headers: {} }))
        assert.strictEqual(httpStatus[wrongShop.code], 404)
      }))

    it.effect("list filters, paging with silent clamping", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        for (const [id, order] of [["sbx_pix", "a"], ["sbx_pix", "b"], ["sbx_spei", "c"]] as const) {
          yield* api.payments.create({ payload: { amount: d("10"), paymentMethodId: id, merchantOrderId: order }, headers: {} })
        }
        const total = (query: Parameters<typeof api.payments.list>[0]["query"]) => Effect.map(api.payments.list({ query }), (r) => r.pagination)
        const all = yield* api.payments.list({ query: {} })
        assert.deepStrictEqual(all.pagination, { total: 3, limit: 50, offset: 0, pages: 1 })
        assert.deepStrictEqual(all.data.map((p) => p.merchantOrderId), ["c", "b", "a"])
        const page = yield* api.payments.listTransactions({ query: { limit: 2, offset: 1 } })
        assert.deepStrictEqual(page.pagination, { total: 3, limit: 2, offset: 1, pages: 2 })
        assert.deepStrictEqual(page.data.map((p) => p.merchantOrderId), ["b", "a"])
        assert.strictEqual((yield* total({ limit: 1000 })).limit, 100)
        assert.strictEqual((yield* total({ limit: 0, offset: -4 })).limit, 1)
        assert.strictEqual((yield* total({ country: "MX" })).total, 1)
        assert.strictEqual((yield* total({ country: "MEX" })).total, 1)
        assert.strictEqual((yield* total({ paymentMethodId: "sbx_pix" })).total, 2)
        assert.strictEqual((yield* total({ method: "spei" })).total, 1)
        assert.strictEqual((yield* total({ status: "completed" })).total, 0)
        // Query text the typed client cannot send.
        assert.strictEqual((yield* call("GET", "/api/v1/payments?status=bogus", { bearer: sk })).status, 400)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?limit=ten", { bearer: sk })).status, 400)
      }))

    it.effect("the sandbox payment form pays the charge through the provider's signed callback", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const created = yield* api.payments.create({ payload: { amount: d("12"), paymentMethodId: "sbx_cash" }, headers: {} })
        const formUrl = new URL(created.paymentFormUrl ?? "")
        const path = formUrl.pathname + formUrl.search
        const secret = formUrl.searchParams.get("secret") ?? ""
        const base = yield* baseUrl
        const form = yield* Effect.promise(() => fetch(base + path).then(async (r) => ({ status: r.status, html: await r.text() })))
        assert.strictEqual(form.status, 200)
        assert.include(form.html, `${created.amountLocal.toFixed(2)} ${created.currencyLocal}`)
        assert.include(form.html, "value=\"paid\"")
        const paid = yield* Effect.promise(() =>
          fetch(base + formUrl.pathname, { method: "POST", body: new URLSearchParams({ action: "paid", secret }), redirect: "manual" })
        )
        assert.strictEqual(paid.status, 303)
        assert.strictEqual((yield* api.payments.get({ params: { id: created.transactionId } })).status, "completed")
        const after = yield* Effect.promise(() => fetch(base + path).then((r) => r.text()))
        assert.notInclude(after, "value=\"paid\"")
        const missing = yield* Effect.promise(() => fetch(`${base}/sandbox/pay/TXN-NOPE`))
        assert.strictEqual(missing.status, 404)
      }))

    it.effect("a forged or unsigned provider callback gets 401 and changes nothing", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const api = yield* apiAs(sk)
        const created = yield* api.payments.create({ payload: { amount: d("10"), paymentMethodId: "sbx_pix" }, headers: {} })
        // Raw callbacks: the forged and missing signature headers are the point.
        const body = JSON.stringify({ reference: "x", transactionId: created.transactionId, status: "completed" })
        for (const headers of [{}, { "x-sandbox-signature": "t=1,v1=deadbeef" }, { "x-sandbox-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }]) {
          const reply = yield* call("POST", "/api/v1/providers/sandbox/callbacks", { rawBody: body, headers: { ...headers, "content-type": "application/json" } })
          assert.strictEqual(reply.status, 401)
        }
        assert.strictEqual((yield* api.payments.get({ params: { id: created.transactionId } })).status, "pending")
        const unknownProvider = yield* call("POST", "/api/v1/providers/nobody/callbacks", { rawBody: body })
        assert.strictEqual(unknownProvider.status, 404)
      }))
  })
})
