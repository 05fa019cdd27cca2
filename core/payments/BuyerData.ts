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
import type { PaymentMethodDef, RequiredField } from "../catalog/PaymentMethod.ts"
import type { BuyerAddress, PaymentProvider } from "../ports/PaymentProvider.ts"
import { checkDocument } from "../DocumentNumbers.ts"

export const emailPattern = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
export const phonePattern = /^\+[0-9][0-9 ()-]{6,38}$/

export interface BuyerData {
  readonly userName: string | null
  readonly email: string | null
  readonly documentId: string | null
  readonly phone: string | null
  readonly address: BuyerAddress | null
}

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

const present = (value: string | null) => value !== null && value.trim() !== ""

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
  ...(needed.includes("userAddress") && buyer.address !== null ? addressGaps(buyer.address, country) : [])
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
  const name = buyer.userName?.trim() ?? ""
  if (name.split(/\s+/).filter(Boolean).length < 2 || name.length > 120) missing.push("userName")
  if (buyer.email === null || !emailPattern.test(buyer.email) || buyer.email.length > 254) missing.push("email")
  if (
    buyer.documentId === null || buyer.documentId.trim() === "" || buyer.documentId.length > 40 ||
    (method !== undefined && "problem" in checkDocument(method.country, buyer.documentId))
  ) missing.push("documentId")
  const needs = (field: RequiredField) => method?.requires.includes(field) === true || providersNeed.includes(field)
  if (needs("userPhone") && (buyer.phone === null || !phonePattern.test(buyer.phone))) missing.push("userPhone")
  if (needs("userAddress")) {
    if (buyer.address === null) missing.push("userAddress")
    else if (method !== undefined) missing.push(...addressGaps(buyer.address, method.country))
  }
  return missing
}
