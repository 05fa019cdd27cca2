/**
 * Buyer data a charge needs, and how its absence is named (`details.missingFields`).
 *
 * - Hosted checkout (spec 4.5): a full name of two words at least (at most 120 characters), a
 *   valid email and a document number valid for the rail's country (`DocumentNumbers.ts`), plus what the rail requires (a phone with its country code for
 *   wallets) and what every provider that could take the charge requires (a boleto's address).
 * - A direct API call: the spec's buyer fields are recommended, not enforced; but a provider that
 *   cannot charge the rail without some of them (`PaymentProvider.requires`) is not tried without
 *   them, and when no provider is left the call answers 422 `missing_required_fields`.
 */
import { Redacted } from "effect"
import type { PaymentMethodDef, RequiredField } from "../catalog/PaymentMethod.ts"
import type { BuyerAddress, PaymentProvider } from "../ports/PaymentProvider.ts"
import { checkDocument } from "../DocumentNumbers.ts"

export const emailPattern = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
export const phonePattern = /^\+[0-9][0-9 ()-]{6,38}$/

/**
 * The buyer's data as the engine carries it, from the API's decode of the request body (the
 * body schemas decode buyer fields to `Redacted`) to the charge request: `Redacted`, so that printing it (a log line, a span attribute, an error
 * message) prints `<redacted>`. Whoever needs the value reads it with `Redacted.value`: the
 * stores that keep it, the rules below that check it, and the connector, at the line that puts
 * it on its wire (`ChargeRequest.customer` carries it still wrapped).
 */
export type BuyerText = Redacted.Redacted<string>

export interface BuyerData {
  readonly userName: BuyerText | null
  readonly email: BuyerText | null
  readonly documentId: BuyerText | null
  readonly phone: BuyerText | null
  readonly address: Redacted.Redacted<BuyerAddress> | null
}

/** The value of buyer data, or null: for the rules that check it and the stores that keep it. */
export const revealed = <A>(value: Redacted.Redacted<A> | null | undefined): A | null =>
  value === null || value === undefined ? null : Redacted.value(value)

/** Wraps buyer data read as plain values (a checkout session, a store's row). */
export const redacted = <A>(value: A | null | undefined): Redacted.Redacted<A> | undefined =>
  value === null || value === undefined ? undefined : Redacted.make(value)

/** Buyer text trimmed, still `Redacted`; null when absent or blank (a form's empty field). */
export const trimmed = (value: BuyerText | null | undefined): BuyerText | null => {
  const text = revealed(value)?.trim() ?? ""
  return text === "" ? null : Redacted.make(text)
}

/** `BuyerData` of values a checkout session holds in the clear. */
export const buyerDataOf = (plain: {
  readonly userName: string | null
  readonly email: string | null
  readonly documentId: string | null
  readonly phone: string | null
  readonly address: BuyerAddress | null
}): BuyerData => ({
  userName: redacted(plain.userName) ?? null,
  email: redacted(plain.email) ?? null,
  documentId: redacted(plain.documentId) ?? null,
  phone: redacted(plain.phone) ?? null,
  address: redacted(plain.address) ?? null
})

/** `BuyerData` as a create takes it, by the API's names (absent where null), still `Redacted`. */
export const createFieldsOf = (buyer: BuyerData) => ({
  userName: buyer.userName ?? undefined,
  userEmail: buyer.email ?? undefined,
  documentId: buyer.documentId ?? undefined,
  userPhone: buyer.phone ?? undefined,
  userAddress: buyer.address ?? undefined
})

/** The API's names of buyer data, as `details.missingFields` and the catalog's `requiredFields` say them. */
export type FieldName = "userName" | "email" | "documentId" | "userPhone" | "userAddress"

export const fieldName: Readonly<Record<RequiredField, FieldName>> = {
  userName: "userName",
  userEmail: "email",
  documentId: "documentId",
  userPhone: "userPhone",
  userAddress: "userAddress"
}

/** What `provider` needs beyond the amount to charge `method`. */
export const providerNeeds = (provider: PaymentProvider, method: PaymentMethodDef): ReadonlyArray<RequiredField> =>
  provider.requires?.(method) ?? []

/** What every one of `providers` needs for `method`: without it, none of them can charge it. */
export const neededByAll = (providers: ReadonlyArray<PaymentProvider>, method: PaymentMethodDef): ReadonlyArray<RequiredField> => {
  const [first, ...rest] = providers.map((p) => providerNeeds(p, method))
  return (first ?? []).filter((field) => rest.every((needs) => needs.includes(field)))
}

const present = (value: BuyerText | null) => value !== null && Redacted.value(value).trim() !== ""

/**
 * What the address lacks on a rail of `country` (ISO-2): a Brazilian address names its bairro,
 * which a boleto prints (Mercado Pago and EBANX refuse a boleto without it).
 */
const addressGaps = (address: BuyerAddress, country: string): ReadonlyArray<string> =>
  (address.country ?? country) === "BR" && (address.district === undefined || address.district.trim() === "") ? ["userAddress.district"] : []

/** Which of `needed` the buyer data lacks on a rail of `country`, by the API's names (presence only). */
export const lacking = (buyer: BuyerData, needed: ReadonlyArray<RequiredField>, country: string): ReadonlyArray<string> => [
  ...needed.filter((field) => {
    switch (field) {
      case "userName":
        return !present(buyer.userName)
      case "userEmail":
        return !present(buyer.email)
      case "documentId":
        return !present(buyer.documentId)
      case "userPhone":
        return !present(buyer.phone)
      case "userAddress":
        return buyer.address === null
    }
  }).map((field) => fieldName[field]),
  ...(needed.includes("userAddress") && buyer.address !== null ? addressGaps(Redacted.value(buyer.address), country) : [])
]

/**
 * The hosted-checkout rule: what is missing or malformed among the spec's fields, the rail's
 * `requires` and `providersNeed` (what every provider of the rail needs, see `neededByAll`).
 */
export const missingFor = (
  buyer: BuyerData,
  method: PaymentMethodDef | undefined,
  providersNeed: ReadonlyArray<RequiredField> = []
): ReadonlyArray<string> => {
  const missing: Array<string> = []
  const name = revealed(buyer.userName)?.trim() ?? ""
  const email = revealed(buyer.email)
  const documentId = revealed(buyer.documentId)
  const phone = revealed(buyer.phone)
  const address = revealed(buyer.address)
  if (name.split(/\s+/).filter(Boolean).length < 2 || name.length > 120) missing.push("userName")
  if (email === null || !emailPattern.test(email) || email.length > 254) missing.push("email")
  if (
    documentId === null || documentId.trim() === "" || documentId.length > 40 ||
    (method !== undefined && "problem" in checkDocument(method.country, documentId))
  ) missing.push("documentId")
  const needs = (field: RequiredField) => method?.requires.includes(field) === true || providersNeed.includes(field)
  if (needs("userPhone") && (phone === null || !phonePattern.test(phone))) missing.push("userPhone")
  if (needs("userAddress")) {
    if (address === null) missing.push("userAddress")
    else if (method !== undefined) missing.push(...addressGaps(address, method.country))
  }
  return missing
}
