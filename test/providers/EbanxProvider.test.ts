/**
 * The EBANX connector against its simulator, beyond the shared kit: the wire body as EBANX
 * receives it, a retry after a lost answer, EBANX's HTTP-200 errors, a retried refund, a
 * notification the simulator really sends, and a key that never leaks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { inspect } from "node:util"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver } from "../../providers/kit/CallbackReceiver.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { integrationKey, Live, optionsFor, pix } from "../../providers/ebanx/ConformanceHarness.ts"
import { make } from "../../providers/ebanx/EbanxProvider.ts"
import { EbanxSimulator } from "../../providers/ebanx/EbanxSimulator.ts"
import * as Wire from "../../providers/ebanx/Wire.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"

const errorOf = (exit: Exit.Exit<unknown, ProviderError>) => Option.getOrUndefined(Exit.findErrorOption(exit))

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
      const request = { ...defaultChargeRequest(provider, boleto, "TXN-WIRE-1"), amount: Money.decimal("250.05") }
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
      const pixCharge = yield* provider.charge(defaultChargeRequest(provider, pix, "TXN-WIRE-2"))
      assert.match(String(pixCharge.paymentData["pixQrCode"]), /^00020126/)
    }).pipe(Effect.provide(Live)))

  it.live("a lost answer: the retry is refused BP-DR-0 and answered with the payment EBANX holds, one upstream payment", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, 800)
      const request = defaultChargeRequest(provider, pix, "TXN-LOST-1")
      yield* sim.setMode("slow")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge(request))), { reason: "timeout", retryable: true })
      yield* sim.setMode("ok")
      const retried = yield* provider.charge(request)
      const held = [...sim.charges.values()].filter((c) => c.merchantPaymentCode === "TXN-LOST-1")
      assert.strictEqual(held.length, 1)
      assert.strictEqual(retried.providerRef, held[0]!.hash)
    }).pipe(Effect.provide(Live)))

  it.live("EBANX's HTTP-200 errors: invalid buyer data is final; a wrong key and a rail not activated let the cascade go on", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, pix, "TXN-ERR-1")
      const invalid = errorOf(yield* Effect.exit(provider.charge({ ...base, customer: { ...base.customer, documentId: EbanxSimulator.invalidDocument } })))
      assert.deepInclude(invalid, { reason: "BP-DR-22", retryable: false })
      const wrongKey = yield* make(optionsFor(sim.baseUrl, { integrationKey: Redacted.make("nope") }))
      assert.deepInclude(errorOf(yield* Effect.exit(wrongKey.charge({ ...base, transactionId: "TXN-ERR-2" }))), { reason: "BP-SA-2", retryable: true })
      yield* sim.setMode("unavailable")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge({ ...base, transactionId: "TXN-ERR-3" }))), { reason: "upstream_unavailable", retryable: true })
      yield* sim.setMode("ok")
      assert.deepInclude(errorOf(yield* Effect.exit(provider.status("f".repeat(40), "TXN-ERR-4"))), { reason: "BP-QU-1", retryable: false })
      assert.isFalse(provider.supports(findMethod("1089")!), "Rapipago is not served by EBANX")
    }).pipe(Effect.provide(Live)))

  it("maps EBANX's statuses; anything else is pending", () => {
    assert.deepStrictEqual(["CO", "CA", "PE", "OP", "XN", ""].map(Wire.toUpdateStatus), ["completed", "failed", "pending", "pending", "pending", "pending"])
  })

  it.live("a retried refund is the refund EBANX already made (merchant_refund_code); a notification it really sends is confirmed by query", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const receiver = yield* callbackReceiver(provider.verifyCallback)
      yield* sim.setCallbackTarget(receiver.url)
      yield* sim.dropCallbacks(false)
      const request = defaultChargeRequest(provider, pix, "TXN-REFUND-1")
      const accepted = yield* provider.charge(request)
      yield* sim.complete(accepted.providerRef)
      assert.strictEqual(sim.callbacksSent.at(-1)?.outcome, 204)
      assert.deepStrictEqual(receiver.updates.map((u) => [u.providerRef, u.transactionId, u.status]), [[accepted.providerRef, "TXN-REFUND-1", "completed"]])
      const refund = {
        transactionId: request.transactionId,
        providerRef: accepted.providerRef,
        refundId: "R-1",
        idempotencyKey: "R-1:ebanx",
        amount: Money.decimal("3"),
        currency: request.currency
      }
      const first = yield* provider.refund(refund)
      const again = yield* provider.refund(refund)
      assert.strictEqual(again.providerRef, first.providerRef)
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.refunds.length, 1)
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
