/**
 * What a Mercado Pago charge says about the buyer (`payer`): the name split as the API wants it,
 * the document typed per country, and the postal address boleto requires (BACEN rule 2024).
 */
import type { BuyerAddress } from "../../core/ports/PaymentProvider.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"

/** `first_name` and `last_name`: the last word is the last name. */
export const nameParts = (name: string | undefined) => {
  const words = (name ?? "").trim().split(/\s+/).filter((w) => w !== "")
  return words.length <= 1
    ? { first_name: words[0], last_name: undefined }
    : { first_name: words.slice(0, -1).join(" "), last_name: words[words.length - 1] }
}

/** The buyer's document as Mercado Pago types it: CPF/CNPJ in Brazil, CC in Colombia. */
export const identificationOf = (country: string, documentId: string | undefined) => {
  if (documentId === undefined || documentId.trim() === "") return undefined
  if (country === "BR") {
    const digits = documentId.replace(/\D/g, "")
    return { type: digits.length === 14 ? "CNPJ" : "CPF", number: digits }
  }
  if (country === "CO") return { type: "CC", number: documentId.trim() }
  return undefined
}

/** `payer.address` from the buyer's address (the CEP as its 8 digits); undefined when none. */
export const addressOf = (address: BuyerAddress | undefined) =>
  address === undefined ? undefined : UpstreamHttp.defined({
    zip_code: address.postalCode.replace(/\D/g, ""),
    street_name: address.street,
    street_number: address.number,
    neighborhood: address.district,
    city: address.city,
    federal_unit: address.state
  })

/** Boleto's address is complete when all six documented fields have a value. */
export const completeForBoleto = (address: ReturnType<typeof addressOf>) =>
  address !== undefined &&
  [address.zip_code, address.street_name, address.street_number, address.neighborhood, address.city, address.federal_unit]
    .every((v) => v !== undefined && v.trim() !== "")
