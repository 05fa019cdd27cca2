/**
 * Card orders in the Pagar.me simulator (`PagarmeSimulator.ts`): what an `auth_and_capture`
 * credit card order ends in, by the card it carries. A test tool, never imported by the plugin.
 *
 * Documented by Pagar.me (test keys, https://docs.pagar.me/docs/simulador-de-cart%C3%A3o-de-cr%C3%A9dito
 * and https://docs.pagar.me/docs/simulador-psp):
 * - `4000000000000010`: paid (order `paid`, charge `paid`, transaction `captured`);
 * - `4000000000000028`: refused (order `failed`, charge `failed`, transaction `not_authorized`);
 * - `4000000000000036`: processing, then paid (order `pending`, charge `processing`, the
 *   transaction first in error; the acquirer confirms it later: `complete(chargeId)` here);
 * - any other number valid by Luhn: paid, unless its security code starts with `6` (refused by
 *   the issuer) or the buyer's document is `11111111111` (refused by the antifraud).
 *
 * OURS, not Pagar.me's (outcomes its pages do not document; the return codes are ABECS codes):
 * `4000000000009953` insufficient funds (`51`), `4000000000009979` stolen card (`43`),
 * `4000000000009987` lost card (`41`), `4000000000000069` expired card (`54`),
 * `4000000000000127` invalid card (`14`), `4000000000000911` issuer unavailable (`91`, soft),
 * `4000000000000960` processing error (`96`, soft), `4000000000001018` authentication required
 * (`1A`, soft: the issuer wants 3-D Secure), `4000000000000341` no answer in time (the
 * order is made paid, and its answer comes after the simulator's `slowMs`).
 *
 * An `auth_only` order (`credit_card.operation_type`) of a card that would be paid is held instead:
 * charge `pending`, transaction `authorized_pending_capture` (`SimulatorCapture.ts` captures or
 * voids it). A card that is refused is refused either way.
 *
 * A number that fails Luhn, a month outside 1-12 or a card past its month is refused `422` by field.
 */
import type { SimTransaction } from "./SimulatorRules.ts"

export interface CardOutcome {
  readonly chargeStatus: "paid" | "failed" | "processing" | "pending"
  readonly transactionStatus: "captured" | "not_authorized" | "with_error" | "failed" | "authorized_pending_capture"
  readonly returnCode?: string | undefined
  readonly message: string
  readonly antifraudReproved?: boolean | undefined
  /** The answer is late (`slowMs`): a lost answer for a made order. */
  readonly late?: boolean | undefined
}

const paid: CardOutcome = { chargeStatus: "paid", transactionStatus: "captured", returnCode: "00", message: "Transação aprovada com sucesso" }
const refused = (returnCode: string | undefined, message: string): CardOutcome => ({
  chargeStatus: "failed", transactionStatus: "not_authorized", returnCode, message
})

export const documentedCards: Readonly<Record<string, CardOutcome>> = {
  "4000000000000010": paid,
  "4000000000000028": refused(undefined, "Transação não autorizada"),
  "4000000000000036": { chargeStatus: "processing", transactionStatus: "with_error", message: "Transação em processamento" }
}

export const ourCards: Readonly<Record<string, CardOutcome>> = {
  "4000000000009953": refused("51", "Saldo/limite insuficiente (simulador)"),
  "4000000000009979": refused("43", "Cartão roubado (simulador)"),
  "4000000000009987": refused("41", "Cartão perdido (simulador)"),
  "4000000000000069": refused("54", "Cartão vencido (simulador)"),
  "4000000000000127": refused("14", "Cartão inválido (simulador)"),
  "4000000000000911": refused("91", "Emissor indisponível (simulador)"),
  "4000000000000960": refused("96", "Erro no processamento (simulador)"),
  "4000000000001018": refused("1A", "Autenticação requerida (simulador)"),
  "4000000000000341": { ...paid, late: true }
}

export const luhn = (digits: string) => {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

export interface SimCard {
  readonly number: string
  readonly holder_name: string
  readonly exp_month: number
  readonly exp_year: number
  readonly cvv?: string | undefined
}

/** Why the card is refused `422`, by field (`undefined`: it is not). */
export const cardRefusal = (card: SimCard | undefined, now: Date): Record<string, ReadonlyArray<string>> | undefined => {
  const path = "order.payments[0].credit_card.card"
  if (card === undefined) return { [path]: ["The card field is required."] }
  const errors: Record<string, Array<string>> = {}
  if (!luhn(card.number)) errors[`${path}.number`] = ["The card number is invalid."]
  if (card.holder_name.trim() === "") errors[`${path}.holder_name`] = ["The holder_name field is required."]
  if (card.exp_month < 1 || card.exp_month > 12) errors[`${path}.exp_month`] = ["The exp_month must be between 1 and 12."]
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year
  if (year * 12 + card.exp_month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) errors[`${path}.exp_year`] = ["The card is expired."]
  return Object.keys(errors).length === 0 ? undefined : errors
}

export const cardOutcomeOf = (card: SimCard, document: string | undefined): CardOutcome =>
  documentedCards[card.number] ?? ourCards[card.number] ?? (
    document === "11111111111"
      ? { chargeStatus: "failed", transactionStatus: "failed", message: "Transação recusada pelo antifraude", antifraudReproved: true }
      : (card.cvv ?? "").startsWith("6")
      ? refused(undefined, "Transação recusada pelo emissor")
      : paid
  )

/** The brand Pagar.me would read from the number (enough for the test cards). */
export const brandOf = (number: string) =>
  /^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number) ? "Elo"
  : /^(606282|3841)/.test(number) ? "Hipercard" : /^4/.test(number) ? "Visa" : /^(5[1-5]|2[2-7])/.test(number) ? "Mastercard"
  : /^3[47]/.test(number) ? "Amex" : /^3(0[0-5]|[68])/.test(number) ? "Diners" : "Unknown"

/** A card order's payment transaction, or why the card is refused. */
export const cardPayment = (
  body: {
    readonly payments: ReadonlyArray<{ readonly credit_card?: { readonly card?: SimCard | undefined; readonly operation_type?: string | undefined } | undefined }>
    readonly customer?: { readonly document?: string | undefined } | undefined
  },
  id: string,
  amount: number,
  at: string
): { readonly refusal: Record<string, ReadonlyArray<string>> } | { readonly outcome: CardOutcome; readonly transaction: SimTransaction } => {
  const card = body.payments[0]?.credit_card?.card
  const refusal = cardRefusal(card, new Date(at))
  if (refusal !== undefined || card === undefined) return { refusal: refusal ?? {} }
  const operationType = body.payments[0]?.credit_card?.operation_type ?? "auth_and_capture"
  const asked = cardOutcomeOf(card, body.customer?.document)
  // `auth_only`: an approved card is held (charge `pending`, transaction
  // `authorized_pending_capture`) until `POST /charges/{id}/capture` or `DELETE /charges/{id}`.
  const outcome: CardOutcome = operationType === "auth_only" && asked.chargeStatus === "paid"
    ? { ...asked, chargeStatus: "pending", transactionStatus: "authorized_pending_capture", message: "Transação autorizada" }
    : asked
  return {
    outcome,
    transaction: {
      id, kind: "payment", type: "credit_card", amount, status: outcome.transactionStatus, createdAt: at, updatedAt: at,
      acquirerReturnCode: outcome.returnCode, acquirerMessage: outcome.message, antifraudReproved: outcome.antifraudReproved, operationType,
      card: {
        id: `card_${id.slice(5)}`, first_six_digits: card.number.slice(0, 6), last_four_digits: card.number.slice(-4),
        brand: brandOf(card.number), holder_name: card.holder_name, exp_month: card.exp_month, exp_year: card.exp_year, status: "active", type: "credit"
      }
    }
  }
}
