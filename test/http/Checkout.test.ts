/**
 * Hosted checkout through the API (spec 2.6, 3.2, 4.7): both modes with every error, the public
 * read, select with single use under racing requests, the 307 to the provider, the buyer's IP
 * from the trusted hop, and the canonical checkout host.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { baseUrl, call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const buyer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+5511987654321", documentId: "52998224725" }

const merchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey, shopId: m.shops[0]!.id }))

const session = (sk: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call("POST", "/api/v1/checkout/sessions", { bearer: sk, body, headers })

describe("hosted checkout API", () => {
  layer(testHost(MemoryStore.layer, { trustedProxies: 1 }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("selector mode: 201 awaiting_method with a 24-hour token on the canonical checkout host", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const reply = yield* session(sk, { amount: 50, country: "br", customer: { email: "ana@example.com" }, merchantOrderId: "o-1" }, { host: "evil.example" })
        assert.strictEqual(reply.status, 201)
        const s = reply.body
        assert.match(s.sessionId, /^cs_/)
        assert.strictEqual(s.status, "awaiting_method")
        assert.strictEqual(s.paymentMethodId, null)
        assert.strictEqual(s.amount, 50)
        assert.strictEqual(s.currency, "USD")
        assert.strictEqual(s.country, "BRA")
        assert.strictEqual(s.checkoutUrl, `http://pay.test.local/checkout/${encodeURIComponent(s.token)}`)
        const hours = (Date.parse(s.expiresAt) - Date.now()) / 3_600_000
        assert.isTrue(hours > 23.9 && hours <= 24)

        const read = yield* call("GET", `/api/v1/checkout/sessions/${s.token}`)
        assert.strictEqual(read.status, 200)
        assert.deepInclude(read.body, { token: s.token, amount: 50, currency: "USD", country: "BRA", completedTxId: null, returnUrl: null, merchantOrderId: "o-1" })
        assert.deepStrictEqual(read.body.customer, { firstName: null, lastName: null, email: "ana@example.com", phone: null })
        const unknown = yield* call("GET", "/api/v1/checkout/sessions/cst_nope")
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body.error.code, "checkout_session_not_found")
      }))

    it.effect("selector mode: a provided invalid customer value is 400 with issues, field by field", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const reply = yield* session(sk, { amount: 50, customer: { email: "not-an-email", phone: "11987654321", firstName: "x".repeat(61), lastName: "Souza" } })
        assert.strictEqual(reply.status, 400)
        assert.strictEqual(reply.body.error.code, "invalid_request")
        assert.sameMembers(reply.body.error.details.issues.map((i: { path: string }) => i.path), ["customer.email", "customer.phone", "customer.firstName"])
        assert.deepStrictEqual(reply.body.error.details.missingFields, [])
        const noAmount = yield* session(sk, { customer: buyer })
        assert.strictEqual(noAmount.status, 400)
        assert.deepStrictEqual(noAmount.body.error.details.missingFields, ["amount"])
        const presentment = yield* session(sk, { amount: 270, currency: "BRL" })
        assert.strictEqual(presentment.body.currency, "USD")
        assert.strictEqual(presentment.body.inputCurrency, "BRL")
        assert.strictEqual(presentment.body.inputAmount, 270)
        assert.strictEqual(presentment.body.amount, 49) // 270 / 5.40 * 0.98
      }))

    it.effect("one-shot mode: complete data creates the transaction at once; fields win over the block", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const reply = yield* session(sk, {
          amount: 40,
          paymentMethodId: "sbx_pix",
          userEmail: "individual@example.com",
          customer: { ...buyer, email: "block@example.com" },
          merchantOrderId: "o-2",
          returnUrl: "https://shop.example/thanks"
        })
        assert.strictEqual(reply.status, 201)
        assert.strictEqual(reply.body.status, "pending")
        assert.match(reply.body.sessionId, /^TXN-/)
        assert.strictEqual(reply.body.currencyLocal, "BRL")
        assert.isNumber(reply.body.amountLocal)
        assert.strictEqual(reply.body.checkoutUrl, `http://pay.test.local/c/${reply.body.sessionId}?returnUrl=${encodeURIComponent("https://shop.example/thanks")}`)
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(reply.body.sessionId))
        assert.strictEqual(stored.userEmail, "individual@example.com")
        assert.strictEqual(stored.userName, "Ana Souza")
        assert.strictEqual(stored.merchantOrderId, "o-2")
        assert.isNull(stored.userIp, "the merchant backend's address is never the buyer's")
      }))

    it.effect("one-shot mode: missing or invalid buyer data gives 201 awaiting_details; an invalid block value is not promoted", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const reply = yield* session(sk, { amount: 40, paymentMethodId: "sbx_pix", customer: { ...buyer, email: "broken" } })
        assert.strictEqual(reply.status, 201)
        assert.strictEqual(reply.body.status, "awaiting_details")
        assert.match(reply.body.sessionId, /^cs_/)
        assert.deepStrictEqual(reply.body.missingFields, ["email"])
        assert.strictEqual(reply.body.paymentMethodId, "sbx_pix")
        assert.match(reply.body.checkoutUrl, /^http:\/\/pay\.test\.local\/checkout\//)
        const read = yield* call("GET", `/api/v1/checkout/sessions/${reply.body.token}`)
        assert.strictEqual(read.body.customer.email, null)

        // The page then collects the email and selects.
        const select = yield* call("POST", `/api/v1/checkout/sessions/${reply.body.token}/select`, {
          body: { customer: { email: "fixed@example.com" } }
        })
        assert.strictEqual(select.status, 200, JSON.stringify(select.body))
        assert.strictEqual(select.body.status, "pending")
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(select.body.transactionId))
        assert.strictEqual(stored.userEmail, "fixed@example.com")
        assert.strictEqual(stored.paymentMethodId, "sbx_pix")
      }))

    it.effect("select: missing buyer data is 422 with nothing created; then it creates, locks, and a second select is 409", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const created = yield* session(sk, { amount: 30, country: "MX", merchantOrderId: "o-3", returnUrl: "https://shop.example/r" }, {
          "sandbox-simulate": "paid"
        })
        const token = created.body.token
        const missing = yield* call("POST", `/api/v1/checkout/sessions/${token}/select`, {
          body: { paymentMethodId: "sbx_spei", customer: { fullName: "Ana" } }
        })
        assert.strictEqual(missing.status, 422)
        assert.strictEqual(missing.body.error.code, "missing_required_fields")
        assert.deepStrictEqual(missing.body.error.details.missingFields, ["userName", "email", "documentId"])
        assert.strictEqual((yield* call("GET", "/api/v1/payments?merchantOrderId=o-3", { bearer: sk })).body.pagination.total, 0)
        const notOffered = yield* call("POST", `/api/v1/checkout/sessions/${token}/select`, {
          body: { paymentMethodId: "sbx_pix", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId: "X1" } }
        })
        assert.strictEqual(notOffered.status, 400, "a Brazilian method is not on a Mexican grid")

        const picked = yield* call("POST", `/api/v1/checkout/sessions/${token}/select`, {
          body: { paymentMethodId: "sbx_spei", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId: "GODE561231GR8" } }
        })
        assert.strictEqual(picked.status, 200)
        assert.strictEqual(picked.body.checkoutUrl, `http://pay.test.local/c/${picked.body.transactionId}?returnUrl=${encodeURIComponent("https://shop.example/r")}`)
        const read = yield* call("GET", `/api/v1/checkout/sessions/${token}`)
        assert.strictEqual(read.body.completedTxId, picked.body.transactionId)
        assert.strictEqual(read.body.status, "completed")
        const again = yield* call("POST", `/api/v1/checkout/sessions/${token}/select`, {
          body: { paymentMethodId: "sbx_spei", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId: "X" } }
        })
        assert.strictEqual(again.status, 409)
        assert.strictEqual(again.body.error.code, "checkout_session_already_completed")
        assert.strictEqual(again.body.error.details.existingTxId, picked.body.transactionId)

        // 307 to the provider's form, and merchantOrderId in the payment's events.
        const base = yield* baseUrl
        const redirect = yield* Effect.promise(() => fetch(`${base}/c/${picked.body.transactionId}`, { redirect: "manual" }))
        assert.strictEqual(redirect.status, 307)
        const payment = Option.getOrThrow(yield* (yield* PaymentStore).findById(picked.body.transactionId))
        assert.strictEqual(redirect.headers.get("location"), payment.paymentFormUrl)
        for (let i = 0; i < 50; i++) {
          const events = yield* (yield* OutboxStore).list("sandbox", payment.shopId)
          const completed = events.find((e) => e.type === "payment.completed" && e.relatedTxId === payment.id)
          if (completed !== undefined) {
            assert.strictEqual(completed.data["merchantOrderId"], "o-3")
            return
          }
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
        }
        assert.fail("payment.completed was not emitted")
      }))

    it.effect("the buyer IP is the trusted hop of the page request, never a forged first hop or the merchant's", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const created = yield* session(sk, { amount: 30, country: "BR" }, { "x-forwarded-for": "198.51.100.99" })
        const base = yield* baseUrl
        const pageReply = yield* Effect.promise(() =>
          fetch(`${base}/checkout/${encodeURIComponent(created.body.token)}`, { headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.7" } })
        )
        assert.strictEqual(pageReply.status, 200)
        const read = yield* call("GET", `/api/v1/checkout/sessions/${created.body.token}`)
        assert.strictEqual(read.body.customerIp, "203.0.113.7")
        const picked = yield* call("POST", `/api/v1/checkout/sessions/${created.body.token}/select`, {
          body: { paymentMethodId: "sbx_pix", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId: "52998224725" } },
          headers: { "x-forwarded-for": "6.6.6.6, 192.0.2.1" }
        })
        const payment = Option.getOrThrow(yield* (yield* PaymentStore).findById(picked.body.transactionId))
        assert.strictEqual(payment.userIp, "203.0.113.7")
      }))
  })
})

for (const target of storeTargets("checkout")) {
  describe(`checkout select race on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("ten racing selects of one session: one transaction, the others 409 naming it", () =>
        Effect.gen(function*() {
          const { sk } = yield* merchant
          const created = yield* session(sk, { amount: 25, country: "BR", merchantOrderId: "race" })
          const replies = yield* Effect.all(Array.from({ length: 10 }, () =>
            call("POST", `/api/v1/checkout/sessions/${created.body.token}/select`, {
              body: { paymentMethodId: "sbx_pix", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId: "52998224725" } }
            })
          ), { concurrency: "unbounded" })
          const won = replies.filter((r) => r.status === 200)
          assert.strictEqual(won.length, 1, JSON.stringify(replies.map((r) => r.status)))
          const lost = replies.filter((r) => r.status === 409)
          assert.strictEqual(lost.length, 9)
          assert.isTrue(lost.every((r) => r.body.error.details.existingTxId === won[0]!.body.transactionId))
          assert.strictEqual((yield* call("GET", "/api/v1/payments?merchantOrderId=race", { bearer: sk })).body.pagination.total, 1)
        }))
    })
  })
}

