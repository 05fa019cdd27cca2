/**
 * The dLocal payout connector against its simulator, beyond the shared payout kit: the wire body
 * as dLocal receives it (exact amount, beneficiary, notification URL), signed requests, the status
 * map, and credentials that never leak.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import { inspect } from "node:util"
import { payoutMethods } from "../../core/payouts/payoutMethods.ts"
import { PayoutProviderUnavailable } from "../../core/ports/PayoutProvider.ts"
import { makePayouts } from "../../providers/dlocal/Payouts.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/PayoutsHarness.ts"
import * as Wire from "../../providers/dlocal/PayoutsWire.ts"
import { PayoutsSimulator } from "../../providers/dlocal/PayoutsSimulator.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"

const pix = payoutMethods.find((m) => m.id === "po_br_pix")!

const pixPayout = (payoutId: string) => ({
  payoutId,
  idempotencyKey: payoutId,
  method: pix,
  amount: "1234.05",
  currency: "BRL",
  recipient: { name: "João da Silva Santos", documentId: "52998224725", accountType: "CPF", account: "52998224725", email: "joao@example.com" },
  callbackUrl: "https://engine.example/api/v1/providers/dlocal/payout-callbacks"
})

describe("dLocal payout connector", () => {
  it.live("sends the exact amount as a JSON number, the beneficiary as dLocal names it, and the engine's callback URL", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const provider = yield* makePayouts(optionsFor(sim.baseUrl, { purpose: "SUPPLIER_PAYMENT" }))
      const sent = yield* provider.send(pixPayout("po-wire-1"))
      const upstream = sim.payouts.get(sent.providerRef)!
      assert.strictEqual(upstream.amountText, "1234.05")
      assert.deepInclude(upstream.body, {
        external_id: "po-wire-1",
        country: "BR",
        payment_method_id: "INSTANT_PAYMENT",
        currency: "BRL",
        purpose: "SUPPLIER_PAYMENT",
        flow_type: "B2C",
        notification_url: "https://engine.example/api/v1/providers/dlocal/payout-callbacks"
      })
      assert.deepStrictEqual(upstream.body.beneficiary, {
        first_name: "João da Silva",
        last_name: "Santos",
        email: "joao@example.com",
        document: { id: "52998224725", type: "CPF" },
        bank_account: { account: "52998224725", type: "CPF" }
      })
    }).pipe(Effect.provide(Live)))

  it("maps dLocal's documented statuses; anything else stays processing", () => {
    assert.deepStrictEqual(
      ["PAID", "REJECTED", "CANCELLED", "PENDING", "DELIVERED", "ON_HOLD", "ON_HOLD_BY_COMPLIANCE", "RETURNED_V9", ""].map(Wire.toPayoutStatus),
      ["completed", "failed", "failed", "processing", "processing", "processing", "processing", "processing", "processing"]
    )
  })

  it.live("a client secret dLocal refuses: unavailable, never a refusal of the payout", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const provider = yield* makePayouts(optionsFor(sim.baseUrl, { clientSecret: Redacted.make("not-the-client-secret") }))
      const exit = yield* Effect.exit(provider.send(pixPayout("po-wire-2")))
      assert.isTrue(Exit.isFailure(exit))
      assert.instanceOf(Exit.isFailure(exit) ? exit.cause.reasons.map((r) => (r as { error?: unknown }).error)[0] : undefined, PayoutProviderUnavailable)
      assert.strictEqual(sim.payouts.size, 0)
    }).pipe(Effect.provide(Live)))

  it.live("credentials never appear in errors, log lines or the provider, even when dLocal echoes them", () =>
    withSecretScrub([credentials.clientSecret, credentials.clientId, credentials.secretKey], (scrub) =>
      Effect.gen(function*() {
        const sim = yield* PayoutsSimulator.start(credentials, { slowMs: 1_000 })
        const options = optionsFor(sim.baseUrl, { timeoutMs: 300 })
        const provider = yield* makePayouts(options)
        // A wrong client secret: dLocal's 401 echoes the secret it received, and a refused token
        // the header it received.
        const echoed = yield* makePayouts({ ...options, clientSecret: Redacted.make(credentials.clientSecret + "-old") })
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
        yield* scrub.failed(yield* Effect.exit(echoed.send(pixPayout("po-leak-echo"))))
        for (const mode of ["slow", "unavailable", "reject"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(provider.send(pixPayout(`po-leak-${mode}`))))
        }
        yield* sim.setMode("ok")
        yield* scrub.failed(yield* Effect.exit(provider.status("PO-missing", "po-leak")))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ authorization: credentials.secretKey, "x-date": new Date().toISOString() }, "{}")))
      })).pipe(Effect.provide(Live)))
})
