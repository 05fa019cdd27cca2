/**
 * The catalog rails (`core/catalog/methods.ts`) the Mercado Pago connector charges through
 * `POST /v1/payments`, with Mercado Pago's own `payment_method_id` for each.
 *
 * - Amounts travel in MAJOR units of the rail's currency (`transaction_amount: 150.5`), as a JSON
 *   number written from decimal text (see `MercadoPagoProvider.ts`).
 * - Limits are the catalog's for the rail: the Mercado Pago pages used (README) publish no other
 *   per-method bounds for these rails, and `GET /v1/payment_methods` (not called by the connector)
 *   answers each account's own `min_allowed_amount` / `max_allowed_amount`.
 * - The sandbox test methods of the catalog (`sbx_*`) mirror a real rail and map to the same
 *   `payment_method_id` (Mercado Pago's test environment is the same API with a `TEST-` token).
 * - `served: false`: Mercado Pago's API takes the method (the simulator accepts it), but the
 *   engine's API cannot carry what a charge on it needs, so the connector does not `supports` it
 *   ("a rail is routable only if a charge on it can succeed with the data the API accepts"). PSE
 *   needs the buyer's own bank (`transaction_details.financial_institution`, a code from Mercado
 *   Pago's `GET /v1/payment_methods` list) and, in its current version, the buyer's phone and
 *   address; one configured bank for every buyer would send most buyers to a bank not theirs.
 * - Boleto needs the buyer's address (BACEN rule, 2024): `MercadoPagoProvider.requires` says so
 *   and the engine refuses a boleto charge without `customer.address` before any call.
 * - Cards are rails per brand, with Mercado Pago's brand word as `payment_method_id` (`visa`,
 *   `master`, `amex`, `elo`, `hipercard` in Brazil; `visa`, `master`, `amex` in Mexico: the
 *   brands of the test-card pages, https://www.mercadopago.com.br/developers/en/docs/checkout-api-payments/integration-test/test-cards
 *   and https://mercadopago.com.mx/developers/en/docs/checkout-api/integration-test/test-cards).
 *   The card goes through the card vault (`CardCharge.ts`), so a card rail is served only where a
 *   vault is there to forward it. Diners (Brazil) and Carnet (Mexico) are not: no Mercado Pago
 *   page used here names their `payment_method_id` (README, "Cards").
 */
import type { CardBrand, PaymentMethodDef } from "../../core/ports/index.ts"

export interface Rail {
  /** The catalog's permanent service id. */
  readonly catalogId: string
  /** Mercado Pago's `payment_method_id`. */
  readonly paymentMethodId: string
  readonly country: string
  readonly currency: string
  /** `major`: `transaction_amount` is in major units (reais, pesos), decimals allowed. */
  readonly unit: "major"
  /** Decimal text in major units. */
  readonly min: string
  readonly max: string
  /** Whether the connector charges it (see the header). */
  readonly served: boolean
  /** A card rail's brand: the card's own brand must be it. */
  readonly brand?: CardBrand | undefined
}

const cardRail = (catalogId: string, brand: CardBrand, paymentMethodId: string, country: "BR" | "MX"): Rail =>
  country === "BR"
    ? { catalogId, paymentMethodId, brand, served: true, country, currency: "BRL", unit: "major", min: "1", max: "30000" }
    : { catalogId, paymentMethodId, brand, served: true, country, currency: "MXN", unit: "major", min: "10", max: "200000" }

export const rails: ReadonlyArray<Rail> = [
  { catalogId: "1001", paymentMethodId: "pix", served: true, country: "BR", currency: "BRL", unit: "major", min: "1", max: "50000" },
  { catalogId: "1002", paymentMethodId: "bolbradesco", served: true, country: "BR", currency: "BRL", unit: "major", min: "5", max: "50000" },
  { catalogId: "1003", paymentMethodId: "pec", served: true, country: "BR", currency: "BRL", unit: "major", min: "5", max: "3000" },
  { catalogId: "1033", paymentMethodId: "oxxo", served: true, country: "MX", currency: "MXN", unit: "major", min: "10", max: "10000" },
  { catalogId: "1047", paymentMethodId: "pse", served: false, country: "CO", currency: "COP", unit: "major", min: "1000", max: "20000000" },
  cardRail("1004", "visa", "visa", "BR"),
  cardRail("1005", "mastercard", "master", "BR"),
  cardRail("1006", "elo", "elo", "BR"),
  cardRail("1007", "hipercard", "hipercard", "BR"),
  cardRail("1008", "amex", "amex", "BR"),
  cardRail("1042", "visa", "visa", "MX"),
  cardRail("1043", "mastercard", "master", "MX"),
  cardRail("1044", "amex", "amex", "MX")
]

/** Whether the rail is a card's (charged through the card vault). */
export const isCardRail = (rail: Rail): boolean => rail.brand !== undefined

/** The catalog's sandbox test methods, by the real rail they mirror. */
export const sandboxMirrors: Readonly<Record<string, string>> = {
  sbx_pix: "1001",
  sbx_pse: "1047",
  sbx_cash: "1033",
  sbx_card: "1004"
}

const byId = new Map(rails.map((rail) => [rail.catalogId, rail]))

/**
 * The rail the connector charges for a catalog method (a sandbox test method answers the rail it
 * mirrors); undefined when Mercado Pago has none or it is not served.
 */
export const railOf = (method: Pick<PaymentMethodDef, "id">): Rail | undefined => {
  const rail = byId.get(Object.hasOwn(sandboxMirrors, method.id) ? sandboxMirrors[method.id]! : method.id)
  return rail?.served === true ? rail : undefined
}

/** Mercado Pago's `payment_method_id` for boleto: the buyer's address is required. */
export const boletoPaymentMethodId = "bolbradesco"

/** Mercado Pago's `payment_method_id` for PSE. */
export const psePaymentMethodId = "pse"
