import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Option, Schema } from "effect"
import * as Money from "../../core/Money.ts"

const d = Money.decimal

describe("Money", () => {
  it("rounds to the ISO 4217 exponent, half to even", () => {
    assert.strictEqual(Money.toText(Money.round(d("10.005"), "USD")), "10")
    assert.strictEqual(Money.toText(Money.round(d("10.015"), "USD")), "10.02")
    assert.strictEqual(Money.toText(Money.round(d("10.0151"), "USD")), "10.02")
    assert.strictEqual(Money.toText(Money.round(d("1234.5"), "CLP")), "1234")
    assert.strictEqual(Money.toText(Money.round(d("1235.5"), "CLP")), "1236")
    assert.strictEqual(Money.toText(Money.round(d("1.23456"), "BHD")), "1.235")
    assert.strictEqual(Money.toText(Money.round(d("-2.675"), "USD")), "-2.68")
  })

  it("rounds a conversion or a share in the platform's favour: what the merchant receives down, what it pays up", () => {
    assert.strictEqual(Money.toText(Money.roundFor(d("0.0199"), "USD", "receives")), "0.01")
    assert.strictEqual(Money.toText(Money.roundFor(d("0.0011"), "USD", "pays")), "0.01")
    assert.strictEqual(Money.toText(Money.roundFor(d("0.0054"), "USD", "receives")), "0")
    assert.strictEqual(Money.toText(Money.roundFor(d("1234.01"), "CLP", "pays")), "1235")
    assert.strictEqual(Money.toText(Money.roundFor(d("1234.99"), "CLP", "receives")), "1234")
    assert.strictEqual(Money.toText(Money.roundFor(d("12.5"), "USD", "pays")), "12.5")
  })

  it("has no float error: 0.1 + 0.2 is 0.3 and 1.005 stays 1.005", () => {
    const sum = BigDecimal.sum(Schema.decodeSync(Money.Amount)(0.1), Schema.decodeSync(Money.Amount)(0.2))
    assert.strictEqual(Money.toText(sum), "0.3")
    assert.strictEqual(Money.toJsonNumber(sum), 0.3)
    assert.strictEqual(Money.toText(Schema.decodeSync(Money.Amount)(1.005)), "1.005")
  })

  it("decodes JSON numbers to decimals and encodes them back", () => {
    const amount = Schema.decodeSync(Money.Amount)(50)
    assert.isTrue(BigDecimal.equals(amount, d("50.00")))
    assert.strictEqual(Schema.encodeSync(Money.Amount)(d("1999.90")), 1999.9)
    assert.throws(() => Schema.decodeUnknownSync(Money.Amount)(Number.NaN))
    assert.throws(() => Schema.decodeUnknownSync(Money.Amount)("50"))
  })

  it("knows which amounts fit a currency", () => {
    assert.isTrue(Money.fitsExponent(d("10.5"), "USD"))
    assert.isFalse(Money.fitsExponent(d("10.555"), "USD"))
    assert.isFalse(Money.fitsExponent(d("10.5"), "CLP"))
    assert.isTrue(Money.fitsExponent(d("10.50"), "MXN"))
  })

  it("normalises currency codes", () => {
    assert.deepStrictEqual(Money.normalizeCurrency(" brl "), Option.some("BRL"))
    assert.isTrue(Option.isNone(Money.normalizeCurrency("XXX")))
    assert.strictEqual(Money.exponent("CLP"), 0)
    assert.strictEqual(Money.exponent("KWD"), 3)
  })
})
