/**
 * What a merchant (or the card page) sends to tokenize a card, and its validation against the
 * vault's clock: Luhn, brand from the BIN, the brand's lengths, expiry not past, security code
 * length. Each refusal names its field and a precise code. No message repeats the number.
 */
import { Clock, Effect, Schema } from "effect"
import type { CardBrand } from "../../core/ports/CardVault.ts"
import { brandLengths, brandOf, securityCodeLength } from "./Brands.ts"
import { luhnValid } from "./Luhn.ts"

export const CardInput = Schema.Struct({
  merchantId: Schema.String,
  number: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  holderName: Schema.String,
  securityCode: Schema.optionalKey(Schema.String)
})
export type CardInput = typeof CardInput.Type

export const CardRejectionCode = Schema.Literals([
  "card_number_invalid",
  "brand_not_supported",
  "card_expired",
  "expiry_invalid",
  "security_code_invalid",
  "holder_name_invalid"
])
export type CardRejectionCode = typeof CardRejectionCode.Type

export class CardRejected extends Schema.TaggedError<CardRejected>()("CardRejected", {
  code: CardRejectionCode,
  field: Schema.Literals(["number", "expiry", "securityCode", "holderName"]),
  message: Schema.String
}) {}

export interface ValidCard {
  readonly merchantId: string
  readonly number: string
  readonly brand: CardBrand
  readonly expMonth: number
  readonly expYear: number
  readonly holderName: string
  readonly securityCode: string | undefined
}

/** Spaces and dashes between groups of digits are how people type numbers; anything else is refused. */
const normalizeNumber = (number: string) => number.replace(/[\s-]/g, "")

export const validate = Effect.fn("CardInput.validate")(function*(input: CardInput) {
  const number = normalizeNumber(input.number)
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    return yield* new CardRejected({ code: "card_number_invalid", field: "number", message: "the card number is not a valid card number" })
  }
  const brand = brandOf(number)
  if (brand === undefined) {
    return yield* new CardRejected({ code: "brand_not_supported", field: "number", message: "the card's brand is not one the vault accepts" })
  }
  if (!brandLengths[brand].includes(number.length)) {
    return yield* new CardRejected({ code: "card_number_invalid", field: "number", message: `a ${brand} card number does not have ${number.length} digits` })
  }
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear
  if (input.expMonth < 1 || input.expMonth > 12 || expYear < 2000 || expYear > 2099) {
    return yield* new CardRejected({ code: "expiry_invalid", field: "expiry", message: "the expiry month must be 1 to 12 and the year four digits" })
  }
  // A card is good through the last day of its expiry month (UTC, the vault's clock).
  const now = new Date(yield* Clock.currentTimeMillis)
  const nowMonths = now.getUTCFullYear() * 12 + now.getUTCMonth()
  if (expYear * 12 + (input.expMonth - 1) < nowMonths) {
    return yield* new CardRejected({ code: "card_expired", field: "expiry", message: "the card has expired" })
  }
  const securityCode = input.securityCode === undefined || input.securityCode === "" ? undefined : input.securityCode.trim()
  if (securityCode !== undefined && !new RegExp(`^\\d{${securityCodeLength(brand)}}$`).test(securityCode)) {
    return yield* new CardRejected({
      code: "security_code_invalid",
      field: "securityCode",
      message: `the security code of a ${brand} card has ${securityCodeLength(brand)} digits`
    })
  }
  const holderName = input.holderName.trim().replace(/\s+/g, " ")
  if (holderName.length < 2 || holderName.length > 100) {
    return yield* new CardRejected({ code: "holder_name_invalid", field: "holderName", message: "the holder name must be 2 to 100 characters" })
  }
  return { merchantId: input.merchantId, number, brand, expMonth: input.expMonth, expYear, holderName, securityCode } satisfies ValidCard
})
