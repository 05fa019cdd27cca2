/**
 * What a Pagar.me credit card charge answers, as the connector reads it: the card transaction's
 * statuses (exhaustive by type, `StatusMap.ts`) and the acquirer's return code as one of the
 * engine's `CardDecline` words.
 *
 * - The order (`POST /orders` with `payments[0].payment_method: "credit_card"`,
 *   https://docs.pagar.me/reference/cart%C3%A3o-de-cr%C3%A9dito-1) answers its charge and the
 *   charge's `last_transaction` (`transaction_type: "credit_card"`). The test-card page
 *   (https://docs.pagar.me/docs/simulador-de-cart%C3%A3o-de-cr%C3%A9dito) names the three states
 *   an `auth_and_capture` order ends in: paid (order `paid`, charge `paid`, transaction
 *   `captured`), refused (order `failed`, charge `failed`, transaction `not_authorized`), and
 *   processing (order `pending`, charge `processing`, settled later by the acquirer).
 * - Transaction statuses beyond those three are the official SDK's and Pagar.me's module core's
 *   words (README, "Not confirmed"); one not listed waits (`pending`), never a success.
 * - The return code: `last_transaction.acquirer_return_code` (and `acquirer_message`). Brazil's
 *   acquirers answer the ABECS codes (Normativo 21, as Cielo publishes them:
 *   https://developercielo.github.io/tutorial/abecs-e-outros-codigos); the table below reads the
 *   ones with one clear meaning. A refusal with a code not listed is `do_not_honour` (soft: the
 *   issuer said no without saying why, and nothing was charged).
 */
import { Schema } from "effect"
import type { CardDecline } from "../../core/ports/CardDeclines.ts"
import type { ChargeStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

export const DocumentedCardTransactionStatus = Schema.Literals([
  "captured",
  "authorized_pending_capture",
  "waiting_capture",
  "processing",
  "pending",
  "not_authorized",
  "with_error",
  "failed",
  "voided"
])
export type DocumentedCardTransactionStatus = typeof DocumentedCardTransactionStatus.Type
export const cardTransactionStatuses = DocumentedCardTransactionStatus.literals

/**
 * A card transaction's status as the charge's. `authorized_pending_capture` / `waiting_capture`
 * are an authorization held, not money yet: an `auth_only` order answers them (`CardCapture.ts`
 * captures or voids it later; an `auth_and_capture` order answering them waits, `pending`);
 * `voided` is an authorization undone before capture: nothing was charged.
 */
export const cardTransactionStatusMap = {
  captured: "completed",
  authorized_pending_capture: "authorized",
  waiting_capture: "authorized",
  processing: "pending",
  pending: "pending",
  not_authorized: "failed",
  with_error: "failed",
  failed: "failed",
  voided: "failed"
} satisfies StatusMap<typeof DocumentedCardTransactionStatus, ChargeStatus>

export const toCardChargeStatus = (status: string | null | undefined): ChargeStatus =>
  statusOf(cardTransactionStatusMap, status?.trim().toLowerCase(), "pending")

/** ABECS return codes with one meaning, as the engine's declines. */
export const declineByReturnCode: Readonly<Record<string, CardDecline>> = {
  "51": "insufficient_funds",
  "61": "insufficient_funds",
  "43": "stolen_card",
  "41": "lost_card",
  "14": "invalid_card",
  "78": "invalid_card",
  "82": "invalid_card",
  "N7": "invalid_card",
  "54": "expired_card",
  "59": "fraud",
  "63": "fraud",
  "05": "do_not_honour",
  "57": "do_not_honour",
  "91": "issuer_unavailable",
  "96": "processing_error",
  "65": "rate_limited",
  "75": "rate_limited",
  // Visa's "additional customer authentication required" (as Brazil's acquirers pass it on;
  // not confirmed on a Pagar.me page): the issuer wants 3-D Secure. Soft: nothing was charged.
  "1A": "authentication_required"
}

/** The decline a refused card transaction's return code says; `do_not_honour` when it says nothing clear. */
export const declineOf = (returnCode: string | null | undefined): CardDecline => {
  const code = (returnCode ?? "").trim().toUpperCase()
  const normalized = /^\d$/.test(code) ? `0${code}` : code
  return Object.hasOwn(declineByReturnCode, normalized) ? declineByReturnCode[normalized]! : "do_not_honour"
}
