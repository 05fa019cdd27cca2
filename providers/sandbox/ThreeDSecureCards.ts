/**
 * The sandbox's 3-D Secure test cards: on `sbx_card` with a card token, the card's BIN and last
 * four (as the vault describes the token) pick the 3-D Secure flow. Every number is Luhn-valid,
 * so the vault (and the hosted card fields) take it; any other card, or a charge with
 * `Sandbox-Simulate`, is served as before. Listed in this folder's README and the merchant guide.
 *
 * | card number         | flow             | what happens                                                                  |
 * |---------------------|------------------|-------------------------------------------------------------------------------|
 * | 4000 0000 0000 3055 | frictionless     | authenticated without the buyer: completed at once                            |
 * | 4000 0000 0000 3220 | challenge        | pending with `nextAction` to the sandbox challenge page                       |
 * | 4000 0084 0000 1629 | failed           | authentication refused: declined `authentication_failed`, the payment fails   |
 * | 4000 0027 6000 3184 | required         | declined `authentication_required` unless asked with 3-D Secure, then challenge |
 */
import type { ChargeCard } from "../../core/ports/CardVault.ts"

export type ThreeDSecureFlow = "frictionless" | "challenge" | "failed" | "required"

export interface ThreeDSecureCard {
  readonly number: string
  readonly flow: ThreeDSecureFlow
}

export const threeDSecureCards: ReadonlyArray<ThreeDSecureCard> = [
  { number: "4000000000003055", flow: "frictionless" },
  { number: "4000000000003220", flow: "challenge" },
  { number: "4000008400001629", flow: "failed" },
  { number: "4000002760003184", flow: "required" }
]

/** The flow a card picks: by its BIN's first six digits and its last four; none for any other card. */
export const threeDSecureFlowOf = (card: Pick<ChargeCard, "bin" | "last4"> | undefined): ThreeDSecureFlow | undefined =>
  card === undefined
    ? undefined
    : threeDSecureCards.find((c) => card.bin.slice(0, 6) === c.number.slice(0, 6) && card.last4 === c.number.slice(-4))?.flow
