/**
 * The card declines the engine tells apart, whatever the acquirer's own codes: a connector reads
 * its acquirer's return code (Brazil's ABECS codes, an acquirer's words) into one of these, so that
 * the cascade, the merchant's dashboards and the retry policy read one vocabulary.
 *
 * - A HARD decline is the issuer's answer about this card (stolen, lost, no funds, invalid,
 *   fraud, expired): another acquirer would hear the same, so the connector fails the charge
 *   `ProviderError.declined` with the word as its code and the cascade stops.
 * - A SOFT decline says nothing final about the card (a generic "do not honour", the issuer or
 *   the acquirer unavailable, a processing error, too many attempts): nothing was charged, so
 *   the connector fails it `ProviderError.failed` and the cascade may try the next acquirer.
 * - `authentication_required` is soft too, and says more: the issuer wants 3-D Secure. The engine
 *   asks the same provider once more with `ChargeRequest.threeDSecure: "required"` before moving on.
 */
import { Schema } from "effect"

export const HardCardDecline = Schema.Literals(["stolen_card", "lost_card", "insufficient_funds", "invalid_card", "fraud", "expired_card"])
export type HardCardDecline = typeof HardCardDecline.Type

export const SoftCardDecline = Schema.Literals(["do_not_honour", "issuer_unavailable", "processing_error", "rate_limited", "authentication_required"])
export type SoftCardDecline = typeof SoftCardDecline.Type

export const CardDecline = Schema.Union([HardCardDecline, SoftCardDecline])
export type CardDecline = typeof CardDecline.Type

const hard: ReadonlySet<string> = new Set(HardCardDecline.literals)

/** Whether another acquirer would hear the same (`true`: the cascade stops). */
export const isHardDecline = (decline: CardDecline): decline is HardCardDecline => hard.has(decline)

const words: ReadonlySet<string> = new Set([...HardCardDecline.literals, ...SoftCardDecline.literals])

/** The normalized decline a `ProviderError`'s code names, if it names one (the connectors' convention above). */
export const cardDeclineOf = (code: string): CardDecline | undefined => words.has(code) ? code as CardDecline : undefined
