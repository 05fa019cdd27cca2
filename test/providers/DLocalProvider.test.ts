/**
 * The dLocal pay-in connector against its simulator, beyond the shared kit: the wire body as
 * dLocal receives it, a retry after a lost answer, dLocal's documented error codes, the status
 * map, a notification the simulator really sends, and credentials that never leak.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Exit, Option, Redacted } from "effect"
import { inspect } from "node:util"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { callbackReceiver } from "../../providers/kit/CallbackReceiver.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { credentials, Live, optionsFor, pix } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import * as Wire from "../../providers/dlocal/Wire.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"

const errorOf = (exit: Exit.Exit<unknown, ProviderError>) => Option.getOrUndefined(Exit.findErrorOption(exit))

const setup = (overrides: Parameters<typeof optionsFor>[1] = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* DLocalSimulator.start(credentials, { slowMs })
    yield* sim.dropCallbacks(true)
    const provider = yield* make(optionsFor(sim.baseUrl, overrides))
    return { sim, provider }
  })

describe("dLocal pay-in connector", () => {
  it.live("sends the exact amount as a JSON number, the rail's dLocal code, the order id and the notification URL", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const oxxo = findMethod("1033")!
      const request = { ...defaultChargeRequest(provider, oxxo, "TXN-WIRE-1"), amount: Money.decimal("1234.50"), currency: "MXN" }
      const accepted = yield* provider.charge(request)
      const upstream = sim.charges.get(accepted.providerRef)!
      assert.strictEqual(upstream.amountText, "1234.5")
      assert.deepInclude(upstream.body, {
        currency: "MXN",
        country: "MX",
        payment_method_id: "OX",
        payment_method_flow: "REDIRECT",
        order_id: "TXN-WIRE-1",
        notification_url: request.callbackUrl
      })
      assert.deepInclude(upstream.body.payer, { name: "Ana Souza", document: "52998224725", email: "ana@example.com" })
      assert.strictEqual(accepted.paymentFormUrl, `${sim.baseUrl}/collect/pay/${accepted.providerRef}`)
      assert.deepInclude(accepted.paymentData, { method: "OX" })
    }).pipe(Effect.provide(Live)))

  it.live("a lost answer: the retry is refused 5009 by dLocal and answered with the payment it holds, one upstream payment", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, 800)
      const request = defaultChargeRequest(provider, pix, "TXN-LOST-1")
      yield* sim.setMode("slow")
      const lost = errorOf(yield* Effect.exit(provider.charge(request)))
      assert.deepInclude(lost, { reason: "timeout", retryable: true })
      yield* sim.setMode("ok")
      const retried = yield* provider.charge(request)
      const held = [...sim.charges.values()].filter((c) => c.orderId === "TXN-LOST-1")
      assert.strictEqual(held.length, 1)
      assert.strictEqual(retried.providerRef, held[0]!.id)
    }).pipe(Effect.provide(Live)))

  it.live("dLocal's documented errors: a refused buyer is final, a method this account lacks and refused credentials let the cascade go on", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const base = defaultChargeRequest(provider, pix, "TXN-ERR-1")
      const refused = errorOf(yield* Effect.exit(provider.charge({ ...base, customer: { ...base.customer, documentId: DLocalSimulator.invalidDocument } })))
      assert.deepInclude(refused, { reason: "5005", retryable: false })
      const other = yield* make(optionsFor(sim.baseUrl, { transKey: Redacted.make("wrong") }))
      assert.deepInclude(errorOf(yield* Effect.exit(other.charge({ ...base, transactionId: "TXN-ERR-2" }))), { reason: "invalid_credentials", retryable: true })
      yield* sim.setMode("decline")
      const declined = errorOf(yield* Effect.exit(provider.charge({ ...base, transactionId: "TXN-ERR-3" })))
      assert.strictEqual(declined?.retryable, false)
      yield* sim.setMode("ok")
      const missing = errorOf(yield* Effect.exit(provider.status("D-4-missing", "TXN-ERR-4")))
      assert.deepInclude(missing, { reason: "4000", retryable: false })
      assert.isFalse(provider.supports(findMethod("1076")!), "Khipu is not served by dLocal")
    }).pipe(Effect.provide(Live)))

  it("maps dLocal's statuses; anything else is pending", () => {
    assert.deepStrictEqual(
      ["PAID", "REJECTED", "CANCELLED", "EXPIRED", "REFUNDED", "CHARGEBACK", "PENDING", "AUTHORIZED", "VERIFIED", "NEW_ONE", ""].map(Wire.toUpdateStatus),
      ["completed", "failed", "failed", "expired", "refunded", "chargeback", "pending", "pending", "pending", "pending", "pending"]
    )
  })

  it.live("a notification the simulator really sends (node:crypto) is verified by the connector; refunds beyond the payment are refused", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const receiver = yield* callbackReceiver(provider.verifyCallback)
      yield* sim.setCallbackTarget(receiver.url)
      yield* sim.dropCallbacks(false)
      const request = defaultChargeRequest(provider, pix, "TXN-NOTIFY-1")
      const accepted = yield* provider.charge(request)
      yield* sim.complete(accepted.providerRef)
      assert.strictEqual(sim.callbacksSent.at(-1)?.outcome, 204)
      assert.deepStrictEqual(receiver.updates.map((u) => [u.providerRef, u.transactionId, u.status]), [[accepted.providerRef, "TXN-NOTIFY-1", "completed"]])
      const tooMuch = errorOf(yield* Effect.exit(provider.refund({
        transactionId: request.transactionId,
        providerRef: accepted.providerRef,
        refundId: "R-1",
        idempotencyKey: "R-1:dlocal",
        amount: BigDecimal.sum(request.amount, Money.decimal("1")),
        currency: request.currency
      })))
      assert.deepInclude(tooMuch, { reason: "5007", retryable: false })
    }).pipe(Effect.provide(Live)))

  it.live("credentials never appear in errors, log lines or the provider, even when dLocal echoes them", () =>
    withSecretScrub([credentials.transKey, credentials.secretKey], (scrub) =>
      Effect.gen(function*() {
        const { provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
        const options = optionsFor(sim.baseUrl)
        // The right key with a wrong signature: dLocal's 403 echoes the key it received.
        const echoed = yield* make({ ...options, secretKey: Redacted.make("not-the-secret") })
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
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
