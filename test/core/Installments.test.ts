/**
 * The instalment rules (`core/payments/Installments.ts`), as properties: a split sums exactly to
 * the total, no part exceeds the total or the first, the parts after the first are equal and
 * within one minor unit of the first's share; a country's allowed counts meet its minimum.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Schema } from "effect"
import * as Money from "../../core/Money.ts"
import { allowedCounts, quoteOptions, ruleOf, split } from "../../core/payments/Installments.ts"

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const minorUnit = (currency: string) => BigDecimal.make(1n, Money.exponent(currency))

describe("installments", () => {
  it.effect.prop(
    "a split sums exactly to the total; parts after the first are equal, the first takes the remainder (less than count minor units)",
    { minor: int(1, 100_000_000), count: int(1, 12), currency: Schema.Literals(["BRL", "MXN", "ARS", "CLP", "USD"]) },
    ({ count, currency, minor }) =>
      Effect.sync(() => {
        const total = BigDecimal.make(BigInt(minor), Money.exponent(currency))
        const parts = split(total, count, currency)
        assert.strictEqual(parts.length, count)
        assert.isTrue(BigDecimal.equals(BigDecimal.sumAll(parts), total))
        const [first, ...rest] = parts
        for (const p of rest) {
          assert.isTrue(BigDecimal.equals(p, rest[0]!))
          assert.isTrue(BigDecimal.isLessThanOrEqualTo(p, first!))
          assert.isTrue(Money.fitsExponent(p, currency))
        }
        assert.isTrue(BigDecimal.isLessThanOrEqualTo(first!, total))
        const remainder = rest.length === 0 ? Money.zero : BigDecimal.subtract(first!, rest[0]!)
        assert.isTrue(BigDecimal.isLessThan(remainder, BigDecimal.multiply(minorUnit(currency), BigDecimal.fromNumberUnsafe(count))))
      })
  )

  it.effect.prop(
    "every allowed count is one the country lists, and each of its instalments meets the minimum",
    { minor: int(100, 10_000_000), country: Schema.Literals(["BR", "MX", "AR", "CO", "CL"]) },
    ({ country, minor }) =>
      Effect.sync(() => {
        const rule = ruleOf(country)
        const currency = rule.currency ?? "USD"
        const total = BigDecimal.make(BigInt(minor), 2)
        const allowed = allowedCounts(country, total, currency)
        assert.include(allowed, 1)
        for (const count of allowed) {
          assert.include(rule.counts, count)
          if (count > 1 && rule.minimumInstalment !== null) {
            assert.isTrue(split(total, count, currency).every((p) => BigDecimal.isGreaterThanOrEqualTo(p, rule.minimumInstalment!)))
          }
        }
        // A count the rule lists but the amount cannot carry is left out, and only then.
        for (const count of rule.counts.filter((c) => !allowed.includes(c))) {
          assert.isTrue(BigDecimal.isLessThan(split(total, count, currency)[count - 1]!, rule.minimumInstalment!))
        }
      })
  )

  it("PPRO's example: 100.00 BRL in 3 is 33.34 + 33.33 + 33.33; Mexico's counts are 1, 3, 6, 9, 12; elsewhere 1", () => {
    assert.deepStrictEqual(split(Money.decimal("100"), 3, "BRL").map(Money.toText), ["33.34", "33.33", "33.33"])
    assert.deepStrictEqual(allowedCounts("MX", Money.decimal("5000"), "MXN"), [1, 3, 6, 9, 12])
    assert.deepStrictEqual(allowedCounts("MX", Money.decimal("500"), "MXN"), [1, 3])
    assert.deepStrictEqual(allowedCounts("BR", Money.decimal("20"), "BRL"), [1, 2, 3, 4])
    assert.deepStrictEqual(allowedCounts("CO", Money.decimal("500000"), "COP"), [1])
    assert.deepStrictEqual(quoteOptions("BR", Money.decimal("10"), "BRL").map((o) => [o.count, Money.toText(o.instalmentAmount), Money.toText(o.total)]), [
      [1, "10", "10"],
      [2, "5", "10"]
    ])
  })
})
