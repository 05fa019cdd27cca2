/**
 * The catalog rails (`core/catalog/methods.ts`) the Pagar.me connector charges through the Core
 * API v5 (`POST /orders`), with Pagar.me's own `payment_method` for each.
 *
 * - Amounts travel in CENTAVOS, as JSON integers (`"amount": 2990` is R$ 29,90): see
 *   {@link toCentavos}, which turns the engine's `BigDecimal` into an integer without any float.
 * - Limits are the catalog's: the Pagar.me pages used (README) publish no per-method bounds.
 * - `needs` is the buyer data the connector sends Pagar.me for the rail: the customer's `name`,
 *   `email`, `document` (+ `type`, `document_type`) and a phone on every order (the documented
 *   PIX example carries them all), and the billing address for boleto
 *   (`boleto.billing_address` / `customer.address`).
 * - Cards (`credit_card`) are rails per brand (Visa, Mastercard, Elo, Hipercard, Amex, Diners:
 *   the brands Pagar.me's credit card page lists for Brazil). The card's number never reaches
 *   the plugin: its `POST /orders` goes through the card vault (`CardCharge.ts`) with
 *   placeholders, so a card rail is served only where a vault is there to forward it, and a
 *   charge without a card (`ChargeRequest.card`) is refused before any call.
 * - The catalog's sandbox test method `sbx_pix` mirrors PIX (Pagar.me's test environment is the
 *   same API with an `sk_test_` key).
 */
import { BigDecimal, Option } from "effect"
import type { CardBrand, PaymentMethodDef, RequiredField } from "../../core/ports/index.ts"

export interface Rail {
  /** The catalog's permanent service id. */
  readonly catalogId: string
  /** Pagar.me's `payments[].payment_method`. */
  readonly paymentMethod: "pix" | "boleto" | "credit_card"
  /** A card rail's brand: the card's own brand must be it. */
  readonly brand?: CardBrand | undefined
  readonly country: "BR"
  readonly currency: "BRL"
  /** `centavos`: integer minor units. */
  readonly unit: "centavos"
  /** Decimal text in reais (the catalog's bounds). */
  readonly min: string
  readonly max: string
  /** Buyer data the connector sends Pagar.me for the rail. */
  readonly needs: ReadonlyArray<RequiredField>
}

const buyer: ReadonlyArray<RequiredField> = ["userName", "userEmail", "documentId", "userPhone"]
/** An order's customer (`name`, `email`, `document`, `type`) is required; a card order needs no phone. */
const cardBuyer: ReadonlyArray<RequiredField> = ["userName", "userEmail", "documentId"]

export const rails: ReadonlyArray<Rail> = [
  { catalogId: "1001", paymentMethod: "pix", country: "BR", currency: "BRL", unit: "centavos", min: "1", max: "50000", needs: buyer },
  {
    catalogId: "1002", paymentMethod: "boleto", country: "BR", currency: "BRL", unit: "centavos", min: "5", max: "50000",
    needs: [...buyer, "userAddress"]
  },
  ...([["1004", "visa"], ["1005", "mastercard"], ["1006", "elo"], ["1007", "hipercard"], ["1008", "amex"], ["1009", "diners"]] as const).map(
    ([catalogId, brand]): Rail => ({
      catalogId, paymentMethod: "credit_card", brand, country: "BR", currency: "BRL", unit: "centavos", min: "1", max: "30000", needs: cardBuyer
    })
  )
]

/** Whether the rail is a card's (charged through the card vault). */
export const isCardRail = (rail: Rail) => rail.paymentMethod === "credit_card"

/** The catalog's sandbox test methods, by the real rail they mirror. */
export const sandboxMirrors: Readonly<Record<string, string>> = { sbx_pix: "1001", sbx_card: "1004" }

const byId = new Map(rails.map((rail) => [rail.catalogId, rail]))

/** The rail of a catalog method (a sandbox test method answers the rail it mirrors). */
export const railOf = (method: Pick<PaymentMethodDef, "id">): Rail | undefined =>
  byId.get(Object.hasOwn(sandboxMirrors, method.id) ? sandboxMirrors[method.id]! : method.id)

/** What Pagar.me needs on the method's rail beyond what the catalog already requires. */
export const requiredBeyondCatalog = (method: Pick<PaymentMethodDef, "id" | "requires">): ReadonlyArray<RequiredField> =>
  (railOf(method)?.needs ?? []).filter((field) => !method.requires.includes(field))

const hundred = BigDecimal.fromBigInt(100n)

/**
 * Reais -> centavos, exactly: `29.9` -> `2990`. `None` when the amount has a fraction of a
 * centavo (the engine rounds BRL to 2 digits, so this is a guard, not a rounding).
 */
export const toCentavos = (amount: BigDecimal.BigDecimal): Option.Option<number> => {
  const scaled = BigDecimal.normalize(BigDecimal.multiply(amount, hundred))
  if (scaled.scale > 0) return Option.none()
  const centavos = scaled.value * 10n ** BigInt(-scaled.scale)
  return centavos > BigInt(Number.MAX_SAFE_INTEGER) ? Option.none() : Option.some(Number(centavos))
}

/** Centavos (a JSON integer) -> reais, exactly: `2990` -> `29.90`. */
export const fromCentavos = (centavos: number): BigDecimal.BigDecimal => BigDecimal.make(BigInt(centavos), 2)
