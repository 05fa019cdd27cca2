/**
 * The Conekta connector through its public interface, against its simulator and Conekta's own
 * documented examples: the order it sends (centavos, customer_info, one charge), idempotent
 * charges without an idempotency key, rails and required buyer data, the status map, the
 * documented answers parsed, `digest` verification, and secrets that never leak (refunds:
 * ConektaRefunds.test.ts).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted, Schema } from "effect"
import { KeyFormat, Signature } from "effect/crypto"
import { inspect } from "node:util"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { ChargeRequest, PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { ConektaProvider } from "../../providers/conekta/ConektaProvider.ts"
import { ConektaSimulator } from "../../providers/conekta/ConektaSimulator.ts"
import { Live, optionsFor, oxxo, privateKey, setup, spei } from "../../providers/conekta/ConformanceHarness.ts"
import * as Rails from "../../providers/conekta/Rails.ts"
import * as Wire from "../../providers/conekta/Wire.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"
import * as Docs from "./fixtures/conekta/docs.ts"
import { view } from "./Verdict.ts"

const errorOf = <E>(exit: Exit.Exit<unknown, E>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const requestOn = (provider: PaymentProvider, transactionId: string, overrides: Partial<ChargeRequest> = {}): ChargeRequest => ({
  ...defaultChargeRequest(provider, oxxo, transactionId),
  ...overrides
})

const refundOf = (transactionId: string, providerRef: string, n: number, amount: string) => ({
  transactionId,
  providerRef,
  refundId: `${transactionId}-R${n}`,
  idempotencyKey: `${transactionId}-R${n}:conekta`,
  amount: Money.decimal(amount),
  currency: "MXN"
})

const decodeOrder = Schema.decodeUnknownSync(Schema.fromJsonString(Wire.Order))

describe("ConektaProvider", () => {
  it.live("sends the documented order: centavos as integers, customer_info, one cash charge, the transaction in metadata, bearer key", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const accepted = yield* provider.charge(requestOn(provider, "TXN-BODY-1", { amount: Money.decimal("1234.56") }))
      const order = sim.orders.get(accepted.providerRef)!
      const body = JSON.parse(order.rawBody)
      assert.deepStrictEqual(body.line_items, [{ name: "Pago TXN-BODY-1", unit_price: 123456, quantity: 1 }])
      assert.strictEqual(body.charges[0].amount, 123456)
      assert.strictEqual(body.charges[0].payment_method.type, "cash")
      assert.deepStrictEqual(body.customer_info, { name: "Ana Souza", email: "ana@example.com", phone: "+5511987654321" })
      assert.deepStrictEqual(body.metadata, { transaction_id: "TXN-BODY-1" })
      assert.strictEqual(body.charges[0].reference_id, "TXN-BODY-1")
      assert.match(order.rawBody, /"unit_price":123456,/)
      assert.isTrue(sim.requests.every((r) => r.authorized))
      assert.deepStrictEqual(new Set(sim.acceptHeaders), new Set([Wire.acceptHeader]))
      assert.strictEqual(accepted.status, "pending")
      assert.match(accepted.paymentFormUrl, /^http:\/\/127\.0\.0\.1:\d+\/barcodes\//)
      assert.match(String(accepted.paymentData["reference"]), /^\d{14}$/)
    }))

  it("centavos are exact: no float ever holds the amount", () => {
    assert.strictEqual(Wire.centavosOf(Money.decimal("0.1")), 10)
    assert.strictEqual(Wire.centavosOf(Money.decimal("1234.56")), 123456)
    assert.strictEqual(Wire.centavosOf(Money.decimal("99999999.99")), 9999999999)
    assert.strictEqual(Wire.centavosOf(Money.decimal("10")), 1000)
    assert.isUndefined(Wire.centavosOf(Money.decimal("1.005")))
    assert.strictEqual(Money.toText(Wire.amountOf(15050)), "150.5")
  })

  it.live("a charge retried after a lost answer finds the order it made: one order, the same reference", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 1_000 }, 1_500)
      yield* sim.setMode("slow_posts")
      const request = requestOn(provider, "TXN-RETRY-1")
      const lost = errorOf(yield* Effect.exit(provider.charge(request)))
      assert.strictEqual(lost?.reason, "timeout")
      assert.isTrue(lost?.retryable)
      // The order was made; only its answer was lost.
      assert.strictEqual(sim.orders.size, 1)
      yield* sim.setMode("ok")
      const again = yield* provider.charge(request)
      assert.strictEqual([...sim.orders.values()].filter((o) => o.metadata["transaction_id"] === "TXN-RETRY-1").length, 1)
      assert.strictEqual(again.providerRef, [...sim.orders.keys()][0])
    }))

  it.live("an earlier order is found by its charge's documented reference_id (not by metadata): retried, no second order", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = requestOn(provider, "TXN-REFID-1")
      const first = yield* provider.charge(request)
      // Only the documented reference names the transaction now.
      sim.orders.get(first.providerRef)!.metadata = {}
      const again = yield* provider.charge(request)
      assert.strictEqual(again.providerRef, first.providerRef)
      assert.strictEqual(sim.orders.size, 1)
      const lookups = sim.requests.filter((r) => r.method === "GET" && r.path === "/orders")
      assert.strictEqual(lookups.length, 2)
    }))

  it.live("rails: OXXO served; SPEI only with an instructions page (Conekta answers a CLABE, no page); cards never", () =>
    Effect.gen(function*() {
      const { provider } = yield* setup()
      assert.isTrue(provider.supports(oxxo))
      assert.isTrue(provider.supports(findMethod("sbx_cash")!))
      assert.isFalse(provider.supports(spei))
      assert.isFalse(provider.supports(findMethod("1042")!))
      assert.isFalse(provider.supports(findMethod("1001")!))
      assert.strictEqual(errorOf(yield* Effect.exit(provider.charge(requestOn(provider, "TXN-SPEI-0", { method: spei }))))?.reason, "unsupported_method")
      const { provider: withPage, sim } = yield* setup({ instructionsUrl: "https://shop.example/pay/{order_id}" })
      assert.isTrue(withPage.supports(spei))
      const accepted = yield* withPage.charge(requestOn(withPage, "TXN-SPEI-1", { method: spei }))
      assert.strictEqual(accepted.paymentFormUrl, `https://shop.example/pay/${accepted.providerRef}`)
      assert.match(String(accepted.paymentData["clabe"]), /^\d{18}$/)
      assert.strictEqual(JSON.parse(sim.orders.get(accepted.providerRef)!.rawBody).charges[0].payment_method.type, "spei")
    }))

  it.live("requires: customer_info's phone beyond what the catalog asks (name and email are already required)", () =>
    Effect.gen(function*() {
      const { provider } = yield* setup()
      assert.deepStrictEqual(provider.requires?.(oxxo), ["userPhone"])
      assert.deepStrictEqual(provider.requires?.(spei), ["userPhone"])
      const exit = yield* Effect.exit(provider.charge(requestOn(provider, "TXN-NOPHONE", { customer: { name: Redacted.make("Ana"), email: Redacted.make("ana@example.com") } })))
      assert.deepStrictEqual([errorOf(exit)?.reason, errorOf(exit)?.retryable], ["missing_customer_info", false])
    }))

  it.live("the status poll maps Conekta's payment_status; unknown ones are pending", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(requestOn(provider, "TXN-STATUS-1"))
      const cases = [
        ["pending_payment", "pending"], ["paid", "completed"], ["partially_refunded", "completed"], ["refunded", "refunded"],
        ["expired", "expired"], ["canceled", "failed"], ["declined", "failed"], ["charged_back", "chargeback"],
        ["pre_authorized", "pending"], ["something_new", "pending"]
      ] as const
      for (const [upstream, engine] of cases) {
        yield* sim.setStatus(providerRef, upstream)
        assert.strictEqual((yield* provider.status(providerRef, "TXN-STATUS-1")).status, engine, upstream)
      }
      const other = errorOf(yield* Effect.exit(provider.status(providerRef, "TXN-SOMEONE-ELSE")))
      assert.strictEqual(other?.reason, "malformed_response")
    }))

  it("the documented answers parse: the cash order (reference, barcode), a refund with a negative amount and no status (not a success), the SPEI charge", () => {
    const cash = decodeOrder(Docs.orderCashResponse)
    assert.strictEqual(Wire.toChargeStatus(cash.payment_status), "pending")
    const method = cash.charges!.data[0]!.payment_method!
    assert.strictEqual(method.reference, "10001140326893401915")
    assert.match(method.barcode_url ?? "", /^https:\/\/barcodes\.conekta\.com\//)
    const refunded = decodeOrder(Docs.refundResponse)
    const charge = refunded.charges!.data[0]!
    const refund = charge.refunds!.data[0]!
    assert.strictEqual(Math.abs(refund.amount), Docs.sdkRefundRequest.amount)
    assert.strictEqual(charge.status, "partially_refunded")
    assert.strictEqual(Wire.toRefundStatus(refund.status), "pending")
    assert.strictEqual(Wire.toRefundStatus("pending"), "pending")
    assert.strictEqual(Wire.toRefundStatus("canceled"), "failed")
    assert.strictEqual(Wire.toRefundStatus("succeeded"), "succeeded")
    assert.strictEqual(Wire.toRefundStatus("new_status"), "pending")
    const speiCharge = Schema.decodeUnknownSync(Schema.fromJsonString(Wire.Charge))(Docs.speiChargeResponse)
    assert.strictEqual(speiCharge.payment_method?.clabe, "646180111805035472")
  })

  it.live("error mapping: a decline (402) and a refused body (422) are final; refused key, outage are retryable", () =>
    Effect.gen(function*() {
      const { options, provider, sim } = yield* setup()
      const bad = yield* ConektaProvider.make({ ...options, privateKey: Redacted.make("key_test_wrong") }).pipe(Effect.provide(Live))
      const refused = errorOf(yield* Effect.exit(bad.charge(requestOn(bad, "TXN-ERR-1"))))
      assert.deepStrictEqual([refused?.reason, refused?.retryable], ["invalid_credentials", true])
      const below = errorOf(yield* Effect.exit(provider.charge(requestOn(provider, "TXN-ERR-2", { amount: Money.decimal("9.99") }))))
      assert.deepStrictEqual([below?.reason, below?.retryable], ["conekta.errors.parameter_validation.amount.too_low", false])
      yield* sim.setMode("decline")
      const declined = errorOf(yield* Effect.exit(provider.charge(requestOn(provider, "TXN-ERR-3"))))
      assert.deepStrictEqual([declined?.reason, declined?.retryable], ["conekta.errors.processing.charge.declined", false])
      yield* sim.setMode("unavailable")
      const down = errorOf(yield* Effect.exit(provider.charge(requestOn(provider, "TXN-ERR-4"))))
      assert.deepStrictEqual([down?.reason, down?.retryable], ["upstream_unavailable", true])
    }))

  it.live("a webhook the simulator really sends (node:crypto RSA signer) is verified by the plugin (effect/crypto), then the order is read", () =>
    Effect.gen(function*() {
      const { provider, receiver, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(requestOn(provider, "TXN-HOOK-1"))
      yield* sim.complete(providerRef)
      assert.deepStrictEqual(sim.callbacksSent.map((c) => c.outcome), [204])
      assert.match(sim.callbacksSent[0]!.headers["digest"] ?? "", /^[A-Za-z0-9+/]+=*$/)
      assert.deepStrictEqual(receiver.updates.map((u) => [u.providerRef, u.transactionId, u.status]), [[providerRef, "TXN-HOOK-1", "completed"]])
    }))

  it.live("signatures: unsigned, garbage, another key's and one body's digest on another body are refused; a signed ping moves nothing", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const first = yield* provider.charge(requestOn(provider, "TXN-SIG-1"))
      const second = yield* provider.charge(requestOn(provider, "TXN-SIG-2"))
      yield* sim.complete(first.providerRef)
      const body = sim.eventBody(first.providerRef)
      const reasonOf = (headers: Record<string, string>, raw = body) =>
        Effect.map(Effect.exit(provider.verifyCallback(headers, raw)), (exit) => errorOf(exit)?.reason)
      assert.deepStrictEqual((yield* provider.verifyCallback(sim.sign(body), body)).map((u) => u.status), ["completed"])
      assert.strictEqual(yield* reasonOf({}), "signature mismatch")
      for (const garbage of ["", "garbage", "====", "A".repeat(5000), Buffer.alloc(256).toString("base64")]) {
        assert.strictEqual(yield* reasonOf({ digest: garbage }), "signature mismatch")
      }
      const other = ConektaSimulator.makeKeyPair()
      assert.strictEqual(yield* reasonOf(ConektaSimulator.headersFor(other.privateKeyPem, body)), "signature mismatch")
      assert.strictEqual(yield* reasonOf(sim.sign(body), sim.eventBody(second.providerRef)), "signature mismatch")
      assert.strictEqual(yield* reasonOf(sim.sign(body), body.replace("\"paid\"", "\"paid \"")), "signature mismatch")
      const ping = JSON.stringify({ data: { object: { id: "ping", action: "ping", livemode: false } }, type: "webhook_ping", object: "event" })
      assert.deepStrictEqual(yield* provider.verifyCallback(sim.sign(ping), ping), [])
      // Without the webhook key's public key, nothing is trusted.
      const { provider: keyless } = yield* setup({ webhookPublicKey: undefined })
      assert.strictEqual(errorOf(yield* Effect.exit(keyless.verifyCallback(sim.sign(body), body)))?.reason, "no webhook public key configured")
    }))

  it.live("the documentation's public_key (PEM with JSON \\n escapes) imports as an RSA-SHA256 verification key", () =>
    Effect.gen(function*() {
      const pem = Docs.webhookPublicKeyJson.replace(/\\n/g, "\n")
      const key = yield* KeyFormat.decodePublic(KeyFormat.pem(KeyFormat.spki), Signature.rsaPkcs1v15Sha256, pem)
      assert.isDefined(key)
      // The connector takes it as the setting arrives (escaped), and still verifies nothing false.
      const { sim } = yield* setup()
      const provider = yield* ConektaProvider.make(optionsFor(sim.baseUrl, Docs.webhookPublicKeyJson)).pipe(Effect.provide(Live))
      const body = JSON.stringify({ data: { object: { id: "ord_x", object: "order" } }, type: "order.paid" })
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(sim.sign(body), body)))?.reason, "signature mismatch")
    }))

  // Refunds (told apart by what the engine holds, looked up before and after they are asked
  // for, pending, cancelled, refused): test/providers/ConektaRefunds.test.ts.

  it.live("secrets never appear in errors, thrown messages, log lines or the provider itself", () =>
    withSecretScrub([privateKey], (scrub) =>
      Effect.gen(function*() {
        const { options, provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
        for (const mode of ["slow", "unavailable", "decline", "echo"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(provider.charge(requestOn(provider, `TXN-LEAK-${mode}`))))
        }
        yield* scrub.failed(yield* Effect.exit(provider.status("ord_x", "TXN-LEAK")))
        yield* scrub.failed(yield* Effect.exit(provider.refund(refundOf("TXN-LEAK", "ord_x", 1, "10"))))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ digest: privateKey }, privateKey)))
        const thrown = yield* Effect.promise(() =>
          Effect.runPromise(provider.charge(requestOn(provider, "TXN-LEAK-THROWN"))).then(() => "resolved", (e: Error) => `${e.message}\n${e.stack}`)
        )
        scrub.text(thrown)
        assert.include(thrown, "[redacted]")
      })))
})

describe("ConektaProvider: the voucher reference", () => {
  it("a reference written as a JSON number past 2^53 (the documented example's 20 digits, unquoted) is never shown rounded", () => {
    // schemas/orders/examples/order_cash.yml writes `reference: 10001140326893401915` as a number.
    const text = Docs.orderCashResponse.replace('"reference": "10001140326893401915"', '"reference": 10001140326893401915')
    assert.notStrictEqual(text, Docs.orderCashResponse)
    const data = ConektaProvider.paymentDataOf(decodeOrder(text))
    assert.notStrictEqual(data["reference"], "10001140326893402000")
    assert.isUndefined(data["reference"])
    assert.strictEqual(ConektaProvider.paymentDataOf(decodeOrder(Docs.orderCashResponse))["reference"], "10001140326893401915")
  })
})

describe("ConektaProvider: rails and events", () => {
  it("the rail table's bounds are the catalog's", () => {
    for (const rail of Rails.rails) {
      const limit = findMethod(rail.catalogId)!.currencyLimits.find((l) => l.currency === rail.currency)!
      assert.deepStrictEqual([rail.min, rail.max], [limit.min, limit.max], rail.catalogId)
    }
  })

  it.live("a signed charge.* event names its order by order_id; the order is read from the API", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(requestOn(provider, "TXN-CHARGE-EVT"))
      yield* sim.complete(providerRef)
      const chargeId = sim.orders.get(providerRef)!.chargeId
      const body = JSON.stringify({ data: { object: { id: chargeId, object: "charge", order_id: providerRef, status: "paid" } }, type: "charge.paid", object: "event" })
      assert.deepStrictEqual((yield* provider.verifyCallback(sim.sign(body), body)).map((u) => [u.providerRef, u.status]), [[providerRef, "completed"]])
    }))
})
