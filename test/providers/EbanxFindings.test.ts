/**
 * The EBANX connector against its simulator on what review found: boleto's address and phone,
 * PSE as `eft` (not served), refunds that stay pending and settle, buyer fields never sent empty,
 * `CA` as expiry or cancellation, EBANX's answers to malformed requests, and JWS authentication.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { inspect } from "node:util"
import { findMethod } from "../../core/catalog/methods.ts"
import type { ChargeRequest, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver } from "../../providers/kit/CallbackReceiver.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { integrationKey, Live, optionsFor, pix } from "../../providers/ebanx/ConformanceHarness.ts"
import { make } from "../../providers/ebanx/EbanxProvider.ts"
import { EbanxSimulator } from "../../providers/ebanx/EbanxSimulator.ts"
import * as Rails from "../../providers/ebanx/Rails.ts"
import * as Wire from "../../providers/ebanx/Wire.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"
import { view } from "./Verdict.ts"

const errorOf = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)) as ProviderError | undefined)

const boleto = findMethod("1002")!
const address = { street: "Rua E", number: "1040", complement: "apto 12", district: "Centro", city: "Curitiba", state: "PR", postalCode: "82530000", country: "BR" }

const setup = (simOptions: Parameters<typeof EbanxSimulator.start>[1] = {}, overrides: Parameters<typeof optionsFor>[1] = {}) =>
  Effect.gen(function*() {
    const sim = yield* EbanxSimulator.start(integrationKey, simOptions)
    yield* sim.dropCallbacks(true)
    const provider = yield* make(optionsFor(sim.baseUrl, overrides))
    return { sim, provider }
  })

const lastBody = (sim: EbanxSimulator, path: string) => sim.received.filter((r) => r.path === path).at(-1)!

describe("EBANX findings", () => {
  it.live("boleto: the buyer's address and phone go in EBANX's fields; requires() declares them; without them EBANX refuses BP-DR-24", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, boleto, "TXN-BOLETO-1")
      const accepted = yield* provider.charge({ ...base, customer: { ...base.customer, address: Redacted.make(address) } })
      assert.deepInclude(sim.charges.get(accepted.providerRef)!.body, {
        address: "Rua E",
        street_number: "1040",
        street_complement: "apto 12",
        city: "Curitiba",
        state: "PR",
        zipcode: "82530000",
        phone_number: "+5511987654321"
      })
      assert.includeMembers([...(provider.requires?.(boleto) ?? [])], ["userAddress", "userPhone"])
      const refused = errorOf(yield* Effect.exit(provider.charge({ ...base, transactionId: "TXN-BOLETO-2" })))
      assert.deepInclude(refused, { reason: "BP-DR-24", retryable: false })
      const noPhone = errorOf(yield* Effect.exit(provider.charge({ ...base, transactionId: "TXN-BOLETO-3", customer: { ...base.customer, address: Redacted.make(address), phone: undefined } })))
      assert.deepInclude(noPhone, { reason: "BP-DR-31", retryable: false })
    }).pipe(Effect.provide(Live)))

  it.live("PSE is EBANX's eft with a bank code the engine cannot carry: not supported, and EBANX refuses eft without eft_code", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      assert.strictEqual(Rails.railOf({ id: "1047" })?.paymentTypeCode, "eft")
      assert.isFalse(provider.supports(findMethod("1047")!))
      assert.isFalse(provider.supports(findMethod("sbx_pse")!))
      const raw = { integration_key: integrationKey, operation: "request", payment: { name: "Ana", email: "ana@example.com", document: "1234567890", country: "co", payment_type_code: "eft", merchant_payment_code: "TXN-EFT-1", currency_code: "COP", amount_total: 5000 } }
      const answer = yield* Effect.promise(() => fetch(`${sim.baseUrl}/ws/direct`, { method: "POST", body: JSON.stringify(raw) }).then((r) => r.json()))
      assert.deepInclude(answer, { status: "ERROR", status_code: EbanxSimulator.eftCodeMissing })
    }).pipe(Effect.provide(Live)))

  it.live("refunds: RE and PE answer pending, the same request later answers the same refund as it stands (CO succeeded, CA failed); EBANX's refund notification is read", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const receiver = yield* callbackReceiver(provider.verifyCallback)
      yield* sim.setCallbackTarget(receiver.url)
      const request = defaultChargeRequest(provider, pix, "TXN-REFUND-P1")
      const accepted = yield* provider.charge(request)
      yield* sim.complete(accepted.providerRef)
      yield* sim.dropCallbacks(false)
      const refundOf = (refundId: string) => ({
        transactionId: request.transactionId,
        providerRef: accepted.providerRef,
        refundId,
        idempotencyKey: `${refundId}:ebanx`,
        amount: request.amount,
        currency: request.currency
      })
      yield* sim.setRefundMode("pending")
      const first = yield* provider.refund(refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3WA1"))
      assert.deepInclude(first, { status: "pending" })
      yield* sim.setRefundStatus(first.providerRef, "PE")
      assert.deepInclude(yield* provider.refund(refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3WA1")), { providerRef: first.providerRef, status: "pending" })
      yield* sim.settleRefund(first.providerRef)
      assert.deepInclude(yield* provider.refund(refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3WA1")), { providerRef: first.providerRef, status: "succeeded" })
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.refunds.length, 1, "asked three times, one refund")
      // The refund notifications EBANX sends: the form names the payment; the query carries the refund.
      assert.match(sim.callbacksSent.at(-1)!.body, /notification_type=refund/)
      assert.deepInclude([...receiver.updates.at(-1)!.refunds ?? []], { providerRef: first.providerRef, status: "succeeded" })
      // Cancelled by EBANX (or the merchant) while pending: failed, the money returns to the shop.
      const payment2 = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-REFUND-P2"))
      yield* sim.complete(payment2.providerRef)
      const second = { ...refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3WA2"), transactionId: "TXN-REFUND-P2", providerRef: payment2.providerRef }
      const pending = yield* provider.refund(second)
      yield* sim.rejectRefund(pending.providerRef)
      assert.deepInclude(yield* provider.refund(second), { providerRef: pending.providerRef, status: "failed" })
      assert.deepInclude(receiver.updates.at(-1)!.refunds?.[0], { providerRef: pending.providerRef, status: "failed" })
      // The default mode confirms at once.
      yield* sim.setRefundMode("confirm")
      const payment3 = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-REFUND-P3"))
      yield* sim.complete(payment3.providerRef)
      assert.deepInclude(yield* provider.refund({ ...second, refundId: "CLM-01JD7Q3K5V8X2M4N6P9R1T3WA3", transactionId: "TXN-REFUND-P3", providerRef: payment3.providerRef }), { status: "succeeded" })
      assert.deepStrictEqual(["RE", "PE", "CO", "CA", "XX"].map(Wire.toRefundStatus), ["pending", "pending", "succeeded", "failed", "pending"])
    }).pipe(Effect.provide(Live)))

  it.live("a buyer field the engine does not know is left out, never sent empty; requires() names what EBANX needs beyond the catalog", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, pix, "TXN-EMPTY-1")
      const bare: ChargeRequest = { ...base, customer: { documentId: Redacted.make("52998224725") } }
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge(bare))), { reason: "BP-DR-13", retryable: false })
      const raw = JSON.parse(lastBody(sim, "/ws/direct").body) as { payment: Record<string, unknown> }
      for (const key of ["name", "email", "phone_number", "address", "zipcode", "customer_ip"]) assert.notProperty(raw.payment, key)
      assert.strictEqual(raw.payment["document"], "52998224725")
      assert.deepStrictEqual(provider.requires?.(pix), ["userEmail"])
      assert.deepStrictEqual(provider.requires?.(findMethod("1075")!), ["userName"])
      assert.deepStrictEqual(provider.requires?.(findMethod("1033")!), [])
    }).pipe(Effect.provide(Live)))

  it.live("EBANX's CA: after the due date it is expiry, before it a cancellation", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const lapsed = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-CA-1"))
      const cancelled = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-CA-2"))
      yield* sim.expire(lapsed.providerRef)
      yield* sim.fail(cancelled.providerRef, "cancelled")
      assert.strictEqual((yield* provider.status(lapsed.providerRef, "TXN-CA-1")).status, "expired")
      assert.strictEqual((yield* provider.status(cancelled.providerRef, "TXN-CA-2")).status, "failed")
      assert.strictEqual(Wire.toUpdateStatus({ status: "CA", due_date: "2017-06-01", status_date: "2017-06-02 00:00:01" }), "expired")
      assert.strictEqual(Wire.toUpdateStatus({ status: "CA", due_date: "2017-06-01", status_date: "2017-05-30 10:00:00" }), "failed")
      assert.strictEqual(Wire.toUpdateStatus({ status: "CA" }), "failed")
    }).pipe(Effect.provide(Live)))

  it.live("a request the simulator cannot read is answered as EBANX documents: no key BP-SA-1, no payment BP-DR-2, a missing field its BP-DR code", () =>
    Effect.gen(function*() {
      const { sim } = yield* setup()
      const post = (path: string, body: string) =>
        Effect.promise(() => fetch(`${sim.baseUrl}${path}`, { method: "POST", body }).then((r) => r.json() as Promise<Record<string, unknown>>))
      assert.deepInclude(yield* post("/ws/direct", "not json"), { status: "ERROR", status_code: "BP-SA-1" })
      assert.deepInclude(yield* post("/ws/direct", JSON.stringify({ operation: "request" })), { status_code: "BP-SA-1" })
      assert.deepInclude(yield* post("/ws/direct", JSON.stringify({ integration_key: integrationKey, operation: "request" })), { status_code: "BP-DR-2" })
      assert.deepInclude(yield* post("/ws/direct", JSON.stringify({ integration_key: integrationKey, payment: { amount_total: 10 } })), { status_code: "BP-DR-3" })
      assert.deepInclude(yield* post("/ws/direct", JSON.stringify({ integration_key: integrationKey, payment: { currency_code: "BRL" } })), { status_code: "BP-DR-5" })
      assert.deepInclude(yield* post("/ws/direct", JSON.stringify({ integration_key: "wrong", payment: {} })), { status_code: "BP-SA-2" })
    }).pipe(Effect.provide(Live)))

  it.live("JWS: every call carries X-JWS-Signature (RS256 over the exact body, the documented header) and no integration_key; EBANX's check refuses another key; the private key never leaks", () => {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 })
    const privatePem = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    const publicPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString()
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    return withSecretScrub([privatePem.split("\n")[2]!], (scrub) =>
      Effect.gen(function*() {
        const jws = { keyId: "kid-merchant-1", privateKey: Redacted.make(privatePem) }
        const { provider, sim } = yield* setup({ jws: { keyId: "kid-merchant-1", publicKeyPem: publicPem } }, { integrationKey: undefined, jws })
        scrub.text(inspect(provider, { depth: 10 }))
        const accepted = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-JWS-1"))
        yield* sim.complete(accepted.providerRef)
        assert.strictEqual((yield* provider.status(accepted.providerRef, "TXN-JWS-1")).status, "completed")
        const sent = lastBody(sim, "/ws/direct")
        assert.notInclude(sent.body, "integration_key")
        const [header, empty, signature] = (sent.headers["x-jws-signature"] ?? "").split(".")
        assert.strictEqual(empty, "")
        assert.isAbove(signature?.length ?? 0, 300)
        assert.deepStrictEqual(JSON.parse(Buffer.from(header!, "base64url").toString("utf8")), { alg: "RS256", kid: "kid-merchant-1", b64: false, crit: ["b64"] })
        const wrongKey = yield* make(optionsFor(sim.baseUrl, { jws: { keyId: "kid-merchant-1", privateKey: Redacted.make(other) } }))
        yield* scrub.failed(yield* Effect.exit(wrongKey.charge(defaultChargeRequest(wrongKey, pix, "TXN-JWS-2"))))
        assert.deepInclude(errorOf(yield* Effect.exit(wrongKey.charge(defaultChargeRequest(wrongKey, pix, "TXN-JWS-2")))), { reason: "invalid_credentials", retryable: true })
        const wrongKid = yield* make(optionsFor(sim.baseUrl, { jws: { keyId: "kid-other", privateKey: jws.privateKey } }))
        assert.deepInclude(errorOf(yield* Effect.exit(wrongKid.charge(defaultChargeRequest(wrongKid, pix, "TXN-JWS-3")))), { reason: "invalid_credentials" })
        const notAKey = yield* make(optionsFor(sim.baseUrl, { jws: { keyId: "kid-merchant-1", privateKey: Redacted.make("not a pem") } }))
        assert.deepInclude(errorOf(yield* Effect.exit(notAKey.charge(defaultChargeRequest(notAKey, pix, "TXN-JWS-4")))), { reason: "invalid_credentials" })
        assert.strictEqual([...sim.charges.values()].filter((c) => c.merchantPaymentCode !== "TXN-JWS-1").length, 0)
      })).pipe(Effect.provide(Live))
  })
})
