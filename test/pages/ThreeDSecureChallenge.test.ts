/**
 * The sandbox's 3-D Secure challenge page in Chromium, as a buyer meets it: opened from the
 * payment's `nextAction`, at 390 and 1280 px with 0 axe violations, "Complete authentication"
 * goes through the engine's return page (a plain page here: the payment has no returnUrl), and
 * the payment is completed.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

class Vault extends Context.Service<Vault, Effect.Success<ReturnType<typeof fakeVault>>>()("test/ThreeDSecureChallenge/Vault") {}
const vaultLayer = Layer.effect(Vault, fakeVault())
const host = Layer.unwrap(Effect.map(Effect.service(Vault), (vault) =>
  reachableHost(MemoryStore.layer, {
    vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") })
  })))

describe.skipIf(chromiumPath === undefined)("the sandbox 3-D Secure challenge page", () => {
  layer(host.pipe(Layer.provideMerge(vaultLayer)), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("390 and 1280 px, 0 axe violations; Complete authentication returns through /3ds/return and completes the payment", () =>
      Effect.gen(function*() {
        const vault = yield* Vault
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        vault.add(testCard(m.merchant.id, "card_challengebrowseraaaaaaa", { number: "4000000000003220" }))
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          body: { amount: 20, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725", card: { token: "card_challengebrowseraaaaaaa" } }
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const challenge = new URL(created.body.nextAction.url)
        const base = yield* baseUrl
        const chromium = yield* browser
        yield* Effect.promise(async () => {
          for (const width of [1280, 390]) {
            const context = await chromium.newContext({ viewport: { width, height: 844 }, locale: "en-US" })
            const page = await context.newPage()
            const response = await page.goto(base + challenge.pathname + challenge.search)
            assert.strictEqual(response?.status(), 200)
            assert.strictEqual((await page.textContent("h1"))?.trim(), "3-D Secure authentication")
            assert.deepStrictEqual((await page.locator("button").allTextContents()).map((t) => t.trim()), ["Complete authentication", "Fail authentication"])
            assert.deepStrictEqual(await violations(page), [])
            if (width === 390) {
              await Promise.all([page.waitForURL(/\/3ds\/return\//), page.click("button[value=authenticated]")])
              assert.strictEqual((await page.textContent("h1"))?.trim(), "Authentication finished")
              assert.deepStrictEqual(await violations(page), [])
            }
            await context.close()
          }
        })
        const read = yield* call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer: sk })
        assert.strictEqual(read.body.status, "completed")
      }))
  })
})
