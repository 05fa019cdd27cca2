import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
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
