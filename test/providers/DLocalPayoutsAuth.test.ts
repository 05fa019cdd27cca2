/**
 * dLocal Payouts v3 authentication (https://docs.dlocal.com/reference/security-payouts-v3): an
 * OAuth2 client-credentials token from `POST /oauth/token` (`{ grant_type: "client_credentials",
 * client_id, client_secret }` answered `{ access_token, scope, expires_in: 180, token_type:
 * "Bearer" }`), then every payout call with `Authorization: Bearer <token>` and `X-Version: 3.0`.
 * Not the pay-in `V2-HMAC-SHA256` signature: a payout signed that way is refused.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { payoutMethods } from "../../core/payouts/payoutMethods.ts"
import { PayoutProviderUnavailable } from "../../core/ports/PayoutProvider.ts"
import { makePayouts } from "../../providers/dlocal/Payouts.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/PayoutsHarness.ts"
import { PayoutsSimulator } from "../../providers/dlocal/PayoutsSimulator.ts"

const spei = payoutMethods.find((m) => m.id === "po_mx_spei")!

const payout = (payoutId: string) => ({
  payoutId,
  idempotencyKey: payoutId,
  method: spei,
  amount: "250",
  currency: "MXN",
  recipient: { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" },
  callbackUrl: "https://engine.example/api/v1/providers/dlocal/payout-callbacks"
})

const errorOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? exit.cause.reasons.map((r) => (r as { error?: unknown }).error)[0] : undefined)

describe("dLocal payouts v3 authenticate with an OAuth2 bearer token", () => {
  it.live("a payout first gets a token with the client credentials, then is sent with Authorization: Bearer and X-Version 3.0", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const provider = yield* makePayouts(optionsFor(sim.baseUrl))
      const sent = yield* provider.send(payout("po-auth-1"))
      assert.strictEqual(sim.payouts.get(sent.providerRef)?.external_id, "po-auth-1")
      assert.deepStrictEqual(sim.tokenRequests.map((r) => JSON.parse(r)), [
        { grant_type: "client_credentials", client_id: credentials.clientId, client_secret: credentials.clientSecret }
      ])
      const call = sim.payoutCalls.at(-1)!
      assert.deepInclude(call, { method: "POST", path: "/payouts/v3", authorization: `Bearer ${sim.issuedTokens[0]}`, version: "3.0" })
      assert.isTrue(call.accepted)
    }).pipe(Effect.provide(Live)))

  it.effect("the token is reused while it lives and fetched again shortly before it expires (180 s)", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const provider = yield* makePayouts(optionsFor(sim.baseUrl))
      yield* provider.send(payout("po-auth-2"))
      yield* provider.send(payout("po-auth-3"))
      assert.strictEqual(sim.issuedTokens.length, 1, "one token for two payouts")
      yield* TestClock.adjust("100 seconds")
      yield* provider.status(sim.payoutIdOf("po-auth-2"), "po-auth-2")
      assert.strictEqual(sim.issuedTokens.length, 1, "still alive at 100 s")
      yield* TestClock.adjust("70 seconds")
      yield* provider.status(sim.payoutIdOf("po-auth-2"), "po-auth-2")
      assert.strictEqual(sim.issuedTokens.length, 2, "renewed before the 180 s are up")
    }).pipe(Effect.provide(Live)))

  it.live("a token dLocal refuses (401) is replaced once and the call goes through; refused again, the payout waits (unavailable)", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const provider = yield* makePayouts(optionsFor(sim.baseUrl))
      yield* provider.send(payout("po-auth-4"))
      yield* sim.expireTokens
      const again = yield* provider.send(payout("po-auth-5"))
      assert.strictEqual(sim.payouts.get(again.providerRef)?.external_id, "po-auth-5")
      assert.strictEqual(sim.issuedTokens.length, 2)

      yield* sim.refuseBearer(true)
      const refused = yield* Effect.exit(provider.send(payout("po-auth-6")))
      assert.instanceOf(errorOf(refused), PayoutProviderUnavailable)
      assert.strictEqual(sim.issuedTokens.length, 3, "one new token for the refused call, not a loop")
      assert.isFalse([...sim.payouts.values()].some((p) => p.external_id === "po-auth-6"))
    }).pipe(Effect.provide(Live)))

  it.live("wrong client credentials: no token, no payout, the payout waits (unavailable)", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const provider = yield* makePayouts(optionsFor(sim.baseUrl, { clientSecret: Redacted.make("not-the-client-secret") }))
      const exit = yield* Effect.exit(provider.send(payout("po-auth-7")))
      assert.instanceOf(errorOf(exit), PayoutProviderUnavailable)
      assert.strictEqual(sim.payouts.size, 0)
      assert.strictEqual(sim.issuedTokens.length, 0)
    }).pipe(Effect.provide(Live)))

  it.live("the simulator refuses a payout without a valid bearer token, as dLocal does", () =>
    Effect.gen(function*() {
      const sim = yield* PayoutsSimulator.start(credentials)
      const body = JSON.stringify({ external_id: "po-raw", country: "MX", payment_method_id: "BANK_TRANSFER", amount: 10 })
      const post = (headers: Record<string, string>) =>
        Effect.promise(() => fetch(`${sim.baseUrl}/payouts/v3`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body }).then((r) => r.status))
      assert.strictEqual(yield* post({ "x-version": "3.0" }), 401)
      assert.strictEqual(yield* post({ "x-version": "3.0", authorization: "Bearer made-up" }), 401)
      assert.strictEqual(sim.payouts.size, 0)
    }).pipe(Effect.provide(Live)))
})
