/**
 * The vault's cards: validation with precise codes, brands from BINs, tokens, fingerprints per
 * merchant, security codes held in memory on the clock, and a store that holds no card number.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { brandOf } from "../../vault/cards/Brands.ts"
import type { CardInput } from "../../vault/cards/CardInput.ts"
import { Cards } from "../../vault/cards/Cards.ts"
import { servicesLayer } from "../../vault/VaultServices.ts"
import { cards, luhnNumber, testConfig, today } from "./VaultFixtures.ts"

const input = (overrides: Partial<CardInput> = {}): CardInput => ({
  merchantId: "mer_1",
  number: cards.visa,
  expMonth: 12,
  expYear: 2030,
  holderName: "Ana Souza",
  ...overrides
})

const rejection = (overrides: Partial<CardInput>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(today)
    const cardsService = yield* Cards
    const exit = yield* Effect.exit(cardsService.tokenize(input(overrides), "merchant:mer_1"))
    if (Exit.isSuccess(exit)) return "accepted"
    const error = exit.cause.reasons[0]
    return error !== undefined && "error" in error ? (error.error as { code?: string }).code ?? "?" : "?"
  })

describe("brands from BINs", () => {
  it("names each brand, the most specific range winning", () => {
    assert.strictEqual(brandOf(cards.visa), "visa")
    assert.strictEqual(brandOf(cards.mastercard), "mastercard")
    assert.strictEqual(brandOf(cards.mastercard2), "mastercard")
    assert.strictEqual(brandOf(cards.amex), "amex")
    assert.strictEqual(brandOf(cards.diners), "diners")
    assert.strictEqual(brandOf(cards.discover), "discover")
    assert.strictEqual(brandOf(cards.elo), "elo")
    assert.strictEqual(brandOf(cards.eloInDiscoverRange), "elo")
    assert.strictEqual(brandOf(cards.eloInVisaRange), "elo")
    assert.strictEqual(brandOf(cards.hipercard), "hipercard")
    assert.strictEqual(brandOf(cards.carnet), "carnet")
    assert.strictEqual(brandOf(luhnNumber("9", 16)), undefined)
    assert.strictEqual(brandOf(luhnNumber("2721", 16)), undefined)
  })
})

layer(servicesLayer(testConfig()))("cards", (it) => {
  it.effect("refuses bad input with a precise code", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* rejection({ number: "4111111111111112" }), "card_number_invalid")
      assert.strictEqual(yield* rejection({ number: "4111 1111 1111 111a" }), "card_number_invalid")
      assert.strictEqual(yield* rejection({ number: luhnNumber("9", 16) }), "brand_not_supported")
      assert.strictEqual(yield* rejection({ number: luhnNumber("37", 16) }), "card_number_invalid")
      assert.strictEqual(yield* rejection({ number: luhnNumber("51", 19) }), "card_number_invalid")
      assert.strictEqual(yield* rejection({ expMonth: 11, expYear: 2026 }), "card_expired")
      assert.strictEqual(yield* rejection({ expMonth: 13 }), "expiry_invalid")
      assert.strictEqual(yield* rejection({ number: cards.amex, securityCode: "123" }), "security_code_invalid")
      assert.strictEqual(yield* rejection({ securityCode: "1234" }), "security_code_invalid")
      assert.strictEqual(yield* rejection({ holderName: " " }), "holder_name_invalid")
      // The card's expiry month itself is still good, and an Amex takes four digits.
      assert.strictEqual(yield* rejection({ expMonth: 12, expYear: 2026 }), "accepted")
      assert.strictEqual(yield* rejection({ number: cards.amex, securityCode: "1234" }), "accepted")
      assert.strictEqual(yield* rejection({ number: "4111 1111-1111 1111" }), "accepted")
    }))

  it.effect("describes a card by its token only to its merchant, without its number", () =>
    Effect.gen(function*() {
      const service = yield* Cards
      const card = yield* service.tokenize(input({ number: cards.mastercard, securityCode: "123" }), "merchant:mer_1")
      assert.match(card.token, /^card_[0-9A-Za-z]{24}$/)
      assert.deepStrictEqual(
        { brand: card.brand, bin: card.bin, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, holderName: card.holderName },
        { brand: "mastercard", bin: "55555555", last4: "4444", expMonth: 12, expYear: 2030, holderName: "Ana Souza" }
      )
      assert.deepStrictEqual(yield* service.describe("mer_1", card.token), card)
      const other = yield* Effect.flip(service.describe("mer_2", card.token))
      assert.strictEqual(other._tag, "CardNotFound")
      assert.notInclude(JSON.stringify(card), cards.mastercard)
      assert.strictEqual((yield* service.tokenize(input({ number: cards.amex }), "m")).bin, "378282")
    }))

  it.effect("gives the same card a new token and the same fingerprint within a merchant, another across", () =>
    Effect.gen(function*() {
      const service = yield* Cards
      const first = yield* service.tokenize(input(), "merchant:mer_1")
      const again = yield* service.tokenize(input({ holderName: "A Souza" }), "merchant:mer_1")
      const elsewhere = yield* service.tokenize(input({ merchantId: "mer_2" }), "merchant:mer_2")
      const otherCard = yield* service.tokenize(input({ number: cards.discover }), "merchant:mer_1")
      assert.notStrictEqual(first.token, again.token)
      assert.strictEqual(first.fingerprint, again.fingerprint)
      assert.notStrictEqual(first.fingerprint, elsewhere.fingerprint)
      assert.notStrictEqual(first.fingerprint, otherCard.fingerprint)
    }))

  it.effect("holds the security code in memory for ten minutes of the vault's clock", () =>
    Effect.gen(function*() {
      const service = yield* Cards
      const card = yield* service.tokenize(input({ securityCode: "321" }), "merchant:mer_1")
      assert.isTrue(card.securityCodeHeld)
      yield* TestClock.adjust("9 minutes")
      assert.isTrue((yield* service.describe("mer_1", card.token)).securityCodeHeld)
      yield* TestClock.adjust("61 seconds")
      assert.isFalse((yield* service.describe("mer_1", card.token)).securityCodeHeld)
      const without = yield* service.tokenize(input(), "merchant:mer_1")
      assert.isFalse(without.securityCodeHeld)
    }))

  it.effect("stores no card number or security code in any form", () =>
    Effect.gen(function*() {
      const service = yield* Cards
      const number = luhnNumber("4000", 16)
      const card = yield* service.tokenize(input({ number, securityCode: "987", holderName: "Zelia Quintana" }), "merchant:mer_1")
      const sql = yield* SqlClient.SqlClient
      const tables = yield* sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'vault_%'`
      assert.includeMembers(tables.map((t) => t.table_name), ["vault_cards", "vault_audit"])
      let dump = ""
      for (const { table_name } of tables) dump += JSON.stringify(yield* sql.unsafe(`SELECT * FROM "${table_name}"`), (_, v) => (typeof v === "bigint" ? String(v) : v)) + "\n"
      assert.include(dump, card.token)
      const forms = [number, number.slice(6, 12), Buffer.from(number).toString("base64"), Buffer.from(number).toString("base64url"), Buffer.from(number).toString("hex"), "Zelia Quintana"]
      for (const form of forms) assert.notInclude(dump, form)
      // The middle digits appear nowhere; the security code is never written.
      assert.notInclude(dump, "\"987\"")
    }))
})
