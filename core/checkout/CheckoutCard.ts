/**
 * The hosted checkout's card step. A buyer who picks a card rail is sent to the card vault's
 * page (its own origin: the card number goes from the browser to the vault, never here) with a
 * session whose return is `/checkout/{token}/card?state=...`; the state is a fresh secret of
 * this checkout, kept as its SHA-256 with the rail picked and an expiry on the real clock (the
 * vault's session is on real time too). On return the state is checked in constant time and the
 * card's brand picks the rail: of the checkout's card rails, the one of the card's brand (so a
 * buyer who tapped "Visa" and typed a Mastercard pays on the Mastercard rail), else the picked
 * rail if it takes any brand (the sandbox's `sbx_card`), else the brand is refused.
 */
import { Schema } from "effect"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import type { CardBrand } from "../ports/CardVault.ts"
import { railBrand } from "../payments/CreateCard.ts"

/** How long the vault's card page and the return to it are good for. */
export const cardStepTtlSeconds = 10 * 60

export const CardStep = Schema.Struct({
  /** Lowercase hex SHA-256 of the state the vault's return carries; the state itself is never stored. */
  stateHash: Schema.String,
  /** The card rail the buyer picked. */
  paymentMethodId: Schema.String,
  expiresAt: Schema.DateTimeUtc
})
export type CardStep = typeof CardStep.Type

/** Why a return from the card page is refused: an unknown, used or expired state, or a card no rail of the checkout takes. */
export class CardStepRefused extends Schema.TaggedError<CardStepRefused>()("CardStepRefused", {
  reason: Schema.Literals(["state", "brand"]),
  cardBrand: Schema.optional(Schema.String)
}) {}

/** The rail a card of `brand` is charged on, among the checkout's card rails; undefined when none takes it. */
export const railForBrand = (
  offered: ReadonlyArray<PaymentMethodDef>,
  picked: string,
  brand: CardBrand
): PaymentMethodDef | undefined => {
  const cardRails = offered.filter((m) => m.channel === "CREDIT_CARD")
  const chosen = cardRails.find((m) => m.id === picked)
  if (chosen !== undefined && railBrand(chosen) === brand) return chosen
  const ofBrand = cardRails.find((m) => railBrand(m) === brand)
  if (ofBrand !== undefined) return ofBrand
  return chosen !== undefined && railBrand(chosen) === undefined ? chosen : undefined
}
