/**
 * Card payments through the API: `card: { token }` on POST /payments, checked with the card vault
 * (a fake one speaking the wire, `test/support/FakeVault.ts`) before anything is written; the
 * payment keeps and shows what the token says of the card, never its number or the token.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"
import { type StoreLayer, storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const d = Money.decimal

class Vault extends Context.Service<Vault, Effect.Success<ReturnType<typeof fakeVault>>>()("test/CardPayments/Vault") {}

const vaultLayer = Layer.effect(Vault, fakeVault())
const hostWithVault = (store: StoreLayer = MemoryStore.layer) => Layer.unwrap(Effect.map(Effect.service(Vault), (vault) =>
  testHost(store, {
    vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") })
  })))

const plainBuyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
// The typed client takes buyer data as Redacted; a raw `call` sends plain JSON.
const buyer = { userName: Redacted.make(plainBuyer.userName), userEmail: Redacted.make(plainBuyer.userEmail), documentId: Redacted.make(plainBuyer.documentId) }

describe("card payments", () => {
  for (const target of storeTargets("card_payments")) {
    layer(hostWithVault(target.layer()).pipe(Layer.provideMerge(vaultLayer)), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect(`${target.name}: a payment's card is stored and read back as the vault described it`, () =>
        Effect.gen(function*() {
          const vault = yield* Vault
          const { keys, merchant } = yield* createMerchant()
          vault.add(testCard(merchant.id, "card_storedaaaaaaaaaaaaaaaaa", { brand: "elo", number: "6362970000457013" }))
          const created = yield* (yield* apiAs(keys.sandbox.secretKey)).payments.create({
            payload: { amount: d("10"), paymentMethodId: "sbx_card", ...buyer, card: { token: "card_storedaaaaaaaaaaaaaaaaa" } },
            headers: {}
          })
          const read = yield* call("GET", `/api/v1/payments/${created.transactionId}`, { bearer: keys.sandbox.secretKey })
          assert.deepStrictEqual(read.body.card, { brand: "elo", bin: "636297", last4: "7013", expMonth: 12, expYear: 2099, fingerprint: `fp_7013_${merchant.id}` })
        }))
    })
  }

  layer(hostWithVault().pipe(Layer.provideMerge(vaultLayer)), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("sandbox sbx_card with a token: the payment keeps the card's description and shows brand, bin, last4, expiry and fingerprint", () =>
      Effect.gen(function*() {
        const vault = yield* Vault
        const { keys, merchant } = yield* createMerchant()
        vault.add(testCard(merchant.id, "card_sandboxaaaaaaaaaaaaaaaaa", { brand: "mastercard", number: "5555555555554444", holderName: "ANA SOUZA" }))
        const api = yield* apiAs(keys.sandbox.secretKey)
        const created = yield* api.payments.create({
          payload: { amount: d("10"), paymentMethodId: "sbx_card", ...buyer, card: { token: "card_sandboxaaaaaaaaaaaaaaaaa" } },
          headers: {}
        })
        const shown = { brand: "mastercard", bin: "555555", last4: "4444", expMonth: 12, expYear: 2099, fingerprint: `fp_4444_${merchant.id}` }
        assert.deepStrictEqual(created.card, shown)
        const read = yield* call("GET", `/api/v1/payments/${created.transactionId}`, { bearer: keys.sandbox.secretKey })
        assert.strictEqual(read.status, 200)
        assert.deepStrictEqual(read.body.card, shown)
        assert.notInclude(JSON.stringify(read.body), "card_sandboxaaaaaaaaaaaaaaaaa")
        assert.notInclude(JSON.stringify(read.body), "ANA SOUZA")
        assert.isTrue(vault.calls.some((c) => c.path === `/v1/cards/card_sandboxaaaaaaaaaaaaaaaaa?merchantId=${merchant.id}`))
      }))

    it.effect("sandbox sbx_card without a card works as before; a card on a rail that is not a card rail is refused 422 card_not_accepted", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const api = yield* apiAs(keys.sandbox.secretKey)
        const plain = yield* api.payments.create({ payload: { amount: d("10"), paymentMethodId: "sbx_card", ...buyer }, headers: {} })
        assert.strictEqual(plain.status, "pending")
        assert.isUndefined(plain.card)
        const pix = yield* refused(api.payments.create({ payload: { amount: d("10"), paymentMethodId: "sbx_pix", ...buyer, card: { token: "card_x" } }, headers: {} }))
        assert.deepStrictEqual([pix.code, httpStatus[pix.code]], ["card_not_accepted", 422])
      }))

    it.effect("production card rail: no card is 422 card_required; unknown, another brand's and an expired token are refused with their codes", () =>
      Effect.gen(function*() {
        const vault = yield* Vault
        const { keys, merchant } = yield* createMerchant()
        const other = yield* createMerchant()
        vault.add(testCard(merchant.id, "card_mastercardaaaaaaaaaaaaa", { brand: "mastercard", number: "5555555555554444" }))
        vault.add(testCard(merchant.id, "card_expiredaaaaaaaaaaaaaaaa", { expMonth: 1, expYear: 2020 }))
        vault.add(testCard(other.merchant.id, "card_othermerchantaaaaaaaaaa"))
        const api = yield* apiAs(keys.production.secretKey)
        const visa = (card?: { token: string }) =>
          refused(api.payments.create({ payload: { amount: d("10"), paymentMethodId: "1004", ...buyer, ...(card === undefined ? {} : { card }) }, headers: {} }))
        const none = yield* visa()
        assert.deepStrictEqual([none.code, httpStatus[none.code]], ["card_required", 422])
        assert.strictEqual((yield* visa({ token: "card_nosuchtokenaaaaaaaaaaaa" })).code, "card_token_not_found")
        assert.strictEqual((yield* visa({ token: "card_othermerchantaaaaaaaaaa" })).code, "card_token_not_found")
        const mismatch = yield* visa({ token: "card_mastercardaaaaaaaaaaaaa" })
        assert.strictEqual(mismatch.code, "card_brand_mismatch")
        assert.deepStrictEqual(mismatch.details, { cardBrand: "mastercard", railBrand: "visa" })
        const expired = yield* visa({ token: "card_expiredaaaaaaaaaaaaaaaa" })
        assert.deepStrictEqual([expired.code, expired.details], ["card_expired", { expMonth: 1, expYear: 2020 }])
      }))

    it.effect("a vault that cannot answer is 503 card_vault_unavailable, and nothing is written", () =>
      Effect.gen(function*() {
        const vault = yield* Vault
        const { keys, merchant } = yield* createMerchant()
        vault.add(testCard(merchant.id, "card_downaaaaaaaaaaaaaaaaaaa"))
        vault.failWith(500)
        const reply = yield* call("POST", "/api/v1/payments", {
          bearer: keys.sandbox.secretKey,
          body: { amount: 10, paymentMethodId: "sbx_card", ...plainBuyer, card: { token: "card_downaaaaaaaaaaaaaaaaaaa" } }
        }).pipe(Effect.ensuring(Effect.sync(() => vault.failWith(undefined))))
        assert.strictEqual(reply.status, 503)
        assert.strictEqual(reply.body.error.code, "card_vault_unavailable")
        const list = yield* call("GET", "/api/v1/payments", { bearer: keys.sandbox.secretKey })
        assert.strictEqual(list.body.data.length, 0)
      }))
  })
})
