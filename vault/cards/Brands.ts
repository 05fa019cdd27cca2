/**
 * The brand of a card number from its leading digits (the BIN / IIN), and the lengths each brand
 * issues. The most specific (longest) matching prefix wins, so Elo and Hipercard ranges inside
 * Visa's `4` or Discover's `65` name their own brand.
 *
 * Sources: the IIN table of Wikipedia's "Payment card number" article (Visa, Mastercard incl. the
 * 2221-2720 series, Amex, Diners Club International, Discover incl. the UnionPay 622126-622925
 * co-brand), and for the Brazilian and Mexican schemes the ranges braintree/credit-card-type
 * publishes (Elo, Hipercard) and Carnet's published BIN list (Prosa-Carnet, Mexico).
 */
import type { CardBrand } from "../../core/ports/CardVault.ts"

interface Range {
  readonly brand: CardBrand
  /** Inclusive bounds, the same number of digits: a number matches when its prefix of that length lies between them. */
  readonly from: string
  readonly to: string
}

const r = (brand: CardBrand, from: string, to: string = from): Range => ({ brand, from, to })

const ranges: ReadonlyArray<Range> = [
  r("visa", "4"),
  r("mastercard", "51", "55"),
  r("mastercard", "2221", "2720"),
  r("amex", "34"),
  r("amex", "37"),
  r("diners", "300", "305"),
  r("diners", "36"),
  r("diners", "38", "39"),
  r("discover", "6011"),
  r("discover", "644", "649"),
  r("discover", "65"),
  r("discover", "622126", "622925"),
  ...["401178", "401179", "431274", "438935", "451416", "457393", "457631", "457632", "504175", "627780", "636297", "636368"]
    .map((bin) => r("elo", bin)),
  r("elo", "506699", "506778"),
  r("elo", "509000", "509999"),
  r("elo", "650031", "650033"),
  r("elo", "650035", "650051"),
  r("elo", "650405", "650439"),
  r("elo", "650485", "650538"),
  r("elo", "650541", "650598"),
  r("elo", "650700", "650718"),
  r("elo", "650720", "650727"),
  r("elo", "650901", "650978"),
  r("elo", "651652", "651679"),
  r("elo", "655000", "655019"),
  r("elo", "655021", "655058"),
  ...["606282", "384100", "384140", "384160", "637095", "637609", "637612"].map((bin) => r("hipercard", bin)),
  r("hipercard", "637568", "637599"),
  ...["286900", "502275", "588772", "639484", "639559"].map((bin) => r("carnet", bin)),
  r("carnet", "506199", "506499"),
  r("carnet", "604622", "604626"),
  r("carnet", "604628", "604999")
]

/** The lengths of number each brand issues. */
export const brandLengths: Record<CardBrand, ReadonlyArray<number>> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  elo: [16],
  hipercard: [16, 19],
  diners: [14, 15, 16, 17, 18, 19],
  discover: [16, 17, 18, 19],
  carnet: [16]
}

/** The brand whose most specific range the number's prefix falls in, or undefined. */
export const brandOf = (digits: string): CardBrand | undefined => {
  let best: Range | undefined
  for (const range of ranges) {
    const prefix = digits.slice(0, range.from.length)
    if (prefix.length < range.from.length || prefix < range.from || prefix > range.to) continue
    if (best === undefined || range.from.length > best.from.length) best = range
  }
  return best?.brand
}

/** Security code lengths: four digits on the front of an Amex, three elsewhere. */
export const securityCodeLength = (brand: CardBrand): number => (brand === "amex" ? 4 : 3)

/** The BIN the engine may keep: 8 digits for a 16-digit Visa or Mastercard (8-digit BINs since 2022), else 6. */
export const binOf = (digits: string, brand: CardBrand): string =>
  digits.slice(0, digits.length === 16 && (brand === "visa" || brand === "mastercard") ? 8 : 6)
