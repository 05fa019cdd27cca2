/**
 * 3-D Secure through the API, with the sandbox's 3-D Secure test cards (`providers/sandbox/
 * ThreeDSecureCards.ts`) behind a card vault speaking the wire (`test/support/FakeVault.ts`):
 * frictionless completes at once; a challenge leaves the payment pending with `nextAction`, the
 * sandbox challenge page completes or fails it and the engine's return page sends the buyer to
 * the shop; a refused authentication fails the payment; an abandoned challenge expires on the
 * sandbox clock; `authentication_required` is retried once on the same provider with 3-D Secure.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { baseUrl, call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const d = Money.decimal

class Vault extends Context.Service<Vault, Effect.Success<ReturnType<typeof fakeVault>>>()("test/ThreeDSecure/Vault") {}

const vaultLayer = Layer.effect(Vault, fakeVault())
const hostWithVault = Layer.unwrap(Effect.map(Effect.service(Vault), (vault) =>
  testHost(MemoryStore.layer, {
    vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") })
  })))

const buyer = { userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com"), documentId: Redacted.make("52998224725") }

const cards = {
  frictionless: "4000000000003055",
  challenge: "4000000000003220",
  failed: "4000008400001629",
  required: "4000002760003184"
} as const

/** A path and query of an absolute URL the host wrote (its public URL is not the test server's). */
const pathOf = (url: string) => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

/** A request to the host that does not follow redirects. */
const fetchManual = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      // The sandbox's card rail is Brazil's: the pages speak Portuguese unless the browser asks for English.
      const response = await fetch(base + path, { ...init, headers: { "accept-language": "en", ...init.headers as Record<string, string> }, redirect: "manual" })
      return { status: response.status, location: response.headers.get("location"), csp: response.headers.get("content-security-policy"), text: await response.text() }
    }))

const post = (path: string, form: Record<string, string>) =>
  fetchManual(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() })

/** A sandbox merchant with one test card tokenized at the vault; answers its key and the token. */
const merchantWithCard = (number: string) =>
  Effect.gen(function*() {
    const vault = yield* Vault
    const m = yield* createMerchant()
    const token = `card_${number}aaaaaaaaaa`
    vault.add(testCard(m.merchant.id, token, { number }))
    return { sk: m.keys.sandbox.secretKey, shopId: m.shops[0]!.id, token }
  })

const pay = (sk: string, token: string, returnUrl?: string) =>
  Effect.flatMap(apiAs(sk), (api) =>
    api.payments.create({
      payload: { amount: d("10"), paymentMethodId: "sbx_card", ...buyer, card: { token }, ...(returnUrl === undefined ? {} : { returnUrl }) },
      headers: {}
    }))

const read = (sk: string, id: string) => Effect.map(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body)

describe("3-D Secure", () => {
  layer(hostWithVault.pipe(Layer.provideMerge(vaultLayer)), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("frictionless: the payment completes at once, with no nextAction", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard(cards.frictionless)
        const created = yield* pay(sk, token)
        assert.isUndefined(created.nextAction)
        const done = yield* eventually(read(sk, created.transactionId), (p) => p.status === "completed")
        assert.strictEqual(done.status, "completed")
        assert.isUndefined(done.nextAction)
      }))

    it.effect("challenge: pending with nextAction; the sandbox challenge page completes it and the return page sends the buyer to the shop", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard(cards.challenge)
        const created = yield* pay(sk, token, "https://shop.example/back?order=42")
        assert.strictEqual(created.status, "pending")
        assert.strictEqual(created.nextAction?.type, "redirect_to_url")
        const challengePath = pathOf(created.nextAction!.url)
        assert.match(challengePath, new RegExp(`^/sandbox/3ds/${created.transactionId}\\?secret=[0-9a-f]{48}$`))
        const pending = yield* read(sk, created.transactionId)
        assert.deepStrictEqual(pending.nextAction, created.nextAction)
        // The challenge window bounds the payment's expiry: 15 minutes.
        const expiresInMs = Date.parse(pending.timestamps.expires) - Date.parse(pending.timestamps.created)
        assert.isTrue(expiresInMs <= 15 * 60_000 + 1000, `expires ${expiresInMs} ms after creation`)

        const shown = yield* fetchManual(challengePath)
        assert.strictEqual(shown.status, 200)
        assert.include(shown.text, "Complete authentication")
        assert.include(shown.text, "visa •••• 3220")
        assert.isNotNull(shown.csp)
        // Without the secret the page and its buttons are those of an unknown payment.
        assert.strictEqual((yield* fetchManual(`/sandbox/3ds/${created.transactionId}`)).status, 404)
        assert.strictEqual((yield* post(`/sandbox/3ds/${created.transactionId}`, { secret: "0".repeat(48), action: "authenticated" })).status, 404)
        assert.strictEqual((yield* read(sk, created.transactionId)).status, "pending")

        const secret = new URL(created.nextAction!.url).searchParams.get("secret")!
        const chosen = yield* post(`/sandbox/3ds/${created.transactionId}`, { secret, action: "authenticated" })
        assert.strictEqual(chosen.status, 303)
        assert.strictEqual(chosen.location, `/3ds/return/${created.transactionId}`)
        const back = yield* fetchManual(chosen.location!)
        assert.strictEqual(back.status, 303)
        assert.strictEqual(back.location, `https://shop.example/back?order=42&transactionId=${created.transactionId}`)
        const done = yield* read(sk, created.transactionId)
        assert.strictEqual(done.status, "completed")
        assert.isUndefined(done.nextAction)
        // The page is spent: the challenge of a payment no longer pending answers as unknown.
        assert.strictEqual((yield* fetchManual(challengePath)).status, 404)
      }))

    it.effect("challenge failed on the page: the payment fails with the reason; the return page without a returnUrl is a plain page that tells nothing", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard(cards.challenge)
        const created = yield* pay(sk, token)
        const secret = new URL(created.nextAction!.url).searchParams.get("secret")!
        const chosen = yield* post(`/sandbox/3ds/${created.transactionId}`, { secret, action: "failed" })
        assert.strictEqual(chosen.status, 303)
        const back = yield* fetchManual(chosen.location!)
        assert.strictEqual(back.status, 200)
        assert.include(back.text, "Authentication finished")
        assert.notInclude(back.text, "failed")
        const done = yield* read(sk, created.transactionId)
        assert.strictEqual(done.status, "failed")
        assert.strictEqual(done.failureReason, "sandbox: 3-D Secure authentication failed")
        assert.isUndefined(done.nextAction)
        // An unknown id, and a payment that is not a card payment, answer 404.
        assert.strictEqual((yield* fetchManual("/3ds/return/TXN-NOPE")).status, 404)
      }))

    it.effect("failed: a card whose authentication the issuer refuses fails the payment at once with authentication_failed", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard(cards.failed)
        const error = yield* refused(pay(sk, token))
        assert.strictEqual(error.code, "cascade_exhausted")
        assert.strictEqual(httpStatus[error.code], httpStatus.cascade_exhausted)
        const details = error.details as { reason: string; providerReason: string; transactionId: string }
        assert.deepStrictEqual([details.reason, details.providerReason], ["provider_declined", "authentication_failed"])
        const p = yield* read(sk, details.transactionId)
        assert.strictEqual(p.status, "failed")
        assert.include(p.failureReason, "authentication_failed")
      }))

    it.effect("authentication_required: one more attempt on the same provider with 3-D Secure, which goes to the challenge", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard(cards.required)
        const created = yield* pay(sk, token)
        assert.strictEqual(created.status, "pending")
        assert.isDefined(created.nextAction)
        const detail = yield* read(sk, created.transactionId)
        const attempts = detail.routing.attempts.map((a: { provider: string; outcome: string; reason: string | null; threeDSecure?: string }) => [a.provider, a.outcome, a.reason, a.threeDSecure])
        assert.deepStrictEqual(attempts, [
          ["sandbox", "failed", "authentication_required", undefined],
          ["sandbox", "accepted", null, "required"]
        ])
      }))

    it.effect("abandoned: a challenge not finished in 15 minutes expires the payment on the sandbox clock", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard(cards.challenge)
        const created = yield* pay(sk, token)
        const api = yield* apiAs(sk)
        yield* api.sandbox.advance({ payload: { seconds: 14 * 60 }, headers: {} })
        assert.strictEqual((yield* eventually(read(sk, created.transactionId), () => true)).status, "pending")
        yield* api.sandbox.advance({ payload: { seconds: 2 * 60 }, headers: {} })
        const expired = yield* eventually(read(sk, created.transactionId), (p) => p.status !== "pending")
        assert.strictEqual(expired.status, "expired")
        assert.strictEqual(expired.failureReason, "expired: 3-D Secure challenge abandoned")
        assert.isUndefined(expired.nextAction)
      }))

    it.effect("a card without a 3-D Secure flow, and a pix payment, have no nextAction", () =>
      Effect.gen(function*() {
        const { sk, token } = yield* merchantWithCard("4111111111111111")
        const created = yield* pay(sk, token)
        assert.strictEqual(created.status, "pending")
        assert.isUndefined(created.nextAction)
        const pix = yield* (yield* apiAs(sk)).payments.create({ payload: { amount: d("10"), paymentMethodId: "sbx_pix" }, headers: {} })
        assert.isUndefined(pix.nextAction)
      }))
  })
})
