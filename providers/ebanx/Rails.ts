/**
 * The catalog rails (`core/catalog/methods.ts`) the EBANX connector knows, with EBANX's own
 * `payment_type_code` for each (https://docs.ebanx.com/docs/resources/payment-type-codes, and the
 * gateways of EBANX's PHP SDK `ebanx/benjamin`, `src/Services/Gateways/*.php`).
 *
 * - Amounts travel in MAJOR units of the charge's currency (`amount_total: 150.5`), as a JSON
 *   number written from decimal text (see `EbanxProvider.ts`).
 * - Limits are the catalog's for the rail: EBANX enforces its own per account and answers
 *   `BP-DR-6` (below the minimum) or `BP-DR-7` (above the maximum), both final refusals.
 * - `page` is the field of EBANX's answer that holds the buyer's page for the rail; the connector
 *   falls back on the others (`Wire.pageFields`) when EBANX answers another.
 * - `needs` is the buyer data EBANX requires for the rail (its Direct API requires `name` and
 *   `email` on every payment; Brazil and Colombia the `document`; boleto the address and phone).
 * - `servable: false` marks a rail EBANX serves but the engine cannot charge: its request needs
 *   something the engine's API does not carry (PSE's `eft_code`, a bank from EBANX's own list).
 * - The sandbox test methods of the catalog (`sbx_*`) mirror a real rail and map to the same
 *   `payment_type_code` (EBANX's sandbox is the same API at `sandbox.ebanxpay.com`).
 */
import type { PaymentMethodDef, RequiredField } from "../../core/ports/index.ts"

export interface Rail {
  /** The catalog's permanent service id. */
  readonly catalogId: string
  /** EBANX's `payment_type_code`. */
  readonly paymentTypeCode: string
  /** ISO-2, upper case as in the catalog (EBANX wants it lower case on the wire). */
  readonly country: string
  /** The currencies the catalog lists for the rail (`currency_code`). */
  readonly currencies: ReadonlyArray<string>
  /** `major`: `amount_total` is in major units (reais, pesos), decimals allowed. */
  readonly unit: "major"
  /** Decimal text in major units of the first currency (the catalog's bounds). */
  readonly min: string
  readonly max: string
  /** The field of EBANX's answer with the buyer's page. */
  readonly page: "voucher_url" | "boleto_url" | "redirect_url" | "oxxo_url" | "spei_url" | "cip_url"
  /** Buyer data EBANX requires on this rail. */
  readonly needs: ReadonlyArray<RequiredField>
  /** False when a charge on the rail needs data the engine's API cannot carry. */
  readonly servable: boolean
}

const named: ReadonlyArray<RequiredField> = ["userName", "userEmail"]
const identified: ReadonlyArray<RequiredField> = ["userName", "userEmail", "documentId"]

export const rails: ReadonlyArray<Rail> = [
  { catalogId: "1001", paymentTypeCode: "pix", country: "BR", currencies: ["BRL"], unit: "major", min: "1", max: "50000", page: "redirect_url", needs: identified, servable: true },
  {
    catalogId: "1002", paymentTypeCode: "boleto", country: "BR", currencies: ["BRL"], unit: "major", min: "5", max: "50000", page: "boleto_url",
    needs: [...identified, "userAddress", "userPhone"], servable: true
  },
  { catalogId: "1031", paymentTypeCode: "spei", country: "MX", currencies: ["MXN"], unit: "major", min: "10", max: "500000", page: "spei_url", needs: named, servable: true },
  { catalogId: "1033", paymentTypeCode: "oxxo", country: "MX", currencies: ["MXN"], unit: "major", min: "10", max: "10000", page: "oxxo_url", needs: named, servable: true },
  // PSE is EBANX's `eft` and needs `eft_code`, the buyer's bank from `/ws/getBankList`: not servable.
  { catalogId: "1047", paymentTypeCode: "eft", country: "CO", currencies: ["COP"], unit: "major", min: "1000", max: "20000000", page: "redirect_url", needs: identified, servable: false },
  { catalogId: "1051", paymentTypeCode: "efecty", country: "CO", currencies: ["COP"], unit: "major", min: "5000", max: "3000000", page: "voucher_url", needs: identified, servable: true },
  { catalogId: "1061", paymentTypeCode: "pagoefectivo", country: "PE", currencies: ["PEN", "USD"], unit: "major", min: "1", max: "20000", page: "cip_url", needs: named, servable: true },
  { catalogId: "1075", paymentTypeCode: "webpay", country: "CL", currencies: ["CLP"], unit: "major", min: "500", max: "5000000", page: "redirect_url", needs: named, servable: true }
]

/** The catalog's sandbox test methods, by the real rail they mirror. */
export const sandboxMirrors: Readonly<Record<string, string>> = {
  sbx_pix: "1001",
  sbx_spei: "1031",
  sbx_pse: "1047",
  sbx_cash: "1033"
}

const byId = new Map(rails.map((rail) => [rail.catalogId, rail]))

/** The rail of a catalog method (a sandbox test method answers the rail it mirrors). */
export const railOf = (method: Pick<PaymentMethodDef, "id">): Rail | undefined =>
  byId.get(Object.hasOwn(sandboxMirrors, method.id) ? sandboxMirrors[method.id]! : method.id)

/** The rail of a method, when the engine can charge it through EBANX. */
export const servedRailOf = (method: Pick<PaymentMethodDef, "id">): Rail | undefined => {
  const rail = railOf(method)
  return rail?.servable === true ? rail : undefined
}

/** What EBANX needs on the method's rail beyond what the catalog already requires. */
export const requiredBeyondCatalog = (method: Pick<PaymentMethodDef, "id" | "requires">): ReadonlyArray<RequiredField> =>
  (railOf(method)?.needs ?? []).filter((field) => !method.requires.includes(field))

/** Every `payment_type_code` the connector knows. */
export const paymentTypeCodes: ReadonlySet<string> = new Set(rails.map((rail) => rail.paymentTypeCode))
