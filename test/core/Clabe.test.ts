import { assert, describe, it } from "@effect/vitest"
import { checkDigit, isValidClabe, makeClabe } from "../../core/deposits/Clabe.ts"

describe("CLABE", () => {
  it("computes the check digit of published examples", () => {
    // Banxico's worked example: bank 032, branch 180, account 00011835971, check digit 9.
    assert.strictEqual(checkDigit("03218000011835971"), 9)
    assert.isTrue(isValidClabe("032180000118359719"))
    assert.isTrue(isValidClabe("646180157000000004"))
  })

  it("refuses a wrong digit, a wrong length or non-digits", () => {
    assert.isFalse(isValidClabe("032180000118359718"))
    assert.isFalse(isValidClabe("03218000011835971"))
    assert.isFalse(isValidClabe("03218000011835971a"))
  })

  it("builds CLABEs in a bank/branch range that always validate", () => {
    for (let i = 0; i < 200; i++) {
      const account = String(Math.floor(Math.random() * 1e11)).padStart(11, "0")
      const clabe = makeClabe("646", "180", account)
      assert.isTrue(clabe.startsWith("646180") && isValidClabe(clabe), clabe)
    }
    assert.throws(() => makeClabe("64", "180", "00000000001"))
  })
})
