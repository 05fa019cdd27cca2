/**
 * The catalog rails (`core/catalog/methods.ts`) the dLocal pay-in connector charges through
 * `POST /payments`, with dLocal's own `payment_method_id` for each, as the country pages of the
 * documentation list them (https://docs.dlocal.com/docs/payment-method and the pages of Brazil,
 * Mexico, Colombia, Peru, Chile and Argentina; PIX is `PQ` on
 * https://docs.dlocal.com/api-documentation/payins-api-reference/payments/pix-payments).
 *
 * - Every rail is charged in dLocal's `REDIRECT` flow: dLocal answers a `redirect_url` to its own
 *   page for the method (QR code, voucher, bank redirect), so the engine never renders method
 *   data itself. PSE and Webpay allow nothing else.
 * - Amounts travel in MAJOR units of the charge's currency (`"amount": 150.5`), as a JSON number
 *   written from decimal text (see `DLocalProvider.ts`); dLocal takes two decimals at most, and
 *   none in COP and CLP ({@link dlocalDecimals}).
 * - Currencies are the catalog's for the rail (the local one first); dLocal refuses one it does
 *   not allow for the country with `5004`, which the connector treats as "this account cannot",
 *   `Misconfigured`.
 * - Limits are the catalog's for the rail (decimal text, major units of the first currency):
 *   dLocal enforces its own per account and method and answers `5006` (user limit), `5007`
 *   (amount exceeded) or `5016` (amount too low), all final.
 * - Cards are rails per brand, all with dLocal's generic `payment_method_id: "CARD"` ("if you
 *   don't know what the payment method is, you should use CARD",
 *   https://docs.dlocal.com/docs/payment-method, https://docs.dlocal.com/reference/payment-method-object),
 *   in the `DIRECT` flow through the card vault (`CardCharge.ts`): Visa, Mastercard, American
 *   Express and Diners where the catalog has them, in the six countries above. Elo and Hipercard
 *   (Brazil), Carnet (Mexico), Naranja and Cabal (Argentina) are not served: no page read here
 *   confirms dLocal takes them as `CARD` (README, "Cards"), and the port's brands lack the last two.
 */
import type { CardBrand, PaymentMethodDef, RequiredField } from "../../core/ports/index.ts"

export interface Rail {
  /** The catalog's permanent service id. */
  readonly catalogId: string
  /** dLocal's `payment_method_id`. */
  readonly paymentMethodId: string
  /** ISO-2, as the catalog and dLocal's `country` both write it. */
  readonly country: string
  /** The currencies the catalog lists for the rail, local first. */
  readonly currencies: ReadonlyArray<string>
  /** `major`: `amount` is in major units (reais, pesos, soles), with {@link dlocalDecimals} decimals at most. */
  readonly unit: "major"
  /** Decimal text in major units of the first currency (the catalog's bounds). */
  readonly min: string
  readonly max: string
  /** A card rail's brand: the card's own brand must be it. */
  readonly brand?: CardBrand | undefined
}

/** dLocal's `payment_method_id` for any card (the vault fills the number in; dLocal reads the brand from it). */
export const cardMethodId = "CARD"

const cardRail = (catalogId: string, brand: CardBrand, country: string, currency: string, min: string, max: string): Rail => ({
  catalogId, paymentMethodId: cardMethodId, brand, country, currencies: [currency], unit: "major", min, max
})

export const rails: ReadonlyArray<Rail> = [
  { catalogId: "1001", paymentMethodId: "PQ", country: "BR", currencies: ["BRL"], unit: "major", min: "1", max: "50000" },
  { catalogId: "1002", paymentMethodId: "BL", country: "BR", currencies: ["BRL"], unit: "major", min: "5", max: "50000" },
  { catalogId: "1031", paymentMethodId: "SE", country: "MX", currencies: ["MXN"], unit: "major", min: "10", max: "500000" },
  { catalogId: "1033", paymentMethodId: "OX", country: "MX", currencies: ["MXN"], unit: "major", min: "10", max: "10000" },
  { catalogId: "1047", paymentMethodId: "PC", country: "CO", currencies: ["COP"], unit: "major", min: "1000", max: "20000000" },
  { catalogId: "1051", paymentMethodId: "EY", country: "CO", currencies: ["COP"], unit: "major", min: "5000", max: "3000000" },
  { catalogId: "1061", paymentMethodId: "EF", country: "PE", currencies: ["PEN", "USD"], unit: "major", min: "1", max: "20000" },
  { catalogId: "1075", paymentMethodId: "WP", country: "CL", currencies: ["CLP"], unit: "major", min: "500", max: "5000000" },
  { catalogId: "1089", paymentMethodId: "RP", country: "AR", currencies: ["ARS"], unit: "major", min: "1000", max: "1000000" },
  cardRail("1004", "visa", "BR", "BRL", "1", "30000"),
  cardRail("1005", "mastercard", "BR", "BRL", "1", "30000"),
  cardRail("1008", "amex", "BR", "BRL", "1", "30000"),
  cardRail("1009", "diners", "BR", "BRL", "1", "30000"),
  cardRail("1042", "visa", "MX", "MXN", "10", "200000"),
  cardRail("1043", "mastercard", "MX", "MXN", "10", "200000"),
  cardRail("1044", "amex", "MX", "MXN", "10", "200000"),
  cardRail("1057", "visa", "CO", "COP", "5000", "20000000"),
  cardRail("1058", "mastercard", "CO", "COP", "5000", "20000000"),
  cardRail("1059", "amex", "CO", "COP", "5000", "20000000"),
  cardRail("1060", "diners", "CO", "COP", "5000", "20000000"),
  cardRail("1071", "visa", "PE", "PEN", "1", "30000"),
  cardRail("1072", "mastercard", "PE", "PEN", "1", "30000"),
  cardRail("1073", "amex", "PE", "PEN", "1", "30000"),
  cardRail("1074", "diners", "PE", "PEN", "1", "30000"),
  cardRail("1085", "visa", "CL", "CLP", "500", "5000000"),
  cardRail("1086", "mastercard", "CL", "CLP", "500", "5000000"),
  cardRail("1087", "amex", "CL", "CLP", "500", "5000000"),
  cardRail("1088", "diners", "CL", "CLP", "500", "5000000"),
  cardRail("1097", "visa", "AR", "ARS", "100", "10000000"),
  cardRail("1098", "mastercard", "AR", "ARS", "100", "10000000"),
  cardRail("1099", "amex", "AR", "ARS", "100", "10000000")
]

/** Whether the rail is a card's (charged through the card vault). */
export const isCardRail = (rail: Rail): boolean => rail.brand !== undefined

const byId = new Map(rails.map((rail) => [rail.catalogId, rail]))

/** The rail of a catalog method, when dLocal serves it. */
export const railOf = (method: Pick<PaymentMethodDef, "id">): Rail | undefined => byId.get(method.id)

/** The rail of a dLocal `payment_method_id` (the simulator's view). */
export const railOfMethodId = (paymentMethodId: string): Rail | undefined =>
  rails.find((rail) => rail.paymentMethodId === paymentMethodId && !isCardRail(rail))

/** The card rail of a brand in a country (the simulator's view of a `CARD` payment). */
export const cardRailOf = (country: string, brand: CardBrand): Rail | undefined =>
  rails.find((rail) => rail.country === country && rail.brand === brand)

/**
 * Decimals dLocal takes in `amount`, per currency: the "`amount` decimals" column of the country
 * reference (https://docs.dlocal.com/reference/country-reference, and each country page: Colombia
 * COP 0, https://docs.dlocal.com/docs/colombia). ISO 4217 gives COP two; dLocal takes none, so a
 * COP amount with cents cannot be sent (the connector refuses it before any call). CLP is 0 in both.
 */
export const dlocalDecimals = (currency: string): number => (currency === "COP" || currency === "CLP" ? 0 : 2)

/**
 * The payer fields dLocal needs on every rail here: `name` and `email` (the payer object), and
 * `document`, which the country reference marks required in Argentina, Brazil, Chile, Colombia,
 * Mexico and Peru (https://docs.dlocal.com/reference/country-reference).
 */
export const payerFields: ReadonlyArray<RequiredField> = ["userName", "userEmail", "documentId"]

/** The fields of {@link payerFields} the catalog's `method.requires` lacks, for a rail served here. */
export const requiresBeyondCatalog = (method: Pick<PaymentMethodDef, "id" | "requires">): ReadonlyArray<RequiredField> =>
  railOf(method) === undefined ? [] : payerFields.filter((field) => !method.requires.includes(field))
