/**
 * Hosted checkout through the API (spec 2.6, 3.2, 4.7): both modes with every error, the public
 * read, select with single use under racing requests, the 307 to the provider, the buyer's IP
 * from the trusted hop, and the canonical checkout host.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option, Redacted, Result } from "effect"
import { revealed } from "../../core/payments/BuyerData.ts"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../adapters/http/api/Api.ts"
import type { CreateSessionBody, SelectBody } from "../../adapters/http/api/CheckoutApi.ts"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { baseUrl, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const plainBuyer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+5511987654321", documentId: "52998224725" }
/** `plainBuyer` as the typed client sends it: `Redacted`, as the API decodes it. */
const buyer = { firstName: Redacted.make("Ana"), lastName: Redacted.make("Souza"), email: Redacted.make("ana@example.com"), phone: Redacted.make("+5511987654321"), documentId: Redacted.make("52998224725") }

const merchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey, shopId: m.shops[0]!.id }))

/** Creates a session through the typed client, with the raw response for its status. */
const session = (sk: string, payload: typeof CreateSessionBody.Type, headers: { readonly "sandbox-simulate"?: "paid" } = {}) =>
  Effect.flatMap(apiAs(sk), (api) => api.checkout.createSession({ payload, headers, responseMode: "decoded-and-response" }))

/** The checkout page's client: no credential, the token in the path authenticates. */
const page = Effect.flatMap(baseUrl, (base) => HttpApiClient.make(Api, { baseUrl: base })).pipe(Effect.provide(FetchHttpClient.layer))

const readSession = (token: string) => Effect.flatMap(page, (api) => api.checkoutPublic.getSession({ params: { token }, responseMode: "decoded-and-response" }))

const select = (token: string, payload: typeof SelectBody.Type) =>
  Effect.flatMap(page, (api) => api.checkoutPublic.select({ params: { token }, payload, responseMode: "decoded-and-response" }))

const paymentsWithOrder = (sk: string, merchantOrderId: string) =>
  Effect.flatMap(apiAs(sk), (api) => api.payments.list({ query: { merchantOrderId } }))

describe("hosted checkout API", () => {
  layer(testHost(MemoryStore.layer, { trustedProxies: 1 }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("selector mode: 201 awaiting_method with a 24-hour token on the canonical checkout host", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        // Raw: a forged Host header, which the typed client does not send.
        const reply = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, country: "br", customer: { email: "ana@example.com" }, merchantOrderId: "o-1" },
          headers: { host: "evil.example" }
        })
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

        const [read, readResponse] = yield* readSession(s.token)
        assert.strictEqual(readResponse.status, 200)
        assert.deepInclude(read, { token: s.token, amount: 50, currency: "USD", country: "BRA", completedTxId: null, returnUrl: null, merchantOrderId: "o-1" })
        assert.deepStrictEqual(read.customer, { firstName: null, lastName: null, email: "ana@example.com", phone: null })
        const unknown = yield* refused(readSession("cst_nope"))
        assert.strictEqual(httpStatus[unknown.code], 404)
        assert.strictEqual(unknown.code, "checkout_session_not_found")
      }))

    it.effect("selector mode: a provided invalid customer value is 400 with issues, field by field", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const reply = yield* refused(session(sk, { amount: Money.decimal("50"), customer: { email: Redacted.make("not-an-email"), phone: Redacted.make("11987654321"), firstName: Redacted.make("x".repeat(61)), lastName: Redacted.make("Souza") } }))
        assert.strictEqual(httpStatus[reply.code], 400)
        assert.strictEqual(reply.code, "invalid_request")
        assert.sameMembers((reply.details["issues"] as ReadonlyArray<{ path: string }>).map((i) => i.path), ["customer.email", "customer.phone", "customer.firstName"])
        assert.deepStrictEqual(reply.details["missingFields"], [])
        // Raw: a body without its required amount, which the typed client cannot build.
        const noAmount = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { customer: plainBuyer } })
        assert.strictEqual(noAmount.status, 400)
        assert.deepStrictEqual(noAmount.body.error.details.missingFields, ["amount"])
        const [presentment] = yield* session(sk, { amount: Money.decimal("270"), currency: "BRL" })
        assert.strictEqual(presentment.currency, "USD")
        assert.strictEqual(presentment.inputCurrency, "BRL")
        assert.strictEqual(presentment.inputAmount, 270)
        assert.strictEqual(presentment.amount, 49) // 270 / 5.40 * 0.98
      }))

    it.effect("one-shot mode: complete data creates the transaction at once; fields win over the block", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const [reply, response] = yield* session(sk, {
          amount: Money.decimal("40"),
          paymentMethodId: "sbx_pix",
          userEmail: Redacted.make("individual@example.com"),
          customer: { ...buyer, email: Redacted.make("block@example.com") },
          merchantOrderId: "o-2",
          returnUrl: "https://shop.example/thanks"
        })
        assert.strictEqual(response.status, 201)
        assert.strictEqual(reply.status, "pending")
        assert.match(reply.sessionId, /^TXN-/)
        assert.strictEqual(reply.currencyLocal, "BRL")
        assert.isNumber(reply.amountLocal)
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(reply.sessionId))
        assert.strictEqual(
          reply.checkoutUrl,
          `http://pay.test.local/c/${reply.sessionId}?returnUrl=${encodeURIComponent("https://shop.example/thanks")}&token=${stored.linkToken}`
        )
        assert.strictEqual(revealed(stored.userEmail), "individual@example.com")
        assert.strictEqual(revealed(stored.userName), "Ana Souza")
        assert.strictEqual(stored.merchantOrderId, "o-2")
        assert.isNull(stored.userIp, "the merchant backend's address is never the buyer's")
      }))

    it.effect("one-shot mode: missing or invalid buyer data gives 201 awaiting_details; an invalid block value is not promoted", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const [reply, response] = yield* session(sk, { amount: Money.decimal("40"), paymentMethodId: "sbx_pix", customer: { ...buyer, email: Redacted.make("broken") } })
        assert.strictEqual(response.status, 201)
        assert.strictEqual(reply.status, "awaiting_details")
        assert.match(reply.sessionId, /^cs_/)
        assert.deepStrictEqual(reply.missingFields, ["email"])
        assert.strictEqual(reply.paymentMethodId, "sbx_pix")
        assert.match(reply.checkoutUrl, /^http:\/\/pay\.test\.local\/checkout\//)
        const [read] = yield* readSession(reply.token)
        assert.strictEqual(read.customer.email, null)

        // The page then collects the email and selects.
        const [selected, selectResponse] = yield* select(reply.token, { customer: { email: Redacted.make("fixed@example.com") } })
        assert.strictEqual(selectResponse.status, 200)
        assert.strictEqual(selected.status, "pending")
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(selected.transactionId))
        assert.strictEqual(revealed(stored.userEmail), "fixed@example.com")
        assert.strictEqual(stored.paymentMethodId, "sbx_pix")
      }))

    it.effect("select: missing buyer data is 422 with nothing created; then it creates, locks, and a second select is 409", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        const [created] = yield* session(sk, { amount: Money.decimal("30"), country: "MX", merchantOrderId: "o-3", returnUrl: "https://shop.example/r" }, {
          "sandbox-simulate": "paid"
        })
        const token = created.token
        const missing = yield* refused(select(token, { paymentMethodId: "sbx_spei", customer: { fullName: Redacted.make("Ana") } }))
        assert.strictEqual(httpStatus[missing.code], 422)
        assert.strictEqual(missing.code, "missing_required_fields")
        assert.deepStrictEqual(missing.details["missingFields"], ["userName", "email", "documentId"])
        assert.strictEqual((yield* paymentsWithOrder(sk, "o-3")).pagination.total, 0)
        const notOffered = yield* refused(select(token, { paymentMethodId: "sbx_pix", customer: { fullName: Redacted.make("Ana Souza"), email: Redacted.make("ana@example.com"), documentId: Redacted.make("X1") } }))
        assert.strictEqual(httpStatus[notOffered.code], 400, "a Brazilian method is not on a Mexican grid")

        const [picked, pickedResponse] = yield* select(token, { paymentMethodId: "sbx_spei", customer: { fullName: Redacted.make("Ana Souza"), email: Redacted.make("ana@example.com"), documentId: Redacted.make("GODE561231GR8") } })
        assert.strictEqual(pickedResponse.status, 200)
        const pickedUrl = new URL(picked.checkoutUrl)
        assert.strictEqual(pickedUrl.origin + pickedUrl.pathname, `http://pay.test.local/c/${picked.transactionId}`)
        assert.strictEqual(pickedUrl.searchParams.get("returnUrl"), "https://shop.example/r")
        const [read] = yield* readSession(token)
        assert.strictEqual(read.completedTxId, picked.transactionId)
        assert.strictEqual(read.status, "completed")
        const again = yield* refused(select(token, { paymentMethodId: "sbx_spei", customer: { fullName: Redacted.make("Ana Souza"), email: Redacted.make("ana@example.com"), documentId: Redacted.make("X") } }))
        assert.strictEqual(httpStatus[again.code], 409)
        assert.strictEqual(again.code, "checkout_session_already_completed")
        assert.strictEqual(again.details["existingTxId"], picked.transactionId)

        // 307 to the provider's form (a page, not the API: its raw status and Location), and
        // merchantOrderId in the payment's events.
        const base = yield* baseUrl
        const redirect = yield* Effect.promise(() => fetch(`${base}${pickedUrl.pathname}${pickedUrl.search}`, { redirect: "manual" }))
        assert.strictEqual(redirect.status, 307)
        const payment = Option.getOrThrow(yield* (yield* PaymentStore).findById(picked.transactionId))
        assert.strictEqual(redirect.headers.get("location"), payment.paymentFormUrl)
        const completedEvent = <E extends { readonly type: string; readonly relatedTxId: string | null }>(events: ReadonlyArray<E>) =>
          events.find((e) => e.type === "payment.completed" && e.relatedTxId === payment.id)
        const events = yield* eventually((yield* OutboxStore).list("sandbox", payment.shopId), (events) => completedEvent(events) !== undefined)
        const completed = completedEvent(events)
        assert.isDefined(completed, "payment.completed was not emitted")
        assert.strictEqual(completed!.data["merchantOrderId"], "o-3")
      }))

    it.effect("the buyer IP is the trusted hop of the page request, never a forged first hop or the merchant's", () =>
      Effect.gen(function*() {
        const { sk } = yield* merchant
        // Raw: X-Forwarded-For hops this test forges, on the merchant's request and the page's.
        const created = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 30, country: "BR" }, headers: { "x-forwarded-for": "198.51.100.99" } })
        const base = yield* baseUrl
        const pageReply = yield* Effect.promise(() =>
          fetch(`${base}/checkout/${encodeURIComponent(created.body.token)}`, { headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.7" } })
        )
        assert.strictEqual(pageReply.status, 200)
        const [read] = yield* readSession(created.body.token)
        assert.strictEqual(read.customerIp, "203.0.113.7")
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
          const [created] = yield* session(sk, { amount: Money.decimal("25"), country: "BR", merchantOrderId: "race" })
          const replies = yield* Effect.all(Array.from({ length: 10 }, () =>
            Effect.result(select(created.token, { paymentMethodId: "sbx_pix", customer: { fullName: Redacted.make("Ana Souza"), email: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") } }))
          ), { concurrency: "unbounded" })
          const outcomes = replies.map((r) => Result.isSuccess(r) ? r.success[1].status : "code" in r.failure ? httpStatus[r.failure.code] : String(r.failure))
          const won = replies.filter(Result.isSuccess).filter((r) => r.success[1].status === 200)
          assert.strictEqual(won.length, 1, JSON.stringify(outcomes))
          const lost = replies.filter(Result.isFailure).map((r) => r.failure).filter((e) => "code" in e && httpStatus[e.code] === 409)
          assert.strictEqual(lost.length, 9)
          assert.isTrue(lost.every((e) => "details" in e && e.details["existingTxId"] === won[0]!.success[0].transactionId))
          assert.strictEqual((yield* paymentsWithOrder(sk, "race")).pagination.total, 1)
        }))
    })
  })
}
