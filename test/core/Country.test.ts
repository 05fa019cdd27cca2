import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import * as Country from "../../core/Country.ts"

describe("Country", () => {
  it("maps ISO-2 and ISO-3 in any case to ISO-3", () => {
    for (const [input, iso3] of [["BR", "BRA"], ["bra", "BRA"], ["mx", "MEX"], ["COL", "COL"], [" pe ", "PER"], ["cl", "CHL"], ["AR", "ARG"], ["us", "USA"]]) {
      assert.deepStrictEqual(Country.toIso3(input!), Option.some(iso3!))
    }
  })

  it("maps back to ISO-2", () => {
    assert.deepStrictEqual(Country.toIso2("CHL"), Option.some("CL"))
    assert.deepStrictEqual(Country.toIso2("ar"), Option.some("AR"))
  })

  it("refuses what is not a country", () => {
    for (const input of ["", "X", "ZZ", "ZZZ", "BRAZIL", "B1"]) assert.isTrue(Option.isNone(Country.toIso3(input)))
  })

  it("covers the whole ISO 3166-1 list, one to one", () => {
    assert.strictEqual(Country.size, 249)
  })
})

describe("requestedCountry", () => {
  it.effect("reads a request's country as ISO-3, none given as undefined", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* Country.requestedCountry(" br "), "BRA")
      assert.strictEqual(yield* Country.requestedCountry(undefined), undefined)
    }))

  it.effect("refuses a code that is no country with the invalid_request every endpoint answers", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Country.requestedCountry("Narnia"))
      assert.strictEqual(error.code, "invalid_request")
      assert.strictEqual(error.message, "Unknown country 'Narnia'")
      assert.deepStrictEqual(error.details, {
        issues: [{ path: "country", message: "Expected an ISO-2 or ISO-3 country code" }],
        missingFields: []
      })
    }))

  it("has a Schema that accepts the same codes", () => {
    const isCode = Schema.is(Country.CountryCode)
    assert.isTrue(isCode("mx") && isCode("COL"))
    assert.isFalse(isCode("ZZ") || isCode("BRAZIL"))
  })
})
