/**
 * Pay-ins through the API as a merchant calls it: the catalog, creating payments with every rule
 * of spec 4.5, Sandbox-Simulate outcomes, idempotent retries under concurrency, lists and reads,
 * forged callbacks, and the balance after a batch of payments.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect, Option, Schema } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { PaymentJson } from "../../core/payments/Payment.ts"
import { adminToken, baseUrl, call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const d = Money.decimal
const markup = d("1.02")
const round = Money.round

/** Polls a payment until it leaves `pending` (the job worker runs every 100 ms in tests). */
const settled = (bearer: string, id: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 100; i++) {
      const reply = yield* call("GET", `/api/v1/payments/${id}`, { bearer })
      if (reply.body.status !== "pending") return reply.body
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`payment ${id} stayed pending`)
  })

const sandboxMerchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey }))

describe("pay-ins", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the sandbox catalog lists every rail as routable, filtered by country, channel and method", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const all = yield* call("GET", "/api/v1/payment-methods", { bearer: keys.sandbox.publishableKey })
        assert.strictEqual(all.status, 200)
        assert.strictEqual(all.body.environment, "sandbox")
        assert.strictEqual(all.body.count, all.body.methods.length)
        assert.strictEqual(all.body.routableCount, all.body.count)
        assert.strictEqual(all.body.totalAvailable, all.body.count)
        for (const id of ["sbx_pix", "sbx_spei", "sbx_card", "sbx_pse", "sbx_cash"]) {
          assert.include(all.body.methods.map((m: { paymentMethodId: string }) => m.paymentMethodId), id)
        }
        const brazil = yield* call("GET", "/api/v1/payment-methods?country=bra", { bearer: keys.sandbox.secretKey })
        assert.isTrue(brazil.body.methods.every((m: { country: string; countryIso3: string }) => m.country === "BR" && m.countryIso3 === "BRA"))
        assert.strictEqual(brazil.body.filters.country, "BR")
        assert.isAbove(brazil.body.count, 20)
        const cash = yield* call("GET", "/api/v1/payment-methods?country=MX&channel=CASH", { bearer: keys.sandbox.secretKey })
        assert.isTrue(cash.body.count > 0 && cash.body.methods.every((m: { channel: string }) => m.channel === "CASH"))
        const pix = yield* call("GET", "/api/v1/payment-methods?method=pix", { bearer: keys.sandbox.secretKey })
        assert.isTrue(pix.body.methods.every((m: { method: string }) => m.method === "pix"))
        const bad = yield* call("GET", "/api/v1/payment-methods?country=XX", { bearer: keys.sandbox.secretKey })
        assert.strictEqual(bad.status, 400)

        const icon = all.body.methods[0].iconUrl as string
        assert.match(icon, /^http:\/\/api\.test\.local\/icons\/payment-methods\/.+\.svg$/)
        const served = yield* Effect.flatMap(baseUrl, (base) => Effect.promise(() => fetch(base + new URL(icon).pathname)))
        assert.strictEqual(served.status, 200)
        assert.include(served.headers.get("content-type") ?? "", "image/svg+xml")
      }))

    it.effect("in production nothing is routable until a provider is configured; sandbox test methods are not listed", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const live = yield* call("GET", "/api/v1/payment-methods", { bearer: keys.production.secretKey })
        assert.strictEqual(live.body.environment, "production")
        assert.strictEqual(live.body.routableCount, 0)
        assert.isTrue(live.body.methods.every((m: { routable: boolean; unroutableReason: string }) =>
          !m.routable && m.unroutableReason === "no_provider_for_method_region"
        ))
        assert.notInclude(live.body.methods.map((m: { paymentMethodId: string }) => m.paymentMethodId), "sbx_pix")
        const refused = yield* call("POST", "/api/v1/payments", {
          bearer: keys.production.secretKey,
          body: { amount: 10, paymentMethodId: live.body.methods[0].paymentMethodId }
        })
        assert.strictEqual(refused.status, 422)
        assert.strictEqual(refused.body.error.code, "cascade_exhausted")
        assert.strictEqual(refused.body.error.details.reason, "no_provider_for_method_region")
        // The id is in the shop's own listing: enabled for it, only no provider serves it.
        assert.strictEqual(refused.body.error.details.paymentMethodEnabledForShop, true)
      }))

    it.effect("a USD payment: converted amounts, fees and settlement to the cent", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const reply = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          body: {
            amount: 100,
            paymentMethodId: "sbx_pix",
            userName: "Ana Souza",
            userEmail: "ana@example.com",
            documentId: "52998224725",
            merchantOrderId: "order-77",
            tag1: "  keep me  ",
            tag3: "é ü 😀"
          }
        })
        assert.strictEqual(reply.status, 201)
        const p = reply.body
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
        assert.match(p.paymentFormUrl, /^http/)
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

        const read = yield* call("GET", `/api/v1/payments/${p.transactionId}`, { bearer: sk })
        assert.strictEqual(read.status, 200)
        assert.strictEqual(read.body.id, p.transactionId)
        assert.strictEqual(read.body.country, "BRA")
        assert.strictEqual(read.body.routing.provider, "sandbox")
        assert.strictEqual(read.body.routing.attempts[0].outcome, "accepted")
        assert.notInclude(JSON.stringify(read.body), "52998224725")
        const alias = yield* call("GET", `/api/v1/transactions/${p.transactionId}`, { bearer: sk })
        assert.deepStrictEqual(alias.body, read.body)

        // Stored: the caller's address as userIp (none was sent), and never the document.
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(p.transactionId))
        assert.match(stored.userIp ?? "", /127\.0\.0\.1/)
        assert.notInclude(JSON.stringify(Schema.encodeSync(PaymentJson)(stored)), "52998224725")
      }))

    it.effect("a presentment currency: inputCurrency/inputAmount and the USD headline at the rate minus markup", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const reply = yield* call("POST", "/api/v1/transactions", { bearer: sk, body: { amount: 540, currency: "brl", paymentMethodId: "sbx_pix" } })
        assert.strictEqual(reply.status, 201)
        const usd = round(BigDecimal.multiply(BigDecimal.divideUnsafe(d("540"), d("5.40")), d("0.98")), "USD")
        assert.strictEqual(reply.body.currency, "USD")
        assert.strictEqual(reply.body.inputCurrency, "BRL")
        assert.strictEqual(reply.body.inputAmount, 540)
        assert.strictEqual(reply.body.amount, Money.toJsonNumber(usd))
        assert.strictEqual(reply.body.amountLocal, Money.toJsonNumber(round(BigDecimal.multiply(BigDecimal.multiply(usd, d("5.40")), markup), "BRL")))

        const cop = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 25, paymentMethodId: "sbx_pse" } })
        assert.strictEqual(cop.body.currencyLocal, "COP")
        assert.strictEqual(cop.body.amountLocal, Money.toJsonNumber(round(BigDecimal.multiply(BigDecimal.multiply(d("25"), d("4100")), markup), "COP")))
      }))

    it.effect("each Sandbox-Simulate value ends in its documented status", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const expected = { paid: "completed", failed: "failed", expired: "expired", chargeback: "chargeback" } as const
        for (const [simulate, status] of Object.entries(expected)) {
          const created = yield* call("POST", "/api/v1/payments", {
            bearer: sk,
            headers: { "sandbox-simulate": simulate },
            body: { amount: 20, paymentMethodId: "sbx_spei" }
          })
          assert.strictEqual(created.status, 201, simulate)
          assert.strictEqual(created.body.status, "pending")
          let final = yield* settled(sk, created.body.transactionId)
          for (let i = 0; i < 50 && final.status !== status; i++) {
            yield* Effect.sleep("50 millis")
            final = (yield* call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer: sk })).body
          }
          assert.strictEqual(final.status, status, simulate)
        }
        const slow = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "slow_payment" },
          body: { amount: 20, paymentMethodId: "sbx_spei" }
        })
        yield* Effect.sleep("300 millis")
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${slow.body.transactionId}`, { bearer: sk })).body.status, "pending")
        const invalid = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "explode" },
          body: { amount: 20, paymentMethodId: "sbx_spei" }
        })
        assert.strictEqual(invalid.status, 400)
      }))

    it.effect("every validation rule of 4.5 answers its code", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
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
        const unknown = yield* post({ amount: 10, paymentMethodId: "9999" })
        assert.strictEqual(unknown.body.error.details.paymentMethodEnabledForShop, false)
        const limits = yield* post({ amount: 100001, paymentMethodId: "sbx_pix" })
        assert.strictEqual(limits.body.error.details.maxUsd, 100000)
      }))

    it.effect("an FX rate withdrawn by the operator gives fx_unavailable; restored, it converts again", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const off = yield* call("PUT", "/admin/v1/fx-rates/EUR", { bearer: adminToken, body: { perUsd: 0.92, enabled: false } })
        assert.strictEqual(off.status, 200)
        const refused = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, currency: "EUR", paymentMethodId: "sbx_pix" } })
        assert.strictEqual(refused.status, 422)
        assert.strictEqual(refused.body.error.code, "fx_unavailable")
        yield* call("PUT", "/admin/v1/fx-rates/EUR", { bearer: adminToken, body: { perUsd: 0.8 } })
        const ok = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, currency: "EUR", paymentMethodId: "sbx_pix" } })
        assert.strictEqual(ok.status, 201)
        assert.strictEqual(ok.body.amount, Money.toJsonNumber(round(BigDecimal.multiply(BigDecimal.divideUnsafe(d("10"), d("0.8")), d("0.98")), "USD")))
      }))

    it.effect("legacy slug routing, hosted checkout URL, and the credential's own shop only", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const slug = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethod: "pix", country: "BR" } })
        assert.strictEqual(slug.status, 201)
        assert.strictEqual(slug.body.paymentMethod, "pix")
        const noBucket = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethod: "pix" } })
        assert.strictEqual(noBucket.body.error.code, "cascade_exhausted")

        const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        const incomplete = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          body: { amount: 10, paymentMethodId: "sbx_pix", hostedCheckout: true, userName: "Ana", merchantOrderId: "hosted-incomplete" }
        })
        assert.strictEqual(incomplete.status, 422)
        assert.strictEqual(incomplete.body.error.code, "missing_required_fields")
        assert.deepStrictEqual(incomplete.body.error.details.missingFields, ["userName", "email", "documentId"])
        assert.strictEqual((yield* call("GET", "/api/v1/payments?merchantOrderId=hosted-incomplete", { bearer: sk })).body.pagination.total, 0)
        const hosted = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          body: { amount: 10, paymentMethodId: "sbx_pix", hostedCheckout: true, returnUrl: "https://shop.example/done?x=1&y=2", ...buyer }
        })
        assert.strictEqual(hosted.body.checkoutUrl, `http://pay.test.local/c/${hosted.body.transactionId}?returnUrl=${encodeURIComponent("https://shop.example/done?x=1&y=2")}`)
        assert.notProperty(hosted.body, "paymentFormUrl")

        const other = yield* sandboxMerchant
        const foreign = yield* call("GET", `/api/v1/payments/${slug.body.transactionId}`, { bearer: other.sk })
        assert.strictEqual(foreign.status, 404)
        assert.strictEqual(foreign.body.error.code, "not_found")
        const unknown = yield* call("GET", "/api/v1/payments/TXN-NOPE", { bearer: other.sk })
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(foreign.body.error.type, unknown.body.error.type)
        assert.strictEqual(foreign.body.error.message, `No such payment: '${slug.body.transactionId}'`)
        const wrongShop = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", shopId: other.shops[0]!.id } })
        assert.strictEqual(wrongShop.status, 404)
      }))

    it.effect("list filters, paging with silent clamping", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        for (const [id, order] of [["sbx_pix", "a"], ["sbx_pix", "b"], ["sbx_spei", "c"]] as const) {
          yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: id, merchantOrderId: order } })
        }
        const all = yield* call("GET", "/api/v1/payments", { bearer: sk })
        assert.deepStrictEqual(all.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 })
        assert.deepStrictEqual(all.body.data.map((p: { merchantOrderId: string }) => p.merchantOrderId), ["c", "b", "a"])
        const page = yield* call("GET", "/api/v1/transactions?limit=2&offset=1", { bearer: sk })
        assert.deepStrictEqual(page.body.pagination, { total: 3, limit: 2, offset: 1, pages: 2 })
        assert.deepStrictEqual(page.body.data.map((p: { merchantOrderId: string }) => p.merchantOrderId), ["b", "a"])
        assert.strictEqual((yield* call("GET", "/api/v1/payments?limit=1000", { bearer: sk })).body.pagination.limit, 100)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?limit=0&offset=-4", { bearer: sk })).body.pagination.limit, 1)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?country=MX", { bearer: sk })).body.pagination.total, 1)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?country=MEX", { bearer: sk })).body.pagination.total, 1)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?paymentMethodId=sbx_pix", { bearer: sk })).body.pagination.total, 2)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?method=spei", { bearer: sk })).body.pagination.total, 1)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?status=completed", { bearer: sk })).body.pagination.total, 0)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?status=bogus", { bearer: sk })).status, 400)
        assert.strictEqual((yield* call("GET", "/api/v1/payments?limit=ten", { bearer: sk })).status, 400)
      }))

    it.effect("the sandbox payment form pays the charge through the provider's signed callback", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const created = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 12, paymentMethodId: "sbx_cash" } })
        const path = new URL(created.body.paymentFormUrl).pathname
        const base = yield* baseUrl
        const form = yield* Effect.promise(() => fetch(base + path).then(async (r) => ({ status: r.status, html: await r.text() })))
        assert.strictEqual(form.status, 200)
        assert.include(form.html, `${created.body.amountLocal.toFixed(2)} ${created.body.currencyLocal}`)
        assert.include(form.html, "value=\"paid\"")
        const paid = yield* Effect.promise(() =>
          fetch(base + path, { method: "POST", body: new URLSearchParams({ action: "paid" }), redirect: "manual" })
        )
        assert.strictEqual(paid.status, 303)
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer: sk })).body.status, "completed")
        const after = yield* Effect.promise(() => fetch(base + path).then((r) => r.text()))
        assert.notInclude(after, "value=\"paid\"")
        const missing = yield* Effect.promise(() => fetch(`${base}/sandbox/pay/TXN-NOPE`))
        assert.strictEqual(missing.status, 404)
      }))

    it.effect("a forged or unsigned provider callback gets 401 and changes nothing", () =>
      Effect.gen(function*() {
        const { sk } = yield* sandboxMerchant
        const created = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix" } })
        const body = JSON.stringify({ reference: "x", transactionId: created.body.transactionId, status: "completed" })
        for (const headers of [{}, { "x-sandbox-signature": "t=1,v1=deadbeef" }, { "x-sandbox-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }]) {
          const reply = yield* call("POST", "/api/v1/providers/sandbox/callbacks", { rawBody: body, headers: { ...headers, "content-type": "application/json" } })
          assert.strictEqual(reply.status, 401)
        }
        assert.strictEqual((yield* call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer: sk })).body.status, "pending")
        const unknownProvider = yield* call("POST", "/api/v1/providers/nobody/callbacks", { rawBody: body })
        assert.strictEqual(unknownProvider.status, 404)
      }))
  })
})

for (const target of storeTargets("payins")) {
  describe(`pay-ins on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("50 concurrent requests with one Idempotency-Key create one payment and all answer it", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxMerchant
          const body = { amount: 33.33, paymentMethodId: "sbx_pix", merchantOrderId: "idem-1" }
          const replies = yield* Effect.all(
            Array.from({ length: 50 }, () => call("POST", "/api/v1/payments", { bearer: sk, body, headers: { "idempotency-key": "key-1" } })),
            { concurrency: "unbounded" }
          )
          assert.isTrue(replies.every((r) => r.status === 201), JSON.stringify(replies.map((r) => r.status)))
          assert.strictEqual(new Set(replies.map((r) => r.body.transactionId)).size, 1)
          assert.isTrue(replies.every((r) => JSON.stringify(r.body) === JSON.stringify(replies[0]!.body)))
          // Every answer but the execution's own is a replay, and says so.
          assert.strictEqual(replies.filter((r) => r.headers.get("idempotent-replayed") === "true").length, 49)
          const list = yield* call("GET", "/api/v1/payments?merchantOrderId=idem-1", { bearer: sk })
          assert.strictEqual(list.body.pagination.total, 1)

          const reused = yield* call("POST", "/api/v1/payments", {
            bearer: sk,
            body: { ...body, amount: 34 },
            headers: { "idempotency-key": "key-1" }
          })
          assert.strictEqual(reused.status, 409)
          assert.strictEqual(reused.body.error.code, "idempotency_key_reused")

          // Errors are not stored: after a failed attempt the same key executes again.
          const failed = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "9999" }, headers: { "idempotency-key": "key-2" } })
          assert.strictEqual(failed.status, 422)
          const retried = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix" }, headers: { "idempotency-key": "key-2" } })
          assert.strictEqual(retried.status, 201)
          assert.strictEqual(retried.headers.get("idempotent-replayed"), null)

          // A key is 1 to 255 characters.
          for (const key of ["", "k".repeat(256)]) {
            const refused = yield* call("POST", "/api/v1/payments", { bearer: sk, body, headers: { "idempotency-key": key } })
            assert.strictEqual(refused.status, 400, key)
            assert.strictEqual(refused.body.error.code, "invalid_request")
          }
          assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: sk, body: { ...body, merchantOrderId: "idem-255" }, headers: { "idempotency-key": "k".repeat(255) } })).status, 201)
        }))

      it.effect("a key answers what it stored even when its request would now fail before any payment is written", () =>
        Effect.gen(function*() {
          const merchant = yield* createMerchant()
          const sk = merchant.keys.sandbox.secretKey
          const body = { amount: 12.5, paymentMethodId: "sbx_pix", merchantOrderId: "replay-after-change" }
          const pay = (key: string, payload: Record<string, unknown> = body) =>
            call("POST", "/api/v1/payments", { bearer: sk, body: payload, headers: { "idempotency-key": key } })
          const first = yield* pay("replay-1")
          assert.strictEqual(first.status, 201)
          // The shop loses its only provider: a new request fails before it writes anything.
          const disabled = yield* call("PUT", `/admin/v1/shops/${merchant.shops[0]!.id}/routes/sandbox`, {
            bearer: adminToken,
            body: { environment: "sandbox", priority: 1, enabled: false }
          })
          assert.strictEqual(disabled.status, 200)
          const fresh = yield* pay("replay-2")
          assert.strictEqual(fresh.body.error?.code, "cascade_exhausted")
          // The key's retry still answers the payment it created, as a replay.
          const replay = yield* pay("replay-1")
          assert.strictEqual(replay.status, 201)
          assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
          assert.deepStrictEqual(replay.body, first.body)
          // The same key with another request is refused as a reuse, not answered with that request's error.
          const reused = yield* pay("replay-1", { ...body, amount: 13 })
          assert.strictEqual(reused.status, 409)
          assert.strictEqual(reused.body.error.code, "idempotency_key_reused")
          // The failed key stored nothing: once the shop has its provider again, it executes.
          yield* call("PUT", `/admin/v1/shops/${merchant.shops[0]!.id}/routes/sandbox`, {
            bearer: adminToken,
            body: { environment: "sandbox", priority: 1, enabled: true }
          })
          const retried = yield* pay("replay-2")
          assert.strictEqual(retried.status, 201)
          assert.strictEqual(retried.headers.get("idempotent-replayed"), null)
          const list = yield* call("GET", "/api/v1/payments?merchantOrderId=replay-after-change", { bearer: sk })
          assert.strictEqual(list.body.pagination.total, 2)
        }))

      it.effect("equals, to the cent, the sum of the net amounts and reserves", () =>
        Effect.gen(function*() {
          const { sk } = yield* sandboxMerchant
          const amounts = [10, 19.99, 123.45, 0.99 * 0 + 7.77, 250]
          const created = yield* Effect.all(amounts.map((amount) =>
            call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "paid" }, body: { amount, paymentMethodId: "sbx_pix" } })
          ), { concurrency: 5 })
          assert.isTrue(created.every((r) => r.status === 201))
          for (const r of created) assert.strictEqual((yield* settled(sk, r.body.transactionId)).status, "completed")
          let net = Money.zero
          let reserve = Money.zero
          let fees = Money.zero
          for (const r of created) {
            net = BigDecimal.sum(net, BigDecimal.subtract(BigDecimal.subtract(d(String(r.body.amount)), d(String(r.body.fees.total))), d(String(r.body.settlement.reserve))))
            reserve = BigDecimal.sum(reserve, d(String(r.body.settlement.reserve)))
            fees = BigDecimal.sum(fees, d(String(r.body.fees.total)))
          }
          const balance = yield* call("GET", "/api/v1/me/balance", { bearer: sk })
          assert.strictEqual(balance.status, 200)
          assert.strictEqual(balance.body.balance.pending, Money.toJsonNumber(net))
          assert.strictEqual(balance.body.balance.reserve, Money.toJsonNumber(reserve))
          assert.strictEqual(balance.body.balance.available, 0)
          assert.strictEqual(balance.body.feeSummary.grossVolume, Money.toJsonNumber(amounts.map((a) => d(String(a))).reduce(BigDecimal.sum)))
          assert.strictEqual(balance.body.feeSummary.totalFees, Money.toJsonNumber(fees))
          assert.strictEqual(balance.body.feeSummary.netBalance, Money.toJsonNumber(BigDecimal.sum(net, reserve)))
          assert.strictEqual(balance.body.movements.length, amounts.length)
          assert.isTrue(balance.body.movements.every((m: { type: string }) => m.type === "payment.completed"))
        }))
    })
  })
}
