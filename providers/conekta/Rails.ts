/**
 * The catalog rails (`core/catalog/methods.ts`) the Conekta connector charges through
 * `POST /orders`, with Conekta's own `charges[].payment_method.type` for each.
 *
 * - Amounts travel in MINOR units (centavos) as JSON integers (`unit_price`, `charges[].amount`):
 *   `Wire.centavosOf` turns the engine's decimal into an integer exactly, never through a float.
 * - Limits are the catalog's for the rail. The Conekta pages used (README) publish no per-method
 *   bound for these rails; the simulator refuses below `min` and above `max` as the account
 *   would (see "Not confirmed from public material").
 * - `needs` is the buyer data Conekta requires: `customer_info` is `name`, `email` and `phone`,
 *   all three required by the API reference (`customer_info.yml`), on every order.
 * - `payPage`: `barcode` when Conekta's answer carries a page the buyer can be sent to (the cash
 *   voucher's `barcode_url`); `none` when it carries none (SPEI answers only the CLABE): such a
 *   rail is served only when the account configures an instructions page (`INSTRUCTIONS_URL`).
 * - Cards are NOT served: Conekta's direct API charges a card only with a `token_id` made by
 *   Conekta's JS in the buyer's browser, which the engine's API cannot carry. Conekta's hosted
 *   checkout (`checkout.type: HostedPayment`, answered with `checkout.url`) would let the buyer
 *   type the card on Conekta's page, but it requires `success_url` and `failure_url`, which the
 *   engine's `ChargeRequest` does not carry (README, "Cards").
 * - The sandbox test methods of the catalog (`sbx_*`) mirror a real rail (Conekta's test mode is
 *   the same API with a `key_test_...`-style private key).
 */
import type { PaymentMethodDef, RequiredField } from "../../core/ports/index.ts"

export interface Rail {
  /** The catalog's permanent service id. */
  readonly catalogId: string
  /** Conekta's `payment_method.type` of the charge. */
  readonly paymentMethodType: "cash" | "spei"
  readonly country: "MX"
  readonly currency: "MXN"
  /** `minor`: centavos, JSON integers. */
  readonly unit: "minor"
  /** Decimal text in MAJOR units (the catalog's bounds). */
  readonly min: string
  readonly max: string
  readonly needs: ReadonlyArray<RequiredField>
  readonly payPage: "barcode" | "none"
}

/** `customer_info` requires name, email and phone. */
export const customerInfo: ReadonlyArray<RequiredField> = ["userName", "userEmail", "userPhone"]

export const rails: ReadonlyArray<Rail> = [
  { catalogId: "1031", paymentMethodType: "spei", country: "MX", currency: "MXN", unit: "minor", min: "10", max: "500000", needs: customerInfo, payPage: "none" },
  { catalogId: "1033", paymentMethodType: "cash", country: "MX", currency: "MXN", unit: "minor", min: "10", max: "10000", needs: customerInfo, payPage: "barcode" }
]

/** The catalog's sandbox test methods, by the real rail they mirror. */
export const sandboxMirrors: Readonly<Record<string, string>> = {
  sbx_spei: "1031",
  sbx_cash: "1033"
}

const byId = new Map(rails.map((rail) => [rail.catalogId, rail]))

/** The rail of a catalog method (a sandbox test method answers the rail it mirrors). */
export const railOf = (method: Pick<PaymentMethodDef, "id">): Rail | undefined =>
  byId.get(Object.hasOwn(sandboxMirrors, method.id) ? sandboxMirrors[method.id]! : method.id)

/** What Conekta needs on the method's rail beyond what the catalog already requires. */
export const requiredBeyondCatalog = (method: Pick<PaymentMethodDef, "id" | "requires">): ReadonlyArray<RequiredField> =>
  (railOf(method)?.needs ?? []).filter((field) => !method.requires.includes(field))
