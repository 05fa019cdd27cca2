/**
 * Amount decimals as dLocal takes them: the country reference's "`amount` decimals" column
 * (https://docs.dlocal.com/reference/country-reference; https://docs.dlocal.com/docs/colombia: COP 0).
 * ISO 4217 gives COP two decimals and the engine may hold COP cents; dLocal takes none, so a COP
 * amount with cents is refused before any call (retryable: another provider may take it), and a
 * whole COP amount travels as an integer.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { view } from "./Verdict.ts"

const errorOf = (exit: Exit.Exit<unknown, ProviderError>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

describe("dLocal amount decimals", () => {
  it.live("a COP amount with cents is refused before any call; a whole one is sent as an integer", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      yield* sim.dropCallbacks(true)
      const provider = yield* make(optionsFor(sim.baseUrl))
      const pse = findMethod("1047")!
      const base = defaultChargeRequest(provider, pse, "TXN-COP-1")
      const before = sim.requests.length
      assert.deepInclude(errorOf(yield* Effect.exit(provider.charge({ ...base, amount: Money.decimal("15000.50") }))), {
        reason: "amount_precision",
        retryable: true
      })
      assert.strictEqual(sim.requests.length, before, "no call made")

      const whole = yield* provider.charge({ ...base, transactionId: "TXN-COP-2", amount: Money.decimal("15000.00") })
      assert.include(sim.charges.get(whole.providerRef)!.raw, `"amount":15000,"currency":"COP"`)

      // A refund with COP cents cannot be made at dLocal either: refused, nothing sent.
      yield* sim.complete(whole.providerRef)
      const refundBefore = sim.requests.length
      const refund = yield* Effect.exit(provider.refund({
        transactionId: "TXN-COP-2", providerRef: whole.providerRef, refundId: "CLM-COP-1", idempotencyKey: "CLM-COP-1:dlocal",
        amount: Money.decimal("100.25"), currency: "COP"
      }))
      assert.deepInclude(errorOf(refund), { reason: "amount_precision", retryable: false })
      assert.strictEqual(sim.requests.length, refundBefore)
    }).pipe(Effect.provide(Live)))

  it.live("the simulator refuses a COP amount with decimals, as dLocal's 0 decimals say", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      const { authorizationOf } = yield* Effect.promise(() => import("../../providers/dlocal/SimulatorSigning.ts"))
      const body = JSON.stringify({
        amount: 15000.5, currency: "COP", country: "CO", payment_method_id: "PC", payment_method_flow: "REDIRECT",
        payer: { name: "Juan Ruiz", email: "juan@example.com", document: "1234567890" }, order_id: "ORD-COP-RAW"
      })
      const date = new Date().toISOString()
      const status = yield* Effect.promise(() =>
        fetch(`${sim.baseUrl}/payments`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-date": date, "x-login": credentials.login, "x-trans-key": credentials.transKey, authorization: authorizationOf(credentials, date, body) },
          body
        }).then((r) => r.status)
      )
      assert.strictEqual(status, 400)
      assert.strictEqual(sim.charges.size, 0)
    }).pipe(Effect.provide(Live)))
})
