/** The ISO 4217 codes the engine accepts, read from `currency-codes` (see `tools/iso4217.ts`). */
import cc from "currency-codes"

/** Codes in the list that are not currencies a payment can be made in. */
const notCurrencies = new Set(["XTS", "XXX"])

export const iso4217Codes = () =>
  Object.assign(
    cc.data
      .filter((c) => !notCurrencies.has(c.code))
      .map((c) => ({ code: c.code, digits: c.digits }))
      .sort((a, b) => a.code.localeCompare(b.code)),
    { publishDate: cc.publishDate }
  )
