/** Which card brand a card rail of the catalog takes: what the create, routing rules and the checkout's card step check a card against. */
import type { CardBrand } from "../ports/CardVault.ts"
import type { PaymentMethodDef } from "./PaymentMethod.ts"

/** The card brand a rail names (`core/catalog/methods.ts`); none for a rail that takes any card (`sbx_card`, the sandbox's). */
export const railBrand = (method: PaymentMethodDef): CardBrand | undefined => {
  if (method.channel !== "CREDIT_CARD" || method.sandboxOnly === true) return undefined
  return brandsByName[method.name]
}

const brandsByName: Readonly<Record<string, CardBrand>> = {
  Visa: "visa",
  Mastercard: "mastercard",
  "American Express": "amex",
  Elo: "elo",
  Hipercard: "hipercard",
  "Diners Club": "diners",
  Discover: "discover",
  Carnet: "carnet"
}

