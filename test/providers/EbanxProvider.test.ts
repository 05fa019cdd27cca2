/**
 * The EBANX connector against its simulator, beyond the shared kit: the wire body as EBANX
 * receives it (exact amounts as number literals, dd/mm/yyyy due date, 20-character refund codes),
 * a retry after a lost answer (charge and refund), EBANX's errors under HTTP 200 and 4xx, the
 * rails table against the catalog, notifications the simulator really sends, and a key that
 * never leaks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { inspect } from "node:util"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import { CallbackRejected, type ProviderError } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver } from "../../providers/kit/CallbackReceiver.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { integrationKey, Live, optionsFor, pix } from "../../providers/ebanx/ConformanceHarness.ts"
import { dueDateOf, make, refundCodeOf } from "../../providers/ebanx/EbanxProvider.ts"
import { EbanxSimulator } from "../../providers/ebanx/EbanxSimulator.ts"
import * as Rails from "../../providers/ebanx/Rails.ts"
import * as EbanxWire from "../../providers/ebanx/Wire.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"
import { verdictView, view } from "./Verdict.ts"

/** The wire module, its verdicts read in the terms the assertions use (`Verdict.ts`). */
const Wire = { ...EbanxWire, verdictOf: (code: string) => verdictView(EbanxWire.verdictOf(code)) }

const errorOf = (exit: Exit.Exit<unknown, ProviderError | CallbackRejected>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const setup = (overrides: Parameters<typeof optionsFor>[1] = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* EbanxSimulator.start(integrationKey, { slowMs })
    yield* sim.dropCallbacks(true)
    const provider = yield* make(optionsFor(sim.baseUrl, overrides))
    return { sim, provider }
  })

describe("EBANX connector", () => {
  it.live("sends the exact amount as a JSON number, the rail's type code, the country in lower case and the notification URL", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const boleto = findMethod("1002")!
      const base = defaultChargeRequest(provider, boleto, "TXN-WIRE-1")
      const address = { street: "Rua E", number: "1040", city: "Curitiba", state: "PR", postalCode: "82530000", country: "BR" }
      const request = { ...base, amount: Money.decimal("250.05"), customer: { ...base.customer, address: Redacted.make(address) } }
      const accepted = yield* provider.charge(request)
      const upstream = sim.charges.get(accepted.providerRef)!
      assert.strictEqual(upstream.amountText, "250.05")
      assert.deepInclude(upstream.body, {
        country: "br",
        payment_type_code: "boleto",
        merchant_payment_code: "TXN-WIRE-1",
        currency_code: "BRL",
        document: "52998224725",
        notification_url: request.callbackUrl
      })
      assert.strictEqual(accepted.paymentFormUrl, `${sim.baseUrl}/print/${accepted.providerRef}`)
      // The raw JSON as EBANX reads it: a number literal of the exact decimal text, a dd/mm/yyyy due date.
      const raw = sim.received.find((r) => r.path === "/ws/direct")!.body
      assert.include(raw, `"amount_total":250.05,`)
      assert.include(raw, `"due_date":"${dueDateOf(request.expiresAt)}"`)
      assert.match(String(upstream.body["due_date"]), /^\d{2}\/\d{2}\/\d{4}$/)
      assert.strictEqual(dueDateOf(new Date("2026-03-09T23:59:59Z")), "09/03/2026")
      const pixCharge = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-WIRE-2"))
      assert.match(String(pixCharge.paymentData["qrCode"]), /^00020126/)
    }).pipe(Effect.provide(Live)))

  it.live("a lost answer: the retry is refused BP-DR-0 and answered with the payment EBANX holds, one upstream payment", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 1_000 }, 1_500)
      const request = defaultChargeRequest(provider, pix, "TXN-LOST-1")
      yield* sim.setMode("slow")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge(request))), { reason: "timeout", retryable: true })
      yield* sim.setMode("ok")
      const retried = yield* provider.charge(request)
      const held = [...sim.charges.values()].filter((c) => c.merchantPaymentCode === "TXN-LOST-1")
      assert.strictEqual(held.length, 1)
      assert.strictEqual(retried.providerRef, held[0]!.hash)
    }).pipe(Effect.provide(Live)))

  it.live("EBANX's errors: invalid buyer data is final; a wrong key is invalid_credentials and retryable; the same under an HTTP 4xx", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, pix, "TXN-ERR-1")
      const badDocument = { ...base, customer: { ...base.customer, documentId: Redacted.make(EbanxSimulator.invalidDocument) } }
      const wrongKey = yield* make(optionsFor(sim.baseUrl, { integrationKey: Redacted.make("nope") }))
      for (const httpStatus of [200, 400]) {
        yield* sim.setErrorHttpStatus(httpStatus)
        assert.deepInclude(errorOf(yield* Effect.exit(provider.charge(badDocument))), { reason: "BP-DR-23", retryable: false })
        assert.deepInclude(errorOf(yield* Effect.exit(wrongKey.charge({ ...base, transactionId: `TXN-ERR-2-${httpStatus}` }))), {
          reason: "invalid_credentials",
          retryable: true
        })
        assert.deepInclude(errorOf(yield* Effect.exit(provider.status("f".repeat(40), "TXN-ERR-4"))), { reason: "BP-QU-1", retryable: false })
      }
      assert.strictEqual([...sim.charges.values()].length, 0, "nothing was charged")
      yield* sim.setMode("unavailable")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge({ ...base, transactionId: "TXN-ERR-3" }))), { reason: "upstream_unavailable", retryable: true })
    }).pipe(Effect.provide(Live)))

  it("classifies EBANX's documented codes: key and inactive rail retryable, anything else final", () => {
    assert.deepStrictEqual(Wire.verdictOf("BP-SA-1"), { retryable: true, reason: "invalid_credentials" })
    for (const code of ["BP-CH-1", "BP-DR-4", "BP-DR-35", "BP-DR-36"]) assert.deepStrictEqual(Wire.verdictOf(code), { retryable: true, reason: code })
    for (const code of ["BP-DR-0", "BP-DR-6", "BP-DR-7", "BP-DR-23", "BP-REF-7"]) assert.deepStrictEqual(Wire.verdictOf(code), { retryable: false, reason: code })
  })

  it("serves exactly its rails table, which agrees with the catalog (country, currencies, limits), and the sandbox mirrors", () => {
    for (const rail of Rails.rails) {
      const method = findMethod(rail.catalogId)!
      assert.deepStrictEqual([rail.country, rail.currencies, rail.min, rail.max], [method.country, method.currencies, method.currencyLimits[0]!.min, method.currencyLimits[0]!.max], rail.catalogId)
    }
    const served = (id: string) => make(optionsFor("http://127.0.0.1:9")).pipe(Effect.map((p) => p.supports(findMethod(id)!)))
    for (const [id, expected] of [["1001", true], ["1075", true], ["sbx_pix", true], ["sbx_cash", true], ["1089", false], ["1004", false]] as const) {
      assert.strictEqual(Effect.runSync(served(id).pipe(Effect.provide(Live))), expected, id)
    }
  })

  it("maps EBANX's statuses; anything else is pending", () => {
    assert.deepStrictEqual(
      ["CO", "CA", "PE", "OP", "PN", "co", "XN", ""].map((status) => Wire.toUpdateStatus({ status })),
      ["completed", "failed", "pending", "pending", "pending", "pending", "pending", "pending"]
    )
  })

  it.live("refunds: a 20-character merchant_refund_code from the refund id; a retry after a lost answer is the same refund; EBANX's refusals are final", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 1_000 }, 1_500)
      const request = defaultChargeRequest(provider, pix, "TXN-REFUND-1")
      const accepted = yield* provider.charge(request)
      const refundOf = (refundId: string, amount: string) => ({
        transactionId: request.transactionId,
        providerRef: accepted.providerRef,
        refundId,
        idempotencyKey: `${refundId}:ebanx`,
        amount: Money.decimal(amount),
        currency: request.currency
      })
      // Only a confirmed payment can be refunded (BP-REF-7).
      assert.deepInclude(errorOf(yield* Effect.exit(provider.refund(refundOf("CLM-01JD0000000000000000000001", "3")))), { reason: "BP-REF-7", retryable: false })
      yield* sim.complete(accepted.providerRef)
      // The engine's refund ids are 30 characters; EBANX takes 20.
      const refundId = "CLM-01JD7Q3K5V8X2M4N6P9R1T3W5Y"
      const code = yield* refundCodeOf(refundId)
      assert.match(code, /^[0-9a-f]{20}$/)
      assert.strictEqual(yield* refundCodeOf(refundId), code, "the same refund id, the same code")
      // The answer is lost (EBANX made the refund, the connector timed out): the retry finds it.
      yield* sim.setMode("slow", "/ws/refund")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.refund(refundOf(refundId, "3.5")))), { reason: "timeout", retryable: true })
      yield* sim.setMode("ok")
      const retried = yield* provider.refund(refundOf(refundId, "3.5"))
      const made = sim.charges.get(accepted.providerRef)!.refunds
      assert.deepStrictEqual(made.map((r) => [r.id, r.merchantRefundCode, r.amountText]), [[retried.providerRef, code, "3.5"]])
      assert.strictEqual(made.length, 1)
      const raw = sim.received.find((r) => r.path === "/ws/refund" && r.body.includes(`"merchant_refund_code":"${code}"`))!.body
      assert.include(raw, `"amount":3.5,`)
      assert.include(raw, refundId, "the description names the engine's refund")
      // Two twins at once (a retry racing the first try): one refund, both answered with it.
      const twins = yield* Effect.all([provider.refund(refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3W60", "1")), provider.refund(refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3W60", "1"))], { concurrency: 2 })
      assert.strictEqual(twins[0].providerRef, twins[1].providerRef)
      const twinCode = yield* refundCodeOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3W60")
      // Both asked at once (EBANX refused the second, which then found the first), or, when the
      // scheduler ran them one after the other, the second found the first by its look-up: one
      // refund either way.
      assert.oneOf(sim.received.filter((r) => r.path === "/ws/refund" && r.body.includes(twinCode)).length, [1, 2])
      assert.strictEqual(made.length, 2)
      // More than what is left is refused, and final.
      const over = errorOf(yield* Effect.exit(provider.refund(refundOf("CLM-01JD7Q3K5V8X2M4N6P9R1T3W5Z", "7"))))
      assert.deepInclude(over, { reason: EbanxSimulator.exceedingRefundCode, retryable: false })
      assert.strictEqual(made.length, 2)
    }).pipe(Effect.provide(Live)))

  it.live("notifications: the form EBANX really sends is confirmed by query, several hashes at once; an unknown hash or a failed query is rejected", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const receiver = yield* callbackReceiver(provider.verifyCallback)
      yield* sim.setCallbackTarget(receiver.url)
      yield* sim.dropCallbacks(false)
      const paid = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-NOTIFY-1"))
      const lost = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-NOTIFY-2"))
      yield* sim.complete(paid.providerRef)
      yield* sim.fail(lost.providerRef, "expired")
      assert.deepStrictEqual(sim.callbacksSent.map((c) => [c.headers["content-type"], c.outcome]), [
        ["application/x-www-form-urlencoded", 204],
        ["application/x-www-form-urlencoded", 204]
      ])
      assert.strictEqual(sim.callbacksSent[0]!.body, `operation=payment_status_change&notification_type=update&hash_codes=${paid.providerRef}`)
      assert.deepStrictEqual(receiver.updates.map((u) => [u.providerRef, u.transactionId, u.status]), [
        [paid.providerRef, "TXN-NOTIFY-1", "completed"],
        [lost.providerRef, "TXN-NOTIFY-2", "failed"]
      ])
      const both = `operation=payment_status_change&notification_type=refund&hash_codes=${paid.providerRef},${lost.providerRef}`
      assert.deepStrictEqual((yield* provider.verifyCallback({}, both)).map((u) => u.status), ["completed", "failed"])
      const forged = `operation=payment_status_change&notification_type=update&hash_codes=${paid.providerRef},${"f".repeat(40)}`
      assert.instanceOf(errorOf(yield* Effect.exit(provider.verifyCallback({}, forged))), CallbackRejected)
      for (const body of ["", "hash_codes=abc", "operation=payment_status_change&hash_codes=", "operation=other&hash_codes=abc", `{"hash_codes":"${paid.providerRef}"}`]) {
        assert.instanceOf(errorOf(yield* Effect.exit(provider.verifyCallback({}, body))), CallbackRejected, body)
      }
      // EBANX is down while we ask: rejected, so EBANX notifies again later.
      yield* sim.setMode("unavailable")
      assert.instanceOf(errorOf(yield* Effect.exit(provider.verifyCallback({}, both))), CallbackRejected)
    }).pipe(Effect.provide(Live)))

  it.live("the integration key never appears in errors, log lines or the provider, even when EBANX echoes it", () =>
    withSecretScrub([integrationKey], (scrub) =>
      Effect.gen(function*() {
        const { provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
        const options = optionsFor(sim.baseUrl)
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
        for (const mode of ["slow", "unavailable", "decline"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(provider.charge(defaultChargeRequest(provider, pix, `TXN-LEAK-${mode}`))))
        }
        yield* sim.setMode("ok")
        yield* scrub.failed(yield* Effect.exit(provider.status("f".repeat(40), "TXN-LEAK")))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({}, `operation=payment_status_change&hash_codes=${integrationKey}`)))
        // EBANX echoes the key it received when it is not the account's: a key one character off.
        const near = yield* make(optionsFor(sim.baseUrl, { integrationKey: Redacted.make(`${integrationKey}x`) }))
        yield* scrub.failed(yield* Effect.exit(near.charge(defaultChargeRequest(near, pix, "TXN-LEAK-ECHO"))))
      })).pipe(Effect.provide(Live)))
})
