/**
 * The catalog rails (`core/catalog/methods.ts`) the EBANX connector charges through
 * `POST /ws/direct`, with EBANX's own `payment_type_code` for each
 * (https://docs.ebanx.com/docs/resources/payment-type-codes).
 *
 * - Amounts travel in MAJOR units of the charge's currency (`amount_total: 150.5`), as a JSON
 *   number written from decimal text (see `EbanxProvider.ts`).
 * - Limits are the catalog's for the rail: EBANX enforces its own per account and answers
 *   `BP-DR-6` (below the minimum) or `BP-DR-7` (above the maximum), both final refusals.
 * - `page` is the field of EBANX's payment that holds the buyer's page for the rail (voucher,
 *   boleto, bank redirect); the connector falls back on the others when EBANX answers another.
 * - The sandbox test methods of the catalog (`sbx_*`) mirror a real rail and map to the same
 *   `payment_type_code` (EBANX's sandbox is the same API at `sandbox.ebanxpay.com`).
 */
import type { PaymentMethodDef } from "../../core/catalog/PaymentMethod.ts"

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
  readonly page: "voucher_url" | "boleto_url" | "redirect_url"
}

export const rails: ReadonlyArray<Rail> = [
  { catalogId: "1001", paymentTypeCode: "pix", country: "BR", currencies: ["BRL"], unit: "major", min: "1", max: "50000", page: "voucher_url" },
  { catalogId: "1002", paymentTypeCode: "boleto", country: "BR", currencies: ["BRL"], unit: "major", min: "5", max: "50000", page: "boleto_url" },
  { catalogId: "1031", paymentTypeCode: "spei", country: "MX", currencies: ["MXN"], unit: "major", min: "10", max: "500000", page: "voucher_url" },
  { catalogId: "1033", paymentTypeCode: "oxxo", country: "MX", currencies: ["MXN"], unit: "major", min: "10", max: "10000", page: "voucher_url" },
  { catalogId: "1047", paymentTypeCode: "pse", country: "CO", currencies: ["COP"], unit: "major", min: "1000", max: "20000000", page: "redirect_url" },
  { catalogId: "1051", paymentTypeCode: "efecty", country: "CO", currencies: ["COP"], unit: "major", min: "5000", max: "3000000", page: "voucher_url" },
  { catalogId: "1061", paymentTypeCode: "pagoefectivo", country: "PE", currencies: ["PEN", "USD"], unit: "major", min: "1", max: "20000", page: "voucher_url" },
  { catalogId: "1075", paymentTypeCode: "webpay", country: "CL", currencies: ["CLP"], unit: "major", min: "500", max: "5000000", page: "redirect_url" }
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

/** Every `payment_type_code` the connector sends. */
export const paymentTypeCodes: ReadonlySet<string> = new Set(rails.map((rail) => rail.paymentTypeCode))
