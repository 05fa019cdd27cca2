/**
 * The dLocal pay-in connector against its simulator, beyond the shared kit: the wire body as
 * dLocal receives it (exact amounts, codes, references), a retry after a lost answer read back
 * through the order object, refunds with their own id, dLocal's documented error codes, the
 * status map, the rail table against the catalog, a notification the simulator really sends,
 * and credentials that never leak.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Exit, Option, Redacted } from "effect"
import { inspect } from "node:util"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { ChargeRequest, PaymentProvider, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver } from "../../providers/kit/CallbackReceiver.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { credentials, Live, optionsFor, pix } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import * as Rails from "../../providers/dlocal/Rails.ts"
import { notificationHeaders } from "../../providers/dlocal/SimulatorSigning.ts"
import * as Wire from "../../providers/dlocal/Wire.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"
import { view } from "./Verdict.ts"

const errorOf = (exit: Exit.Exit<unknown, ProviderError>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const setup = (overrides: Parameters<typeof optionsFor>[1] = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* DLocalSimulator.start(credentials, { slowMs })
    yield* sim.dropCallbacks(true)
    const provider = yield* make(optionsFor(sim.baseUrl, overrides))
    return { sim, provider }
  })

const on = (provider: PaymentProvider, id: string, transactionId: string, amount: string): ChargeRequest => {
  const method = findMethod(id)!
  return { ...defaultChargeRequest(provider, method, transactionId), amount: Money.decimal(amount) }
}

describe("dLocal pay-in connector", () => {
  it.live("sends the amount as the exact decimal number, the rail's dLocal code, the order id and the notification URL", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = on(provider, "1033", "TXN-WIRE-1", "1234.50")
      const accepted = yield* provider.charge(request)
      const upstream = sim.charges.get(accepted.providerRef)!
      assert.include(upstream.raw, `"amount":1234.5,`)
      assert.strictEqual(upstream.amountText, "1234.5")
      assert.deepInclude(upstream.body, {
        currency: "MXN",
        country: "MX",
        payment_method_id: "OX",
        payment_method_flow: "REDIRECT",
        order_id: "TXN-WIRE-1",
        notification_url: request.callbackUrl
      })
      assert.notProperty(upstream.body, "callback_url", "the buyer is never sent to the engine's notification URL")
      assert.deepInclude(upstream.body.payer, { name: "Ana Souza", document: "52998224725", email: "ana@example.com", phone: "+5511987654321" })
      assert.strictEqual(accepted.paymentFormUrl, `${sim.baseUrl}/collect/pay/${accepted.providerRef}`)
      assert.deepInclude(accepted.paymentData, { method: "OX" })

      // A zero-decimal currency and the smallest unit of a two-decimal one, both exact.
      const webpay = yield* provider.charge(on(provider, "1075", "TXN-WIRE-2", "15000"))
      assert.include(sim.charges.get(webpay.providerRef)!.raw, `"amount":15000,`)
      const pixCharge = yield* provider.charge(on(provider, "1001", "TXN-WIRE-3", "0.07"))
      assert.include(sim.charges.get(pixCharge.providerRef)!.raw, `"amount":0.07,"currency":"BRL","country":"BR","payment_method_id":"PQ"`)
    }).pipe(Effect.provide(Live)))

  it.live("the configured RETURN_URL is dLocal's callback_url (the buyer's way back)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ returnUrl: "https://shop.example/thanks" })
      const accepted = yield* provider.charge(on(provider, "1001", "TXN-RETURN-1", "10"))
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.body.callback_url, "https://shop.example/thanks")
    }).pipe(Effect.provide(Live)))

  it.live("a lost answer: the retry is refused 5009, read back through GET /orders and GET /payments, one upstream payment", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 1_000 }, 1_500)
      const request = defaultChargeRequest(provider, pix, "TXN-LOST-1")
      yield* sim.setMode("slow")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge(request))), { reason: "timeout", retryable: true })
      yield* sim.setMode("ok")
      const retried = yield* provider.charge(request)
      const held = [...sim.charges.values()].filter((c) => c.orderId === "TXN-LOST-1")
      assert.deepStrictEqual(held.map((c) => c.id), [retried.providerRef])
      assert.strictEqual(retried.paymentFormUrl, `${sim.baseUrl}/collect/pay/${retried.providerRef}`)
      const after = sim.requests.slice(-3).map((r) => `${r.method} ${r.path} ${r.status}`)
      assert.deepStrictEqual(after, ["POST /payments 400", "GET /orders/TXN-LOST-1 200", `GET /payments/${retried.providerRef} 200`])
    }).pipe(Effect.provide(Live)))

  it.live("refunds: the engine's refund id as order_refund_id, the exact amount, a retry is the same refund, never more than paid", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = on(provider, "1001", "TXN-REFUND-1", "10.05")
      const accepted = yield* provider.charge(request)
      const refundOf = (refundId: string, amount: string) =>
        provider.refund({
          transactionId: request.transactionId,
          providerRef: accepted.providerRef,
          refundId,
          idempotencyKey: `${refundId}:dlocal`,
          amount: Money.decimal(amount),
          currency: "BRL"
        })
      assert.deepInclude(errorOf(yield* Effect.exit(refundOf("CLM-R0", "1"))), { reason: "5002", retryable: false }, "not paid yet")
      yield* sim.complete(accepted.providerRef)
      const first = yield* refundOf("CLM-R1", "2.5")
      const again = yield* refundOf("CLM-R1", "2.5")
      assert.strictEqual(again.providerRef, first.providerRef)
      const upstream = sim.charges.get(accepted.providerRef)!
      assert.deepStrictEqual(upstream.refunds.map((r) => [r.id, r.orderRefundId, r.amountText]), [[first.providerRef, "CLM-R1", "2.5"]])
      assert.include(upstream.refunds[0]!.raw, `"amount":2.5,"currency":"BRL","order_refund_id":"CLM-R1"`)
      assert.deepInclude(errorOf(yield* Effect.exit(refundOf("CLM-R2", "7.56"))), { reason: "5007", retryable: false })
      yield* refundOf("CLM-R3", "7.55")
      assert.strictEqual(upstream.status, "REFUNDED")
      assert.strictEqual(upstream.refunded, "10.05")
    }).pipe(Effect.provide(Live)))

  it.live("dLocal's documented error codes: refusals of the buyer or the amount are final; this account's limits, credentials and outages let the cascade go on", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, pix, "TXN-ERR-0")
      let n = 0
      const attempt = (request: ChargeRequest = { ...base, transactionId: `TXN-ERR-${++n}` }) =>
        Effect.map(Effect.exit(provider.charge(request)), errorOf)

      const refused = yield* attempt({ ...base, transactionId: "TXN-ERR-DOC", customer: { ...base.customer, documentId: Redacted.make(DLocalSimulator.invalidDocument) } })
      assert.deepInclude(refused, { reason: "5005", retryable: false })
      for (const [status, code, retryable] of [
        [400, 5000, false], [400, 5001, false], [400, 5006, false], [400, 5007, false], [400, 5014, false], [400, 5016, false],
        [400, 5003, true], [400, 5004, true], [400, 5010, true], [400, 5017, true], [400, 5021, true], [504, 5010, true]
      ] as const) {
        yield* sim.setRefusal({ status, code })
        assert.deepInclude(yield* attempt(), { reason: String(code), retryable }, `${status} ${code}`)
      }
      for (const [status, code, reason] of [[429, 6000, "rate_limited"], [500, 7000, "upstream_unavailable"], [403, 3002, "invalid_credentials"]] as const) {
        yield* sim.setRefusal({ status, code })
        assert.deepInclude(yield* attempt(), { reason, retryable: true }, `${status} ${code}`)
      }
      yield* sim.setRefusal(undefined)

      const other = yield* make(optionsFor(sim.baseUrl, { transKey: Redacted.make("wrong") }))
      assert.deepInclude(errorOf(yield* Effect.exit(other.charge({ ...base, transactionId: "TXN-ERR-KEY" }))), { reason: "invalid_credentials", retryable: true })
      yield* sim.setMode("decline")
      assert.deepInclude(yield* attempt(), { reason: "rejected", retryable: false })
      yield* sim.setMode("ok")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.status("D-4-missing", "TXN-ERR-4"))), { reason: "4000", retryable: false })

      // Refused before any call: a currency or rail this connector does not charge.
      const before = sim.requests.length
      assert.deepInclude(yield* attempt({ ...base, transactionId: "TXN-ERR-USD", currency: "USD" }), { reason: "currency_not_served", retryable: true })
      assert.deepInclude(yield* attempt({ ...base, transactionId: "TXN-ERR-KHIPU", method: findMethod("1076")! }), { reason: "method_not_served", retryable: true })
      assert.strictEqual(sim.requests.length, before)
    }).pipe(Effect.provide(Live)))

  it("maps dLocal's statuses; AUTHORIZED, VERIFIED and anything unknown are pending", () => {
    assert.deepStrictEqual(
      ["PAID", "REJECTED", "CANCELLED", "EXPIRED", "REFUNDED", "CHARGEBACK", "PENDING", "AUTHORIZED", "VERIFIED", "NEW_ONE", "", "paid"].map(Wire.toUpdateStatus),
      ["completed", "failed", "failed", "expired", "refunded", "chargeback", "pending", "pending", "pending", "pending", "pending", "completed"]
    )
    assert.deepStrictEqual(["PAID", "REJECTED", "EXPIRED", "REFUNDED", "CHARGEBACK", "AUTHORIZED"].map(Wire.toChargeStatus), ["completed", "failed", "expired", "pending", "pending", "pending"])
  })

  it("serves exactly its rail table, which agrees with the catalog", () => {
    for (const rail of Rails.rails) {
      const method = findMethod(rail.catalogId)!
      assert.strictEqual(method.country, rail.country, rail.catalogId)
      assert.deepStrictEqual(method.currencies, rail.currencies, rail.catalogId)
      assert.deepInclude(method.currencyLimits[0], { currency: rail.currencies[0]!, min: rail.min, max: rail.max }, rail.catalogId)
    }
    // Card rails all share dLocal's generic `CARD` (the brand is read from the number).
    const local = Rails.rails.filter((r) => !Rails.isCardRail(r))
    const ids = new Set(local.map((r) => r.paymentMethodId))
    assert.strictEqual(ids.size, local.length, "one dLocal code per rail")
  })

  it.live("supports its rails and nothing else", () =>
    Effect.gen(function*() {
      const { provider } = yield* setup()
      for (const [id, served] of [["1001", true], ["1002", true], ["1089", true], ["1076", false], ["1004", false], ["sbx_pix", false]] as const) {
        assert.strictEqual(provider.supports(findMethod(id)!), served, id)
      }
    }).pipe(Effect.provide(Live)))

  it.live("a notification the simulator really sends (node:crypto) is verified by the connector; tampered ones and ones dated past dLocal's retry horizon are not", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const receiver = yield* callbackReceiver(provider.verifyCallback)
      yield* sim.setCallbackTarget(receiver.url)
      yield* sim.dropCallbacks(false)
      const accepted = yield* provider.charge(on(provider, "1002", "TXN-NOTIFY-1", "99.90"))
      yield* sim.complete(accepted.providerRef)
      const sent = sim.callbacksSent.at(-1)!
      assert.strictEqual(sent.outcome, 204)
      assert.include(sent.body, `"amount":99.9,`)
      assert.deepStrictEqual(receiver.updates.map((u) => [u.providerRef, u.transactionId, u.status]), [[accepted.providerRef, "TXN-NOTIFY-1", "completed"]])

      const tampered = sent.body.replace(`"status":"PAID"`, `"status":"CANCELLED"`)
      assert.isTrue(Exit.isFailure(yield* Effect.exit(provider.verifyCallback(sent.headers, tampered))))
      const stale = notificationHeaders(credentials, sent.body, new Date(Date.now() - 9 * 24 * 3_600_000).toISOString())
      assert.isTrue(Exit.isFailure(yield* Effect.exit(provider.verifyCallback(stale, sent.body))))
      assert.deepStrictEqual((yield* provider.verifyCallback(notificationHeaders(credentials, sent.body), sent.body)).map((u) => u.status), ["completed"])
      assert.isTrue(BigDecimal.equals(Money.decimal("99.9"), Money.decimal(sim.charges.get(accepted.providerRef)!.amountText)))
    }).pipe(Effect.provide(Live)))

  it.live("credentials never appear in errors, log lines or the provider, even when dLocal echoes them", () =>
    withSecretScrub([credentials.transKey, credentials.secretKey], (scrub) =>
      Effect.gen(function*() {
        const { provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
        const options = optionsFor(sim.baseUrl)
        // The right key with a wrong signature: dLocal's 403 echoes the key it received.
        const echoed = yield* make({ ...options, secretKey: Redacted.make("not-the-secret") })
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options), String(options.secretKey))
        yield* scrub.failed(yield* Effect.exit(echoed.charge(defaultChargeRequest(provider, pix, "TXN-LEAK-ECHO"))))
        for (const mode of ["slow", "unavailable", "decline"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(provider.charge(defaultChargeRequest(provider, pix, `TXN-LEAK-${mode}`))))
        }
        yield* sim.setMode("ok")
        yield* scrub.failed(yield* Effect.exit(provider.status("D-4-missing", "TXN-LEAK")))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ authorization: credentials.secretKey, "x-date": new Date().toISOString() }, "{}")))
      })).pipe(Effect.provide(Live)))
})
