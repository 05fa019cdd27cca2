/**
 * A card payment on the merchant's payment page in Chromium: the card as the vault's token
 * described it (brand, BIN and last 4, expiry, fingerprint) and its installments, never a number or the token, and
 * the page passes axe at 1280 and 390 px.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant } from "../support/Console.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

class Vault extends Context.Service<Vault, Effect.Success<ReturnType<typeof fakeVault>>>()("test/console/CardPayment/Vault") {}

const host = Layer.unwrap(Effect.map(Effect.service(Vault), (vault) =>
  reachableHost(MemoryStore.layer, {
    vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") })
  }))).pipe(Layer.provideMerge(Layer.effect(Vault, fakeVault())))

describe.skipIf(chromiumPath === undefined)("a card payment in the console", () => {
  layer(host, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("shows the card's brand, BIN and last 4, expiry and fingerprint, and neither the token nor a number", () =>
      Effect.gen(function*() {
        const vault = yield* Vault
        const { keys, merchant } = yield* createMerchant({ name: "Loja Cartão" })
        const token = "card_consoleaaaaaaaaaaaaaaaa"
        vault.add(testCard(merchant.id, token, { brand: "mastercard", number: "5555555555554444", expMonth: 3, expYear: 2031 }))
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: keys.sandbox.secretKey,
          body: { amount: 25, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725", card: { token }, installments: { count: 3 } }
        })
        assert.strictEqual(created.status, 201)
        const id: string = created.body.transactionId
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, `/console/payments/${id}`)
          const card = await page.textContent("[data-testid=card]") ?? ""
          assert.include(card, "Mastercard")
          assert.include(card, "555555 •••• 4444")
          assert.include(card, "03/2031")
          assert.include(card, `fp_4444_${merchant.id}`)
          // Paid in 3: the count and each instalment, as the API shows them.
          const installments = await page.textContent("[data-testid=installments]") ?? ""
          assert.include(installments, "3 ×")
          assert.include(card, "Installments")
          const html = await page.content()
          assert.notInclude(html, token)
          assert.notInclude(html, "5555555555554444")
          await looked(page, "payment-card")
        }).pipe(Effect.ensuring(Effect.promise(() => context.close())))
      }))
  })
})
