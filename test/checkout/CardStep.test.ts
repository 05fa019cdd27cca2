/**
 * The hosted checkout's card step over HTTP, as a browser without script follows it: the form's
 * post for a card rail answers 303 to the real card vault's page with a short session for this
 * merchant returning to `/checkout/{token}/card?state=`; the vault's page tokenizes and answers 303
 * there; the return checks the state, picks the rail of the card's brand and creates the payment
 * with the card; a wrong state or an unknown token creates nothing and says so.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { startForTest } from "../../vault/index.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"
import { cards, testConfig as vaultConfig } from "../vault/VaultFixtures.ts"

const sessionSecret = "session-secret-for-tests-0123456789abcdef"

class VaultUrl extends Context.Service<VaultUrl, string>()("test/CardStep/VaultUrl") {}

const HostWithVault = Layer.unwrap(Effect.gen(function*() {
  const vault = yield* startForTest(vaultConfig({ sessionSecret: Redacted.make(sessionSecret) }))
  return Layer.merge(
    reachableHost(MemoryStore.layer, {
      vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make(sessionSecret) })
    }),
    Layer.succeed(VaultUrl, vault.url)
  )
}))

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const
})

const fetchManual = (url: string, init: RequestInit = {}) => Effect.promise(() => fetch(url, { redirect: "manual", ...init }))

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8"))

const buyer = { fullName: "Ana Souza", email: "ana@example.com", documentId: "52998224725" }

describe("the hosted checkout's card step", () => {
  layer(HostWithVault, { timeout: 60_000, excludeTestServices: true })((it) => {
    const openCheckout = Effect.gen(function*() {
      const { keys, merchant } = yield* createMerchant()
      const sk = keys.sandbox.secretKey
      const created = yield* call("POST", "/api/v1/checkout/sessions", {
        bearer: sk,
        body: { amount: 50, country: "BR", customer: { firstName: "Ana", lastName: "Souza" }, merchantOrderId: "card-step-1" }
      })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const pagePath = new URL(created.body.checkoutUrl).pathname
      return { sk, merchantId: merchant.id as string, pagePath, token: pagePath.split("/").pop()! }
    })

    /** The vault's card page for a card rail picked on the checkout, as the 303 gives it. */
    const toVault = (pagePath: string, paymentMethodId: string) =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const answer = yield* fetchManual(`${base}${pagePath}/pay`, form({ paymentMethodId, ...buyer }))
        assert.strictEqual(answer.status, 303, yield* Effect.promise(() => answer.text()))
        return new URL(answer.headers.get("location")!)
      })

    /** The vault's card page posted as a browser posts it: its 303 back to the engine. */
    const typeCard = (vaultPage: URL, number: string) =>
      Effect.gen(function*() {
        const answer = yield* fetchManual(`${vaultPage.origin}/fields?lang=pt`, form({
          session: vaultPage.searchParams.get("session")!,
          holderName: "Ana Souza",
          number,
          expMonth: "12",
          expYear: "2031",
          securityCode: "123"
        }))
        assert.strictEqual(answer.status, 303, yield* Effect.promise(() => answer.text()))
        return new URL(answer.headers.get("location")!)
      })

    it.effect("a card rail's form post goes to the vault's page with a short session that returns to this checkout", () =>
      Effect.gen(function*() {
        const vaultUrl = yield* VaultUrl
        const base = yield* baseUrl
        const { merchantId, pagePath, token } = yield* openCheckout
        const page = yield* fetchManual(base + pagePath)
        const html = yield* Effect.promise(() => page.text())
        assert.include(html, `action="/checkout/${token}/pay"`)
        assert.match(html, /value="1004"[^>]*data-card="vault"/)
        assert.notMatch(html, /value="1001"[^>]*data-card/)

        const vaultPage = yield* toVault(pagePath, "1004")
        assert.strictEqual(vaultPage.origin + vaultPage.pathname, `${vaultUrl}/fields`)
        assert.strictEqual(vaultPage.searchParams.get("lang"), "pt", "a Brazilian checkout's language")
        const claims = claimsOf(vaultPage.searchParams.get("session")!)
        assert.strictEqual(claims.sub, merchantId)
        assert.strictEqual(claims.scope, "tokenize")
        assert.strictEqual(claims.exp - claims.iat, 600)
        const returnUrl = new URL(claims.returnUrl)
        assert.strictEqual(returnUrl.origin + returnUrl.pathname, `${base}/checkout/${token}/card`)
        assert.isAtLeast(returnUrl.searchParams.get("state")!.length, 30)
        // The page opens with that session.
        const shown = yield* fetchManual(vaultPage.toString())
        assert.strictEqual(shown.status, 200)
      }))

    it.effect("the return picks the rail of the card's brand and creates the payment with the card, once", () =>
      Effect.gen(function*() {
        const { pagePath, sk } = yield* openCheckout
        // The buyer tapped Visa and typed a Mastercard: the Mastercard rail is charged.
        const back = yield* typeCard(yield* toVault(pagePath, "1004"), cards.mastercard)
        assert.match(back.searchParams.get("card_token") ?? "", /^card_/)
        const done = yield* fetchManual(back.toString())
        assert.strictEqual(done.status, 303)
        const onward = new URL(done.headers.get("location")!)
        assert.match(onward.pathname, /^\/c\//)
        const id = onward.pathname.split("/").pop()!
        const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
        assert.strictEqual(read.status, 200)
        assert.strictEqual(read.body.paymentMethodId, "1005")
        assert.deepInclude(read.body.card, { brand: "mastercard", last4: "4444" })
        assert.strictEqual(read.body.status, "pending")
        // The link leads to the provider's form (the sandbox's), as every rail's does.
        const form307 = yield* fetchManual(onward.toString())
        assert.strictEqual(form307.status, 307)
        assert.match(form307.headers.get("location") ?? "", /\/sandbox\/pay\//)
        // The same return again creates nothing more: it goes on to that payment.
        const again = yield* fetchManual(back.toString())
        assert.strictEqual(again.status, 303)
        assert.strictEqual(new URL(again.headers.get("location")!).pathname, onward.pathname)
        const list = yield* call("GET", "/api/v1/payments?merchantOrderId=card-step-1", { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 1)
      }))

    it.effect("a wrong state, a missing one or an unknown card token creates nothing; the right return still works after", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { pagePath, sk, token } = yield* openCheckout
        const back = yield* typeCard(yield* toVault(pagePath, "1004"), cards.visa)
        const cardToken = back.searchParams.get("card_token")!
        const wrongState = yield* fetchManual(`${base}/checkout/${token}/card?state=ccs_forged&card_token=${cardToken}`)
        assert.strictEqual(wrongState.status, 403)
        assert.include(yield* Effect.promise(() => wrongState.text()), "expirou")
        const noState = yield* fetchManual(`${base}/checkout/${token}/card?card_token=${cardToken}`)
        assert.strictEqual(noState.status, 400)
        const unknownToken = new URL(back)
        unknownToken.searchParams.set("card_token", "card_unknown000000000000000000")
        const unknown = yield* fetchManual(unknownToken.toString())
        assert.include([404, 422], unknown.status)
        assert.include(yield* Effect.promise(() => unknown.text()), "não foi encontrado")
        const otherCheckout = yield* fetchManual(`${base}/checkout/cst_unknown/card?state=x&card_token=${cardToken}`)
        assert.strictEqual(otherCheckout.status, 404)
        const none = yield* call("GET", "/api/v1/payments?merchantOrderId=card-step-1", { bearer: sk })
        assert.strictEqual(none.body.pagination.total, 0)

        const done = yield* fetchManual(back.toString())
        assert.strictEqual(done.status, 303)
        const list = yield* call("GET", "/api/v1/payments?merchantOrderId=card-step-1", { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 1)
        assert.strictEqual(list.body.data[0].paymentMethodId, "1004")
      }))

    it.effect("a card no rail of the checkout takes is refused on return; missing buyer data is refused before the vault", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { pagePath, sk } = yield* openCheckout
        const missing = yield* fetchManual(`${base}${pagePath}/pay`, form({ paymentMethodId: "1004", fullName: "Ana Souza" }))
        assert.strictEqual(missing.status, 422)
        assert.isNull(missing.headers.get("location"))
        assert.include(yield* Effect.promise(() => missing.text()), "Verifique seus dados")
        // Carnet is a Mexican brand: no Brazilian rail takes it.
        const back = yield* typeCard(yield* toVault(pagePath, "1004"), cards.carnet)
        const refused = yield* fetchManual(back.toString())
        assert.strictEqual(refused.status, 422)
        assert.include(yield* Effect.promise(() => refused.text()), "bandeira")
        const none = yield* call("GET", "/api/v1/payments?merchantOrderId=card-step-1", { bearer: sk })
        assert.strictEqual(none.body.pagination.total, 0)
      }))

    it.effect("the page offers Brazil's instalment counts for the amount; the count chosen before the vault is on the payment", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { pagePath, sk } = yield* openCheckout
        const html = yield* Effect.promise(() => fetch(base + pagePath).then((r) => r.text()))
        const select = /<select id="installments" name="installments"[^>]*>([\s\S]*?)<\/select>/.exec(html)
        assert.isNotNull(select, "the card rails' instalment select")
        const counts = [...select![1]!.matchAll(/<option value="(\d+)">([^<]*)<\/option>/g)].map((m) => [Number(m[1]), m[2]])
        assert.strictEqual(counts[0]![0], 1)
        assert.match(counts[0]![1] as string, /^À vista, [\d,.]+ BRL$/)
        assert.match(counts[2]![1] as string, /^3x de [\d,.]+ BRL( \(a primeira [\d,.]+ BRL\))? sem juros$/)
        // The quote endpoint gives the same counts for the same amount.
        const quote = yield* call("GET", "/api/v1/installments?paymentMethodId=1004&amount=50", { bearer: sk })
        assert.strictEqual(quote.status, 200, JSON.stringify(quote.body))
        assert.deepStrictEqual(counts.map(([count]) => count), quote.body.options.map((o: { count: number }) => o.count))

        const answer = yield* fetchManual(`${base}${pagePath}/pay`, form({ paymentMethodId: "1004", ...buyer, installments: "3" }))
        assert.strictEqual(answer.status, 303)
        const done = yield* fetchManual((yield* typeCard(new URL(answer.headers.get("location")!), cards.visa)).toString())
        assert.strictEqual(done.status, 303)
        const id = new URL(done.headers.get("location")!).pathname.split("/").pop()!
        const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
        assert.strictEqual(read.body.installments.count, 3, JSON.stringify(read.body.installments))
        assert.strictEqual(read.body.installments.interest, "merchant")
      }))

    it.effect("without script the instalment select counts for a card only: PIX posted with a count is PIX at once", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { pagePath, sk } = yield* openCheckout
        const answer = yield* fetchManual(`${base}${pagePath}/pay`, form({ paymentMethodId: "1001", ...buyer, installments: "3" }))
        assert.strictEqual(answer.status, 303, yield* Effect.promise(() => answer.text()))
        const list = yield* call("GET", "/api/v1/payments?merchantOrderId=card-step-1", { bearer: sk })
        assert.strictEqual(list.body.data[0].paymentMethodId, "1001")
        assert.isUndefined(list.body.data[0].installments)
        const bad = yield* fetchManual(`${base}${(yield* openCheckout).pagePath}/pay`, form({ paymentMethodId: "1004", ...buyer, installments: "many" }))
        assert.strictEqual(bad.status, 400)
      }))

    it.effect("without script a rail that is not a card is selected by the form's post and goes on to its link", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { pagePath, sk } = yield* openCheckout
        const answer = yield* fetchManual(`${base}${pagePath}/pay`, form({ paymentMethodId: "1001", ...buyer }))
        assert.strictEqual(answer.status, 303)
        assert.match(new URL(answer.headers.get("location")!).pathname, /^\/c\//)
        const list = yield* call("GET", "/api/v1/payments?merchantOrderId=card-step-1", { bearer: sk })
        assert.strictEqual(list.body.data[0].paymentMethodId, "1001")
      }))

    it.effect("a card the issuer challenges: the return sends the buyer on to the 3-D Secure challenge, not to the payment's link", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, country: "BR", paymentMethodId: "sbx_card", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com" }, merchantOrderId: "card-3ds" }
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const pagePath = new URL(created.body.checkoutUrl).pathname
        // The sandbox's challenge test card (providers/sandbox/ThreeDSecureCards.ts) on the sandbox's card rail.
        const back = yield* typeCard(yield* toVault(pagePath, "sbx_card"), "4000000000003220")
        const done = yield* fetchManual(back.toString())
        assert.strictEqual(done.status, 303)
        const onward = new URL(done.headers.get("location")!)
        assert.match(onward.pathname, /^\/sandbox\/3ds\/TXN-/)
        const id = onward.pathname.split("/").pop()!
        const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
        assert.strictEqual(read.body.status, "pending")
        assert.strictEqual(read.body.nextAction.url, onward.toString())
      }))
  })
})
