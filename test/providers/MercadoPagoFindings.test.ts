/**
 * The Mercado Pago connector, judged against Mercado Pago's documentation and official SDK: the
 * boleto address, where the boleto barcode is, the notification URL and signature rules, the
 * answers that are not declines (409 / 423 / 424), refunds that stay pending, and the rails served.
 * Through the plugin's public interface against its simulator.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { createHmac } from "node:crypto"
import { WebhookSignatureValidator } from "mercadopago"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { BuyerAddress, ChargeRequest, PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { boleto, Live, optionsFor, oxxo, pix, pse, setup, webhookSecret } from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import * as Wire from "../../providers/mercadopago/Wire.ts"
import * as Docs from "./fixtures/mercadopago/docs.ts"
import { view } from "./Verdict.ts"

const errorOf = <E>(exit: Exit.Exit<unknown, E>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const address: BuyerAddress = {
  street: "Av. das Nações Unidas",
  number: "3003",
  complement: "Torre B",
  district: "Bonfim",
  city: "Osasco",
  state: "SP",
  postalCode: "06233-200",
  country: "BR"
}

const boletoRequest = (provider: PaymentProvider, transactionId: string): ChargeRequest => {
  const base = defaultChargeRequest(provider, boleto, transactionId)
  return { ...base, customer: { ...base.customer, address: Redacted.make(address) } }
}

const refundOf = (transactionId: string, providerRef: string, n: number, amount: string) => ({
  transactionId,
  providerRef,
  refundId: `${transactionId}-R${n}`,
  idempotencyKey: `${transactionId}-R${n}:mercadopago`,
  amount: Money.decimal(amount),
  currency: "BRL"
})

/** `x-signature` over a manifest written here with node:crypto, `data.id` exactly as given. */
const signed = (dataId: string, requestId: string, ts: number, secret = webhookSecret) => ({
  "x-request-id": requestId,
  "x-signature": `ts=${ts},v1=${createHmac("sha256", secret).update(`id:${dataId};request-id:${requestId};ts:${ts};`).digest("hex")}`
})

describe("MercadoPagoProvider, checked against the documentation and the official SDK", () => {
  it.live("boleto: requires the buyer's address; sends it as payer.address; the barcode, digitable line and ticket URL come from transaction_details", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      assert.includeMembers([...(provider.requires?.(boleto) ?? [])], ["userAddress", "userEmail", "documentId"])
      assert.notInclude([...(provider.requires?.(pix) ?? [])], "userAddress")
      const accepted = yield* provider.charge(boletoRequest(provider, "TXN-BOL-ADDR"))
      const body = JSON.parse(sim.charges.get(accepted.providerRef)!.rawBody)
      assert.deepStrictEqual(body.payer.address, {
        zip_code: "06233200",
        street_name: "Av. das Nações Unidas",
        street_number: "3003",
        neighborhood: "Bonfim",
        city: "Osasco",
        federal_unit: "SP"
      })
      assert.deepStrictEqual(Object.keys(body.payer.address).sort(), [...Docs.boletoAddressFields].sort())
      assert.deepStrictEqual(body.payer.identification, { type: "CPF", number: "52998224725" })
      const payment = sim.view(accepted.providerRef)
      assert.strictEqual(accepted.paymentFormUrl, payment.transaction_details.external_resource_url)
      assert.strictEqual(accepted.paymentData["barcode"], payment.transaction_details.barcode?.content)
      assert.strictEqual(accepted.paymentData["digitableLine"], payment.transaction_details.digitable_line)
    }))

  it.live("boleto without an address is refused before any call (retryable: another provider may not need it)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const refused = errorOf(yield* Effect.exit(provider.charge(defaultChargeRequest(provider, boleto, "TXN-BOL-NOADDR"))))
      assert.deepStrictEqual([refused?.reason, refused?.retryable], ["payer_address_required", true])
      assert.strictEqual(sim.requests.length, 0)
    }))

  it.live("notification_url carries ?source_news=webhooks (else Mercado Pago also sends unsignable IPN)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, pix, "TXN-NURL-1")
      const a = yield* provider.charge(base)
      const b = yield* provider.charge({ ...defaultChargeRequest(provider, pix, "TXN-NURL-2"), callbackUrl: "https://engine.example/cb?shop=7" })
      assert.strictEqual(sim.charges.get(a.providerRef)!.body.notification_url, `${base.callbackUrl}?source_news=webhooks`)
      assert.strictEqual(sim.charges.get(b.providerRef)!.body.notification_url, "https://engine.example/cb?shop=7&source_news=webhooks")
      // A notification URL without it makes the simulator send the legacy IPN too (unsigned).
      yield* sim.complete(a.providerRef)
      assert.deepStrictEqual(sim.callbacksSent.map((c) => new URL(c.url).searchParams.has("topic")), [false])
    }))

  it.effect("a data.id is signed as sent (not lowercased); the SDK's validator agrees", () =>
    Effect.gen(function*() {
      const provider = yield* MercadoPagoProvider.make(optionsFor("http://upstream.invalid")).pipe(Effect.provide(Live))
      const t = 1_716_651_000
      yield* TestClock.setTime(t * 1000)
      const body = JSON.stringify({ action: "order.updated", type: "order", data: { id: "ORD01JQ4S4KY8HWQ6NA5PXB65B3D3" } })
      const asSent = signed("ORD01JQ4S4KY8HWQ6NA5PXB65B3D3", "req-1", t)
      WebhookSignatureValidator.validate({ xSignature: asSent["x-signature"], xRequestId: "req-1", dataId: "ORD01JQ4S4KY8HWQ6NA5PXB65B3D3", secret: webhookSecret })
      assert.strictEqual((yield* provider.verifyCallback(asSent, body)).length, 0)
      const lowered = signed("ord01jq4s4ky8hwq6na5pxb65b3d3", "req-1", t)
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(lowered, body)))?.reason, "signature mismatch")
    }))

  it.effect("the signed data.id is the one the URL's query carries, as the documented template says; a body naming another is refused", () =>
    Effect.gen(function*() {
      const provider = yield* MercadoPagoProvider.make(optionsFor("http://upstream.invalid")).pipe(Effect.provide(Live))
      const t = 1_716_651_000
      yield* TestClock.setTime(t * 1000)
      const body = JSON.stringify({ action: "order.updated", type: "order", data: { id: "ORD01JQ4S4KY8HWQ6NA5PXB65B3D3" } })
      const headers = signed("ORD01JQ4S4KY8HWQ6NA5PXB65B3D3", "req-2", t)
      assert.strictEqual((yield* provider.verifyCallback(headers, body, { "data.id": "ORD01JQ4S4KY8HWQ6NA5PXB65B3D3", type: "order" })).length, 0)
      const other = signed("ORD02XXXXXXXXXXXXXXXXXXXXXXX", "req-2", t)
      const mismatch = yield* Effect.exit(provider.verifyCallback(other, body, { "data.id": "ORD02XXXXXXXXXXXXXXXXXXXXXXX", type: "order" }))
      assert.strictEqual(errorOf(mismatch)?.reason, "data.id of the URL and of the body differ")
    }))

  it.live("the documentation's notification body, signed by the template, is verified and the payment is read", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-DOCS-NOTE"))
      yield* sim.complete(accepted.providerRef)
      const body = JSON.stringify({ ...Docs.webhookNotification, data: { id: accepted.providerRef } })
      const headers = signed(accepted.providerRef, "docs-req-1", Math.floor(Date.now() / 1000))
      assert.deepStrictEqual(yield* provider.verifyCallback(headers, body), [
        { providerRef: accepted.providerRef, transactionId: "TXN-DOCS-NOTE", status: "completed", detail: "accredited" }
      ])
    }))

  it.effect("the ts window covers Mercado Pago's retries (4 days): an old but validly signed notification is accepted", () =>
    Effect.gen(function*() {
      const provider = yield* MercadoPagoProvider.make(optionsFor("http://upstream.invalid")).pipe(Effect.provide(Live))
      const body = JSON.stringify({ action: "order.updated", type: "merchant_order", data: { id: "123" } })
      const t = 1_716_651_000
      const headers = signed("123", "req-2", t)
      yield* TestClock.setTime((t + Docs.lastRetryAfterSeconds + 3600) * 1000)
      assert.strictEqual((yield* provider.verifyCallback(headers, body)).length, 0)
      yield* TestClock.setTime((t + 6 * 24 * 3600) * 1000)
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(headers, body)))?.reason, "signature stale")
      // Signed in the future beyond clock skew: refused.
      yield* TestClock.setTime((t - 301) * 1000)
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(headers, body)))?.reason, "signature stale")
    }))

  it.live("409 (still processing), 423 (key locked) and 424 (dependency failed) are not declines: retryable, then the same key answers", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      for (const [mode, reason] of [["conflict", "in_progress"], ["locked", "locked"], ["failed_dependency", "failed_dependency"]] as const) {
        const request = defaultChargeRequest(provider, pix, `TXN-409-${mode}`)
        yield* sim.setMode(mode)
        const e = errorOf(yield* Effect.exit(provider.charge(request)))
        assert.deepStrictEqual([e?.reason, e?.retryable], [reason, true], mode)
        yield* sim.setMode("ok")
        yield* provider.charge(request)
      }
      assert.strictEqual(Wire.toRefundStatus("in_process"), "pending")
    }))

  it.live("a reused X-Idempotency-Key answers the payment it made first, whatever the body (documented: the payment is returned, none is created)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const first = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-KEY-1"))
      const again = yield* provider.charge({ ...defaultChargeRequest(provider, pix, "TXN-KEY-1"), amount: Money.decimal("99") })
      assert.strictEqual(again.providerRef, first.providerRef)
      assert.strictEqual(sim.charges.size, 1)
    }))

  it.live("a refund Mercado Pago holds in_process answers pending; the same refund call later answers it settled or rejected, never a second refund", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const a = yield* provider.charge({ ...defaultChargeRequest(provider, pix, "TXN-RFP-1"), amount: Money.decimal("20") })
      yield* sim.complete(a.providerRef)
      yield* sim.setRefundsPending(true)
      const first = yield* provider.refund(refundOf("TXN-RFP-1", a.providerRef, 1, "20"))
      assert.strictEqual(first.status, "pending")
      const still = yield* provider.refund(refundOf("TXN-RFP-1", a.providerRef, 1, "20"))
      assert.deepStrictEqual([still.providerRef, still.status], [first.providerRef, "pending"])
      yield* sim.settleRefund(first.providerRef)
      // The notification that follows names the payment; its query carries the refund as it
      // stands, so the engine settles the refund at once instead of at its next follow-up.
      const ts = Math.floor(Date.now() / 1000)
      const notified = yield* provider.verifyCallback(signed(a.providerRef, "req-refund-1", ts), JSON.stringify({ type: "payment", data: { id: a.providerRef } }))
      assert.deepStrictEqual(notified[0]?.refunds?.map((r) => [r.providerRef, r.status]), [[first.providerRef, "succeeded"]])
      const settled = yield* provider.refund(refundOf("TXN-RFP-1", a.providerRef, 1, "20"))
      assert.deepStrictEqual([settled.providerRef, settled.status], [first.providerRef, "succeeded"])
      assert.strictEqual(sim.charges.get(a.providerRef)!.refunds.length, 1)

      const b = yield* provider.charge({ ...defaultChargeRequest(provider, pix, "TXN-RFP-2"), amount: Money.decimal("20") })
      yield* sim.complete(b.providerRef)
      const part = yield* provider.refund(refundOf("TXN-RFP-2", b.providerRef, 1, "5"))
      yield* sim.rejectRefund(part.providerRef)
      const rejected = yield* provider.refund(refundOf("TXN-RFP-2", b.providerRef, 1, "5"))
      assert.deepStrictEqual([rejected.providerRef, rejected.status], [part.providerRef, "failed"])
      assert.strictEqual(sim.charges.get(b.providerRef)!.refunded, "0")
    }))

  it.effect("the API reference's refund answer reads as a succeeded refund", () =>
    Effect.gen(function*() {
      const refund = yield* Effect.orDie(Effect.fromResult(Wire.decodeRefundText(Docs.refundReferenceResponse)))
      assert.deepStrictEqual([Wire.idText(refund.id), Money.toText(refund.amount!), Wire.toRefundStatus(refund.status)], ["1009042015", "10", "succeeded"])
    }))

  it.live("rails: each is charged with its documented payment_method_id and currency; PSE (the buyer's own bank from Mercado Pago's list) is not served", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      assert.isFalse(provider.supports(pse))
      // Even given one bank for every buyer (the former stopgap), PSE is not served.
      const configured = { ...optionsFor(sim.baseUrl), pse: { financialInstitution: "1007", returnUrl: "https://shop.example/return" } }
      const withPse = yield* MercadoPagoProvider.make(configured).pipe(Effect.provide(Live))
      assert.isFalse(withPse.supports(findMethod("sbx_pse")!))
      for (const [method, id, currency] of [[pix, "pix", "BRL"], [findMethod("1003")!, "pec", "BRL"], [oxxo, "oxxo", "MXN"]] as const) {
        assert.isTrue(provider.supports(method))
        const accepted = yield* provider.charge(defaultChargeRequest(provider, method, `TXN-RAIL-${id}`))
        assert.deepStrictEqual([sim.charges.get(accepted.providerRef)!.body.payment_method_id, sim.charges.get(accepted.providerRef)!.currency], [id, currency])
      }
    }))
})
