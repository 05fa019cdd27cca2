/**
 * The sandbox's 3-D Secure test cards: on `sbx_card` with a card token, the card's BIN (first six)
 * and last four, as the vault describes the token, pick the 3-D Secure flow. The provider never
 * sees a number, so it holds only those two parts; the whole test numbers (Luhn-valid, so the
 * vault and the hosted card fields take them) are listed in this folder's README and the merchant
 * guide. Any other card, or a charge with `Sandbox-Simulate`, is served as before.
 *
 * - frictionless: authenticated without the buyer, completed at once;
 * - challenge: pending with `nextAction` to the sandbox challenge page;
 * - failed: authentication refused, declined `authentication_failed`, the payment fails;
 * - required: declined `authentication_required` unless asked with 3-D Secure, then challenge.
 */
import type { ChargeCard } from "../../core/ports/CardVault.ts"

export type ThreeDSecureFlow = "frictionless" | "challenge" | "failed" | "required"

interface ThreeDSecureCard {
  readonly bin6: string
  readonly last4: string
  readonly flow: ThreeDSecureFlow
}

const threeDSecureCards: ReadonlyArray<ThreeDSecureCard> = [
  { bin6: "400000", last4: "3055", flow: "frictionless" },
  { bin6: "400000", last4: "3220", flow: "challenge" },
  { bin6: "400000", last4: "1629", flow: "failed" },
  { bin6: "400000", last4: "3184", flow: "required" }
]

/** The flow a card picks: by its BIN's first six digits and its last four; none for any other card. */
export const threeDSecureFlowOf = (card: Pick<ChargeCard, "bin" | "last4"> | undefined): ThreeDSecureFlow | undefined =>
  card === undefined
    ? undefined
    : threeDSecureCards.find((c) => card.bin.slice(0, 6) === c.bin6 && card.last4 === c.last4)?.flow
