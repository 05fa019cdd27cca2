/**
 * A dLocal card charge through the real card vault (its own server on a loopback port, reached by
 * the engine's `HttpCardVault`): the card tokenized at the vault, the charge forwarded with
 * placeholders and `bodyHmac`, the vault filling the card in and signing the body it sends, and
 * dLocal's simulator checking that signature over the bytes it received. The engine's side never
 * holds the number; the vault's audit names the forward.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import { findMethod } from "../../core/index.ts"
import * as Money from "../../core/Money.ts"
import { CardDescription, CardVault, type ChargeCard } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import * as HttpCardVault from "../../adapters/vault/HttpCardVault.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { startForTest } from "../../vault/index.ts"
import { testConfig } from "../vault/VaultFixtures.ts"

const visa = findMethod("1004")!
const decodeCard = Schema.decodeUnknownSync(CardDescription)

describe("dLocal cards through the real vault", () => {
  it.live("tokenize at the vault, charge: the vault fills the card in and signs the filled body; dLocal's signature check passes", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      yield* sim.dropCallbacks(true)
      const host = new URL(sim.baseUrl).host
      const vault = yield* startForTest(testConfig({ forwardHosts: [host], allowHttpLoopback: true }))
      const tokenized = yield* Effect.promise(async () => {
        const response = await fetch(`${vault.url}/v1/cards`, {
          method: "POST",
          headers: { authorization: `Bearer ${await vault.session({ merchantId: "mer_dl" })}`, "content-type": "application/json" },
          body: JSON.stringify({ number: "4111111111111111", expMonth: 10, expYear: 2040, holderName: "Thiago \"TG\" Gabriel", securityCode: "123" })
        })
        return { status: response.status, body: await response.json() }
      })
      assert.strictEqual(tokenized.status, 201)
      const described = decodeCard(tokenized.body)
      const engineVault = HttpCardVault.make({ url: vault.url, engineKey: Redacted.make(vault.engineKey) })
      const provider = yield* make(optionsFor(sim.baseUrl)).pipe(Effect.provideService(CardVault, engineVault))
      const card: ChargeCard = { ...described, holderName: Redacted.make(described.holderName) }
      const request = { ...defaultChargeRequest(provider, visa, "TXN-DL-VAULT"), amount: Money.decimal("100.00"), card } satisfies ChargeRequest
      const accepted = yield* provider.charge(request)
      assert.strictEqual(accepted.status, "completed")
      const held = sim.charges.get(accepted.providerRef)!
      assert.include(held.raw, `"number":"4111111111111111"`)
      assert.include(held.raw, `"cvv":"123"`)
      assert.include(held.raw, `"holder_name":"Thiago \\"TG\\" Gabriel"`)
      assert.deepInclude(sim.requests.find((r) => r.path === "/secure_payments"), { authorized: true, status: 200 })
      // The security code went with that one forward: a second charge of the token goes without it.
      const again = yield* provider.charge({ ...request, transactionId: "TXN-DL-VAULT-2", idempotencyKey: "TXN-DL-VAULT-2:dlocal", card: { ...card, securityCodeHeld: false } })
      assert.strictEqual(again.status, "completed")
      assert.notInclude(sim.charges.get(again.providerRef)!.raw, "cvv")
      const audit = yield* Effect.promise(async () => {
        const response = await fetch(`${vault.url}/v1/audit?token=${described.token}`, { headers: { authorization: `Bearer ${vault.engineKey}` } })
        return await response.json() as { data: Array<{ action: string; host: string | null }> }
      })
      assert.deepStrictEqual(audit.data.filter((e) => e.action === "forward").map((e) => e.host), [host, host])
    }).pipe(Effect.provide(Live)))
})
