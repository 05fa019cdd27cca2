/**
 * Buyer data never reaches a log line or a span. A host that writes every log line it has (JSON,
 * level Trace) and exports every span over OTLP runs a day of payments carrying a distinctive
 * buyer (name, email, phone, document, address): direct creates, a replayed key, a refused create
 * that names the missing field, a hosted checkout, the reads that answer the buyer back, the
 * sandbox outcome job and the webhook deliveries it causes; then checkout sessions (the customer
 * block, a refused and an accepted select, a one-shot completed by select) and a deposit account
 * with a credited transfer. The answers carry the buyer (the data went all the way through); no
 * log line and no span (name, attribute, event, status) does.
 *
 * The engine carries the values `Redacted` (`core/payments/BuyerData.ts`): the second test shows
 * what printing the record by accident gives.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Cause, ConfigProvider, Context, Effect, Layer, Redacted } from "effect"
import { inspect } from "node:util"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { buyerDataOf } from "../../core/payments/BuyerData.ts"
import { call, createMerchant, drainWork, eventually, testHost } from "../support/Host.ts"
import { captureConsole } from "../support/CaptureConsole.ts"
import { receiver, type Span } from "../support/OtlpReceiver.ts"

const buyer = {
  userName: "Zelinda Quixabeira",
  userEmail: "zelinda.quixabeira@buyer-redaction.test",
  userPhone: "+5511976543219",
  documentId: "39053344705"
}
const address = {
  street: "Rua Ximenes Quaresma",
  number: "4817-Bx",
  district: "Jardim Ulisses",
  city: "Itaquaquecetuba",
  state: "SP",
  postalCode: "08577-310",
  country: "BR"
}
/** Every value a log line or a span must never carry; the name's parts alone too. */
const forbidden = [
  ...Object.values(buyer),
  "Zelinda", "Quixabeira", "zelinda.quixabeira",
  address.street, address.number, address.district, address.city, address.postalCode,
  // The document as a form formats it.
  "390.533.447-05"
]

const found = (text: string) => forbidden.filter((value) => text.includes(value))

class Captured extends Context.Service<Captured, { readonly spans: Array<Span>; readonly lines: Array<string> }>()("test/BuyerRedaction") {}


const HostCapturing = Layer.unwrap(Effect.gen(function*() {
  const r = yield* receiver
  const lines = yield* captureConsole
  const env = ConfigProvider.fromEnvRecord({
    OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_SERVICE_NAME: "buyer-redaction"
  })
  return Layer.merge(
    testHost(MemoryStore.layer, { logFormat: "json", logLevel: "Trace" }).pipe(Layer.provide(ConfigProvider.layer(env))),
    Layer.succeed(Captured, { spans: r.spans, lines })
  )
}))

describe("buyer data in logs and spans", () => {
  layer(HostCapturing, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a run of payments carrying a buyer writes none of it to a log line or a span", () =>
      Effect.gen(function*() {
        const { spans, lines } = yield* Captured
        const merchant = yield* createMerchant()
        const bearer = merchant.keys.sandbox.secretKey
        const traceId = "5bf92f3577b34da6a3ce929d0e0e4737"
        const traceparent = `00-${traceId}-00f067aa0ba902b8-01`
        const endpoint = yield* call("POST", "/api/v1/webhooks", { bearer, body: { url: "https://merchant.example/hooks", events: ["*"] } })
        assert.include([200, 201], endpoint.status, JSON.stringify(endpoint.body))

        const body = { amount: 25, paymentMethodId: "sbx_pix", ...buyer, userAddress: address, merchantOrderId: "redaction-1" }
        const created = yield* call("POST", "/api/v1/payments", { bearer, headers: { traceparent, "idempotency-key": "redaction-key-1" }, body })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const replayed = yield* call("POST", "/api/v1/payments", { bearer, headers: { "idempotency-key": "redaction-key-1" }, body })
        assert.strictEqual(replayed.status, 201)
        const paid = yield* call("POST", "/api/v1/payments", {
          bearer,
          headers: { "sandbox-simulate": "paid" },
          body: { ...body, merchantOrderId: "redaction-2" }
        })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        // Refused: the hosted checkout needs a document; the error names the field, not the buyer.
        const { documentId: _, ...withoutDocument } = buyer
        const refused = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 25, paymentMethodId: "sbx_pix", hostedCheckout: true, ...withoutDocument } })
        assert.strictEqual(refused.status, 422, JSON.stringify(refused.body))
        const session = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer,
          body: { amount: 30, country: "BR", paymentMethodId: "sbx_pix", ...buyer, userAddress: address }
        })
        assert.strictEqual(session.status, 201, JSON.stringify(session.body))

        // The reads answer the buyer back: the values went through the engine and its store.
        const id = (created.body as { transactionId: string }).transactionId
        const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer })
        assert.deepStrictEqual((read.body as { buyer: unknown }).buyer, { name: buyer.userName, email: buyer.userEmail }, JSON.stringify(read.body))
        //, { name: buyer.userName, email: buyer.userEmail })
        const listed = yield* call("GET", `/api/v1/payments?userEmail=${encodeURIComponent(buyer.userEmail)}`, { bearer })
        assert.isAtLeast((listed.body as { data: Array<unknown> }).data.length, 2)

        // The sandbox outcome and the webhook deliveries it causes run too.
        yield* drainWork
        const trace = yield* eventually(Effect.sync(() => spans.filter((s) => s.traceId === traceId)), (t) => t.some((s) => s.name === "Provider.charge"))
        assert.isAbove(trace.length, 3)
        assert.isAbove(lines.length, 5, "the host logged the run")

        const leakingLines = lines.filter((line) => found(line).length > 0)
        assert.deepStrictEqual(leakingLines, [], "log lines carrying buyer data")
        const leakingSpans = spans.filter((span) => found(JSON.stringify(span)).length > 0).map((span) => `${span.name}: ${found(JSON.stringify(span)).join(", ")}`)
        assert.deepStrictEqual(leakingSpans, [], "spans carrying buyer data")
      }))
    it.effect("checkout sessions (selector and one-shot, select refused then accepted) and deposit accounts write none of it either", () =>
      Effect.gen(function*() {
        const { spans, lines } = yield* Captured
        const merchant = yield* createMerchant()
        const bearer = merchant.keys.sandbox.secretKey
        const traceId = "6cf92f3577b34da6a3ce929d0e0e4738"
        const traceparent = `00-${traceId}-00f067aa0ba902b9-01`
        const [firstName, lastName] = buyer.userName.split(" ")
        const block = { firstName, lastName, email: buyer.userEmail, phone: buyer.userPhone, documentId: buyer.documentId, address }

        // Selector: the customer block; the buyer picks on the page (the public select).
        const selector = yield* call("POST", "/api/v1/checkout/sessions", { bearer, headers: { traceparent }, body: { amount: 30, country: "BR", customer: block } })
        assert.strictEqual(selector.status, 201, JSON.stringify(selector.body))
        const selectorToken = (selector.body as { token: string }).token
        const read = yield* call("GET", `/api/v1/checkout/sessions/${selectorToken}`, {})
        assert.strictEqual((read.body as { customer: { email: string } }).customer.email, buyer.userEmail, "the session holds the buyer")
        const badDocument = yield* call("POST", `/api/v1/checkout/sessions/${selectorToken}/select`, {
          body: { paymentMethodId: "sbx_pix", customer: { fullName: buyer.userName, documentId: "39053344700" } }
        })
        assert.strictEqual(badDocument.status, 422, JSON.stringify(badDocument.body))
        assert.deepStrictEqual(found(JSON.stringify(badDocument.body)), [], "the refusal names the field, not the buyer")
        const picked = yield* call("POST", `/api/v1/checkout/sessions/${selectorToken}/select`, {
          headers: { traceparent },
          body: { paymentMethodId: "sbx_pix", customer: { fullName: buyer.userName, documentId: buyer.documentId, address } }
        })
        assert.include([200, 201], picked.status, JSON.stringify(picked.body))

        // One-shot without a document: awaiting its details, then completed by select.
        const oneShot = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer,
          body: { amount: 30, country: "BR", paymentMethodId: "sbx_pix", userName: buyer.userName, userEmail: buyer.userEmail, userPhone: buyer.userPhone }
        })
        assert.strictEqual((oneShot.body as { status: string }).status, "awaiting_details", JSON.stringify(oneShot.body))
        const completed = yield* call("POST", `/api/v1/checkout/sessions/${(oneShot.body as { token: string }).token}/select`, {
          body: { customer: { documentId: buyer.documentId } }
        })
        assert.include([200, 201], completed.status, JSON.stringify(completed.body))
        const transactionId = (completed.body as { transactionId: string }).transactionId
        const payment = yield* call("GET", `/api/v1/payments/${transactionId}`, { bearer })
        assert.deepStrictEqual((payment.body as { buyer: unknown }).buyer, { name: buyer.userName, email: buyer.userEmail }, "the session's buyer reached the payment")

        // A deposit account of the buyer, refused for a bad email first, then a transfer credited to it.
        const account = { endUserRef: "redaction-user", name: buyer.userName, email: buyer.userEmail, phone: buyer.userPhone, documentType: "CPF", documentId: buyer.documentId }
        const badEmail = yield* call("POST", "/api/v1/me/deposit-accounts", { bearer, body: { ...account, email: `${buyer.userEmail}@` } })
        assert.strictEqual(badEmail.status, 400, JSON.stringify(badEmail.body))
        assert.strictEqual((badEmail.body as { error: { message: string } }).error.message, "email: expected a valid email address")
        assert.deepStrictEqual(found(JSON.stringify(badEmail.body)), [], "the refusal names the field, not its value")
        const opened = yield* call("POST", "/api/v1/me/deposit-accounts", { bearer, headers: { traceparent }, body: account })
        assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
        const opened2 = opened.body as { account: { id: string; customer: { email: string } } }
        assert.strictEqual(opened2.account.customer.email, buyer.userEmail, "the account holds the buyer")
        const credited = yield* call("POST", `/api/v1/me/deposit-accounts/${opened2.account.id}/simulate-deposit`, {
          bearer,
          body: { amount: 1850, payerName: "Juan Perez", trackingKey: "MBAN01002411220099" }
        })
        assert.strictEqual(credited.status, 201, JSON.stringify(credited.body))

        yield* drainWork
        const trace = yield* eventually(Effect.sync(() => spans.filter((s) => s.traceId === traceId)), (t) => t.some((s) => s.name === "Provider.charge"))
        assert.isAbove(trace.length, 3)
        const leakingLines = lines.filter((line) => found(line).length > 0)
        assert.deepStrictEqual(leakingLines, [], "log lines carrying buyer data")
        const leakingSpans = spans.filter((span) => found(JSON.stringify(span)).length > 0).map((span) => `${span.name}: ${found(JSON.stringify(span)).join(", ")}`)
        assert.deepStrictEqual(leakingSpans, [], "spans carrying buyer data")
      }))
  })

  it("buyer data printed by accident prints as redacted", () => {
    const data = buyerDataOf({ userName: buyer.userName, email: buyer.userEmail, documentId: buyer.documentId, phone: buyer.userPhone, address })
    const failure = new Error(`charge refused for ${data.userName}`, { cause: data })
    for (const printed of [String(data.email), `${data.phone}`, JSON.stringify(data), inspect(data, { depth: 20 }), Cause.pretty(Cause.fail(data)), inspect(failure)]) {
      assert.deepStrictEqual(found(printed), [], printed)
    }
    // Read explicitly, it is the value.
    assert.strictEqual(Redacted.value(data.userName!), buyer.userName)
  })
})
