/**
 * The dLocal simulator's card payments: `POST /secure_payments` (`CardWire.ts`), on the same
 * payment store as the other rails. Test tooling, never imported by the plugin.
 *
 * - The request must be signed over the body as received (the server checks it before this
 *   runs), so a card charge proves the vault signed the filled body (`ForwardRequest.bodyHmac`).
 * - The card: `number` digits that pass Luhn (else `REJECTED 314`), `cvv` 3 or 4 digits when
 *   present (else `REJECTED 315`), `holder_name` and the expiry present (else `400 5001`), an
 *   expiry not past (else `REJECTED 309`); `payment_method_id` `CARD`, flow `DIRECT`, and the
 *   payer and amount checks of `POST /payments`.
 * - Outcomes. dLocal documents that its sandbox takes "the desired status code in the
 *   description field" (https://docs.dlocal.com/reference/payment-status-codes): a `description`
 *   that is one of the rejection codes answers `REJECTED` with it, `101` a 3-D Secure step. The
 *   connector's description is its own, so the simulator also reads outcomes from card numbers:
 *   {@link outcomeByNumber}. `4111111111111111` is the number of dLocal's card examples
 *   (https://docs.dlocal.com/docs/card-payments) and is paid; the other numbers are the
 *   simulator's own (README, "Cards": not dLocal's published test cards).
 */
import type { Answer } from "../kit/SimulatorServer.ts"
import * as CardWire from "./CardWire.ts"

export interface SimulatedCard {
  readonly brand: string
  readonly last4: string
  readonly holderName: string
  readonly expMonth: number
  readonly expYear: number
}

/** What a card number answers: paid, a rejection code, a 3-D Secure step, or a slow answer. */
export type CardOutcome = { readonly status: "PAID" } | { readonly status: "REJECTED"; readonly code: string } | { readonly status: "CHALLENGE" } | { readonly status: "SLOW" }

export const outcomeByNumber: Readonly<Record<string, CardOutcome>> = {
  "4111111111111111": { status: "PAID" },
  "5555555555554444": { status: "PAID" },
  "378282246310005": { status: "PAID" },
  "4000000000000002": { status: "REJECTED", code: "302" },
  "4000000000000010": { status: "REJECTED", code: "313" },
  "4000000000000028": { status: "REJECTED", code: "301" },
  "4000000000000036": { status: "CHALLENGE" },
  "4000000000000044": { status: "REJECTED", code: "320" },
  "4000000000000051": { status: "REJECTED", code: "321" },
  "4000000000000069": { status: "SLOW" },
  "4000000000000077": { status: "REJECTED", code: "307" }
}

const rejectionDetails: Readonly<Record<string, string>> = {
  "301": "Rejected by bank.",
  "302": "Insufficient amount.",
  "307": "Duplicated payment.",
  "309": "Card expired.",
  "313": "Card reported stolen.",
  "314": "Invalid card number.",
  "315": "Invalid security code.",
  "320": "3D-Secure is required.",
  "321": "Error in acquirer."
}

export const detailOf = (code: string) => rejectionDetails[code] ?? "The payment was rejected."

const luhn = (digits: string) => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

/** dLocal's brand code for a number (`VI`, `MC`, `AE`, `DC`, as its examples answer `brand`). */
export const brandCodeOf = (number: string) =>
  /^4/.test(number) ? "VI" : /^(5[1-5]|2[2-7])/.test(number) ? "MC" : /^3[47]/.test(number) ? "AE" : /^3(0|6|8)/.test(number) ? "DC" : "XX"

export interface CardVerdict {
  readonly card: SimulatedCard
  readonly outcome: CardOutcome
}

/** Checks the card object and says what the payment does; a refusal is the answer itself. */
export const judge = (card: CardWire.CardObject, description: string | undefined, nowMs: number): CardVerdict | Answer => {
  if (card.holder_name.trim() === "") return { status: 400, body: { code: 5001, message: "Invalid parameter: card.holder_name" } }
  const number = card.number
  const simulated: SimulatedCard = {
    brand: brandCodeOf(number),
    last4: number.slice(-4),
    holderName: card.holder_name,
    expMonth: card.expiration_month,
    expYear: card.expiration_year
  }
  const rejected = (code: string): CardVerdict => ({ card: simulated, outcome: { status: "REJECTED", code } })
  if (!/^\d{13,19}$/.test(number) || !luhn(number)) return rejected("314")
  if (card.cvv !== undefined && !/^\d{3,4}$/.test(card.cvv)) return rejected("315")
  const now = new Date(nowMs)
  const expired = card.expiration_year < now.getUTCFullYear() ||
    (card.expiration_year === now.getUTCFullYear() && card.expiration_month < now.getUTCMonth() + 1)
  if (card.expiration_month < 1 || card.expiration_month > 12 || expired) return rejected("309")
  const asked = description?.trim() ?? ""
  if (asked === CardWire.pendingThreeDSecure) return { card: simulated, outcome: { status: "CHALLENGE" } }
  if (/^3\d\d$/.test(asked)) return rejected(asked)
  return { card: simulated, outcome: outcomeByNumber[number] ?? { status: "PAID" } }
}

export const isAnswer = (verdict: CardVerdict | Answer): verdict is Answer => "status" in verdict && typeof verdict.status === "number"
