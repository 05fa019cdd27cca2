/**
 * The vault's error envelope `{ error: { code, message } }` and the one mapping from the vault's
 * errors to it and to a status. Messages name fields and reasons, never a card number, a code or
 * a secret. Only a fault of the vault itself (an unreadable record, the database down) is 5xx.
 */
import { HttpServerResponse } from "effect/http"
import type { ForwardOutcomeUnknown, ForwardRefused, ForwardUnreachable } from "../../core/ports/CardVault.ts"
import type { CardRejected } from "../cards/CardInput.ts"
import type { CardNotFound, CardUnreadable } from "../cards/Cards.ts"
import type { KeyUnavailable } from "../keys/KeyManagement.ts"
import type { StoreUnavailable } from "../store/CardStore.ts"

export const securityHeaders = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
} as const

export const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: securityHeaders })

export const errorResponse = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  json(status, { error: { code, message, ...extra } })

export type VaultError =
  | CardRejected
  | CardNotFound
  | CardUnreadable
  | KeyUnavailable
  | StoreUnavailable
  | ForwardRefused
  | ForwardOutcomeUnknown
  | ForwardUnreachable

export const fromError = (error: VaultError): HttpServerResponse.HttpServerResponse => {
  switch (error._tag) {
    case "CardRejected":
      return errorResponse(422, error.code, error.message, { field: error.field })
    case "CardNotFound":
      return errorResponse(404, "card_not_found", "no card with this token for this merchant")
    case "ForwardRefused":
      return error.reason === "host_not_allowed"
        ? errorResponse(403, "host_not_allowed", error.message)
        : error.reason === "token_not_found"
        ? errorResponse(404, "card_not_found", error.message)
        : errorResponse(410, "security_code_gone", error.message)
    case "ForwardOutcomeUnknown":
      return errorResponse(504, "upstream_timeout", error.message)
    case "ForwardUnreachable":
      return errorResponse(502, "upstream_unreachable", error.message)
    case "CardUnreadable":
    case "KeyUnavailable":
      return errorResponse(500, "card_unreadable", "the vault could not open this card's record")
    case "StoreUnavailable":
      return errorResponse(503, "vault_unavailable", "the vault's database did not answer")
  }
}
