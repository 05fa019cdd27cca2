/**
 * The Mercado Pago connector against its simulator over real loopback sockets: what is specific to
 * this plugin (the wire body as received, idempotency across a timed-out retry, refunds, the
 * status map, documented error codes, the notification the simulator really sends, the
 * notify-then-query rules, the Effect clock in signature checks, and secrets that never leak). The
 * shared kit runs from `providers/mercadopago/mercadopago.conformance.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { inspect } from "node:util"
import { withSecretScrub } from "../support/SecretScrub.ts"
import * as Money from "../../core/Money.ts"
import type { ChargeRequest, PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import {
  accessToken,
  boleto,
  Live,
  optionsFor,
  oxxo,
  pix,
  pse,
  setup,
  webhookSecret
} from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import * as Wire from "../../providers/mercadopago/Wire.ts"
import { view } from "./Verdict.ts"

const errorOf = <E>(exit: Exit.Exit<unknown, E>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const requestOn = (provider: PaymentProvider, transactionId: string, overrides: Partial<ChargeRequest> = {}): ChargeRequest => ({
  ...defaultChargeRequest(provider, pix, transactionId),
  ...overrides
})

const refundOf = (transactionId: string, providerRef: string, n: number, amount: string) => ({
  transactionId,
  providerRef,
  refundId: `${transactionId}-R${n}`,
  idempotencyKey: `${transactionId}-R${n}:mercadopago`,
  amount: Money.decimal(amount),
  currency: "BRL"
})

describe("MercadoPagoProvider", () => {
  it.live("sends the documented body: amount as an exact JSON number in major units, references, bearer token, idempotency key", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = requestOn(provider, "TXN-WIRE-1", { amount: Money.decimal("49999.99") })
      const accepted = yield* provider.charge(request)
      const payment = sim.charges.get(accepted.providerRef)!
      assert.include(payment.rawBody, "\"transaction_amount\":49999.99,")
      assert.deepStrictEqual(JSON.parse(payment.rawBody), {
        transaction_amount: 49999.99,
        description: "Payment TXN-WIRE-1",
        payment_method_id: "pix",
        external_reference: "TXN-WIRE-1",
        notification_url: `${request.callbackUrl}?source_news=webhooks`,
        date_of_expiration: request.expiresAt.toISOString().replace("Z", "+00:00"),
        payer: { email: "ana@example.com", first_name: "Ana", last_name: "Souza", identification: { type: "CPF", number: "52998224725" } },
        additional_info: { ip_address: "203.0.113.7" }
      })
      assert.strictEqual(payment.amount, "49999.99")
      assert.strictEqual(payment.idempotencyKey, "TXN-WIRE-1:mercadopago")
      assert.isTrue(sim.requests.every((r) => r.authorized))
      assert.deepStrictEqual([accepted.status, accepted.paymentFormUrl], ["pending", `${sim.baseUrl}/payments/${accepted.providerRef}/ticket`])
      assert.match(String(accepted.paymentData["qrCode"]), /^00020126/)
    }))

  it.live("a timed-out charge is retryable; its retry carries the same X-Idempotency-Key and answers the same payment", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
      const request = requestOn(provider, "TXN-RETRY-1")
      yield* sim.setMode("slow")
      const timedOut = errorOf(yield* Effect.exit(provider.charge(request)))
      assert.deepStrictEqual([timedOut?.reason, timedOut?.retryable], ["timeout", true])
      yield* sim.setMode("ok")
      const accepted = yield* provider.charge(request)
      const posts = sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/payments")
      assert.deepStrictEqual(posts.map((r) => r.idempotencyKey), [request.idempotencyKey, request.idempotencyKey])
      assert.deepStrictEqual([...sim.charges.values()].map((p) => p.id), [accepted.providerRef])
    }))

  it.live("vouchers: boleto and OXXO answer their voucher URL; PSE (the buyer's own bank) is not served", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, boleto, "TXN-BOL-1")
      const slip = yield* provider.charge({
        ...base,
        customer: {
          ...base.customer,
          address: Redacted.make({ street: "Rua A", number: "1", district: "Centro", city: "São Paulo", state: "SP", postalCode: "01001-000", country: "BR" })
        }
      })
      assert.strictEqual(slip.paymentFormUrl, `${sim.baseUrl}/checkout/bolbradesco/${slip.providerRef}`)
      assert.isString(slip.paymentData["barcode"])
      const cash = yield* provider.charge({ ...defaultChargeRequest(provider, oxxo, "TXN-OXXO-1") })
      assert.strictEqual(sim.charges.get(cash.providerRef)?.body.payment_method_id, "oxxo")
      assert.strictEqual(sim.charges.get(cash.providerRef)?.currency, "MXN")

      assert.isFalse(provider.supports(pse))
      const refused = errorOf(yield* Effect.exit(provider.charge(defaultChargeRequest(provider, pse, "TXN-PSE-0"))))
      assert.deepStrictEqual([refused?.reason, refused?.retryable], ["unsupported_method", true])
    }))

  it.live("the status poll maps Mercado Pago statuses; unknown ones are pending", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(requestOn(provider, "TXN-POLL-1"))
      yield* sim.dropCallbacks(true)
      const polled = (status: string, detail?: string) =>
        Effect.flatMap(sim.setStatus(providerRef, status, detail), () => provider.status(providerRef, "TXN-POLL-1"))
      for (
        const [status, detail, expected] of [
          ["in_review_v2", undefined, "pending"],
          ["in_process", "pending_review_manual", "pending"],
          ["authorized", "pending_capture", "pending"],
          ["approved", "accredited", "completed"],
          ["in_mediation", undefined, "chargeback"],
          ["charged_back", "settled", "chargeback"],
          ["refunded", "refunded", "refunded"],
          ["cancelled", "expired", "expired"],
          ["cancelled", "by_collector", "failed"],
          ["rejected", "rejected_by_bank", "failed"]
        ] as const
      ) {
        const update = yield* polled(status, detail)
        assert.strictEqual(update.status, expected, `${status}/${detail}`)
        assert.strictEqual(update.transactionId, "TXN-POLL-1")
      }
      assert.strictEqual((yield* polled("rejected", "rejected_high_risk")).detail, "rejected_high_risk")
      assert.strictEqual(Wire.toChargeStatus("charged_back"), "pending")
    }))

  it.live("refunds: the whole payment goes without a body, a part as { amount }, a retried one is the same refund", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const whole = yield* provider.charge(requestOn(provider, "TXN-RF-1", { amount: Money.decimal("10.5") }))
      yield* sim.complete(whole.providerRef)
      const full = yield* provider.refund(refundOf("TXN-RF-1", whole.providerRef, 1, "10.5"))
      const fullPayment = sim.charges.get(whole.providerRef)!
      assert.deepStrictEqual(fullPayment.refunds.map((r) => [r.id, r.rawBody, r.amount]), [[full.providerRef, "", "10.5"]])
      assert.strictEqual(fullPayment.status, "refunded")

      const parts = yield* provider.charge(requestOn(provider, "TXN-RF-2", { amount: Money.decimal("10") }))
      yield* sim.complete(parts.providerRef)
      const first = yield* provider.refund(refundOf("TXN-RF-2", parts.providerRef, 1, "2.5"))
      const again = yield* provider.refund(refundOf("TXN-RF-2", parts.providerRef, 1, "2.5"))
      const second = yield* provider.refund(refundOf("TXN-RF-2", parts.providerRef, 2, "7.5"))
      const payment = sim.charges.get(parts.providerRef)!
      assert.strictEqual(again.providerRef, first.providerRef)
      assert.notStrictEqual(second.providerRef, first.providerRef)
      assert.deepStrictEqual(payment.refunds.map((r) => r.rawBody), ["{\"amount\":2.5}", "{\"amount\":7.5}"])
      assert.deepStrictEqual(payment.refunds.map((r) => r.idempotencyKey), ["TXN-RF-2-R1:mercadopago", "TXN-RF-2-R2:mercadopago"])
      assert.strictEqual(payment.status, "refunded")
      const tooMuch = errorOf(yield* Effect.exit(provider.refund(refundOf("TXN-RF-2", parts.providerRef, 3, "0.01"))))
      assert.isFalse(tooMuch?.retryable)
    }))

  it.live("error mapping: documented codes, declines, refused token, outages", () =>
    Effect.gen(function*() {
      const { options, provider, sim } = yield* setup()
      const exitOf = (request: ChargeRequest, on: PaymentProvider = provider) =>
        Effect.map(Effect.exit(on.charge(request)), (exit) => {
          const e = errorOf(exit)
          return [e?.reason, e?.retryable]
        })
      const base = requestOn(provider, "TXN-ERR-1")
      assert.deepStrictEqual(
        yield* exitOf({ ...base, customer: { ...base.customer, documentId: Redacted.make(MercadoPagoSimulator.invalidDocument) } }),
        ["2067", false]
      )
      assert.deepStrictEqual(
        yield* exitOf({ ...requestOn(provider, "TXN-ERR-2"), customer: { ...base.customer, email: Redacted.make(MercadoPagoSimulator.mixedUsersEmail) } }),
        ["invalid_users_involved", true]
      )
      assert.deepStrictEqual(yield* exitOf({ ...requestOn(provider, "TXN-ERR-3"), customer: { name: Redacted.make("Ana") } }), ["payer_email_required", true])
      const wrongToken = yield* MercadoPagoProvider.make({ ...options, accessToken: Redacted.make("TEST-nope") }).pipe(Effect.provide(Live))
      assert.deepStrictEqual(yield* exitOf(requestOn(provider, "TXN-ERR-4"), wrongToken), ["invalid_credentials", true])
      const unknown = errorOf(yield* Effect.exit(provider.status("99999999999", "TXN-NOPE")))
      assert.deepStrictEqual([unknown?.reason, unknown?.retryable], ["2000", false])
      const pending = yield* provider.charge(requestOn(provider, "TXN-ERR-5"))
      const notPaid = errorOf(yield* Effect.exit(provider.refund(refundOf("TXN-ERR-5", pending.providerRef, 1, "1"))))
      assert.deepStrictEqual([notPaid?.reason, notPaid?.retryable], ["2063", false])

      yield* sim.setMode("decline")
      assert.deepStrictEqual(yield* exitOf(requestOn(provider, "TXN-ERR-6")), ["rejected_by_bank", false])
      yield* sim.setMode("unavailable")
      assert.deepStrictEqual(yield* exitOf(requestOn(provider, "TXN-ERR-7")), ["upstream_unavailable", true])
    }))

  it.live("a notification the simulator really sends is verified, then the API is asked (node:crypto signer, effect/crypto verifier)", () =>
    Effect.gen(function*() {
      const { provider, receiver, sim } = yield* setup()
      const accepted = yield* provider.charge(requestOn(provider, "TXN-CB-1"))
      yield* sim.complete(accepted.providerRef)
      assert.deepStrictEqual(sim.callbacksSent.map((c) => c.outcome), [204])
      assert.include(sim.callbacksSent[0]!.url, `?source_news=webhooks&data.id=${accepted.providerRef}&type=payment`)
      assert.match(sim.callbacksSent[0]!.headers["x-signature"]!, /^ts=\d{10},v1=[0-9a-f]{64}$/)
      assert.deepStrictEqual(receiver.updates, [
        { providerRef: accepted.providerRef, transactionId: "TXN-CB-1", status: "completed", detail: "accredited" }
      ])
      const queries = sim.requests.filter((r) => r.method === "GET" && r.path === `/v1/payments/${accepted.providerRef}`)
      assert.strictEqual(queries.length, 1)
    }))

  it.live("notify-then-query: an unknown payment or an API outage is rejected (the provider retries); other topics move nothing", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const verify = (body: string) => Effect.flatMap(sim.sign(body), (headers) => Effect.exit(provider.verifyCallback(headers, body)))
      const forged = yield* verify(sim.notificationBody("99999999999"))
      assert.strictEqual(errorOf(forged)?._tag, "CallbackRejected")

      const accepted = yield* provider.charge(requestOn(provider, "TXN-CB-2"))
      yield* sim.setMode("unavailable")
      const outage = yield* verify(sim.notificationBody(accepted.providerRef))
      assert.deepStrictEqual([errorOf(outage)?._tag, errorOf(outage)?.reason], ["CallbackRejected", "payment query failed: upstream_unavailable"])

      const order = JSON.stringify({ action: "order.updated", type: "merchant_order", data: { id: "123" } })
      const orderExit = yield* verify(order)
      assert.isTrue(Exit.isSuccess(orderExit) && orderExit.value.length === 0)
    }))

  it.effect("the notification timestamp is checked against the Effect clock (seconds; 13 digits read as ms)", () =>
    Effect.gen(function*() {
      const provider = yield* MercadoPagoProvider.make(optionsFor("http://upstream.invalid")).pipe(Effect.provide(Live))
      const body = JSON.stringify({ action: "order.updated", type: "merchant_order", data: { id: "AB12" } })
      const t = 1_716_651_000
      const headers = MercadoPagoSimulator.headersFor(webhookSecret, body, t)
      yield* TestClock.setTime(t * 1000)
      assert.strictEqual((yield* provider.verifyCallback(headers, body)).length, 0)
      yield* TestClock.adjust(`${MercadoPagoProvider.callbackMaxAgeSeconds} seconds`)
      yield* provider.verifyCallback(headers, body)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(headers, body)))?.reason, "signature stale")
      // Signed ahead of the clock: 300 s of skew allowed, not more; 13 digits are milliseconds.
      yield* TestClock.setTime(t * 1000)
      yield* provider.verifyCallback(MercadoPagoSimulator.headersFor(webhookSecret, body, t + 300), body)
      const ahead = MercadoPagoSimulator.headersFor(webhookSecret, body, t + 301)
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(ahead, body)))?.reason, "signature stale")
      const ms = MercadoPagoSimulator.headersFor(webhookSecret, body, (t - 301) * 1000)
      assert.strictEqual((yield* provider.verifyCallback(ms, body)).length, 0)
      // Another request id breaks the signature.
      const other = { ...headers, "x-request-id": "someone-else" }
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(other, body)))?.reason, "signature mismatch")
    }))

  it.live("secrets never appear in errors, thrown messages, log lines or the provider itself", () =>
    withSecretScrub([accessToken, webhookSecret], (scrub) =>
      Effect.gen(function*() {
        const { options, provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
        for (const mode of ["slow", "unavailable", "decline", "echo"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(provider.charge(requestOn(provider, `TXN-LEAK-${mode}`))))
        }
        yield* scrub.failed(yield* Effect.exit(provider.status("90000000001", "TXN-LEAK")))
        yield* sim.setMode("ok")
        const body = sim.notificationBody("90000000001")
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ "x-signature": `ts=1,v1=${webhookSecret}` }, body)))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback(yield* sim.sign(webhookSecret), webhookSecret)))
        // What a caller that runs the effect as a promise sees thrown, with the token echoed back.
        yield* sim.setMode("echo")
        const thrown = yield* Effect.promise(() =>
          Effect.runPromise(provider.charge(requestOn(provider, "TXN-LEAK-THROWN"))).then(() => "resolved", (e: Error) => `${e.message}\n${e.stack}`)
        )
        scrub.text(thrown)
        assert.include(thrown, "[redacted]")
      })))
})
