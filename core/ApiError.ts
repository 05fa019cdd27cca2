/**
 * The API error model: every error code a caller can receive, its HTTP status and its `type`.
 *
 * The codes are the public contract (spec section 7 plus the codes the spec leaves to us), so
 * they live in the core beside the services that raise them. A service fails with `ApiError`;
 * `adapters/http` is the one place that renders it as the envelope
 * `{ error: { code, type, message, requestId, docs_url, details } }` with `ErrorCatalog[code].status`.
 */
import { Schema } from "effect"

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "idempotency_error"
  | "provider_error"
  | "rate_limit_error"
  | "api_error"

interface CatalogEntry {
  readonly status: number
  readonly type: ErrorType
  readonly description: string
}

const entry = (status: number, type: ErrorType, description: string): CatalogEntry => ({ status, type, description })

export const ErrorCatalog = {
  // Authentication (spec section 5)
  missing_authorization: entry(401, "authentication_error", "No `Authorization: Bearer` header was sent."),
  invalid_api_key: entry(
    401,
    "authentication_error",
    "The bearer value is not a valid access token or API key (a refresh token used on a business endpoint gives this code)."
  ),
  token_expired: entry(401, "authentication_error", "The access token has expired; refresh it or exchange the key pair again."),
  token_revoked: entry(401, "authentication_error", "The key pair behind the token was rotated or revoked."),
  authentication_failed: entry(
    401,
    "authentication_error",
    "The key pair or refresh token was rejected (unknown, mismatched, cross-environment, expired, used or revoked)."
  ),
  secret_key_required: entry(403, "permission_error", "A publishable key may only call `any key` endpoints and hosted checkout."),
  // Request shape and lookups
  invalid_request: entry(
    400,
    "invalid_request_error",
    "A field is missing or malformed; see `details.issues[]`, `details.missingFields` or `details.required`."
  ),
  payload_too_large: entry(413, "invalid_request_error", "The request body is larger than 1 MB."),
  unsupported_media_type: entry(415, "invalid_request_error", "The request body must be JSON: send `Content-Type: application/json`."),
  not_found: entry(404, "invalid_request_error", "No such resource for this credential (an id of another shop answers the same)."),
  // Idempotency
  idempotency_key_reused: entry(
    409,
    "idempotency_error",
    "The Idempotency-Key was already used with a different request body or endpoint."
  ),
  idempotency_key_in_progress: entry(
    409,
    "idempotency_error",
    "A request with this Idempotency-Key is still executing; retry after it finishes."
  ),
  // Sandbox-only operations
  fund_sandbox_only: entry(400, "invalid_request_error", "Sandbox funding is not available in production."),
  simulate_sandbox_only: entry(400, "invalid_request_error", "Sandbox simulation (payouts, withdrawals, deposits, chargebacks) is not available in production."),
  sandbox_only: entry(400, "invalid_request_error", "The endpoint exists in sandbox only (test clocks); production time never moves."),
  // Checkout
  checkout_session_not_found: entry(404, "invalid_request_error", "The checkout session token is unknown or expired (24 hours)."),
  checkout_session_already_completed: entry(
    409,
    "invalid_request_error",
    "The session already created its transaction; `details.existingTxId` carries it."
  ),
  missing_required_fields: entry(
    422,
    "invalid_request_error",
    "The hosted-checkout flow needs userName, email and documentId; `details.missingFields` names each."
  ),
  // Pay-ins
  amount_out_of_limits: entry(422, "invalid_request_error", "The amount is outside the chosen method's limits."),
  cascade_exhausted: entry(
    422,
    "provider_error",
    "No provider could process the payment; see `details.reason` and `details.paymentMethodEnabledForShop`."
  ),
  fx_unavailable: entry(422, "api_error", "No FX rate is available for the currency pair."),
  // Refunds
  refund_not_allowed: entry(422, "invalid_request_error", "The payment cannot be refunded in its status (only completed payments can)."),
  refund_amount_exceeds_remaining: entry(
    422,
    "invalid_request_error",
    "The refund is above what remains refundable; `details.remaining` says how much is left, in the payment's local currency."
  ),
  // Chargebacks
  claim_not_chargeback: entry(422, "invalid_request_error", "Only a chargeback is resolved with an outcome; a refund is resolved by its provider (`details.kind`)."),
  claim_already_resolved: entry(
    409,
    "invalid_request_error",
    "The chargeback was already resolved with the other outcome (`details.status`); repeating the same outcome answers the claim unchanged."
  ),
  // Routing configuration (admin)
  routing_version_conflict: entry(409, "invalid_request_error", "The routing configuration changed since it was read (`details.version` is the current one): read it again and resend."),
  // Payouts and balances
  payout_already_final: entry(409, "invalid_request_error", "The payout is no longer processing (`details.status`): only a processing payout is resolved by the operator."),
  payout_dispatch_failed: entry(
    422,
    "provider_error",
    "The provider rejected the beneficiary data; the debit was reversed; a corrected retry with the same Idempotency-Key re-executes."
  ),
  payout_method_unavailable: entry(
    422,
    "invalid_request_error",
    "The payout method does not exist here, or (production) no payout provider is configured for it: `details.reason`; nothing was debited."
  ),
  currency_not_funded: entry(422, "invalid_request_error", "There is no balance in the method's currency."),
  balance_insufficient: entry(422, "invalid_request_error", "The amount is above the available balance."),
  amount_invalid: entry(422, "invalid_request_error", "The amount is not valid for this operation."),
  // Deposit accounts
  deposit_method_required: entry(
    422,
    "invalid_request_error",
    "The shop has two or more deposit methods; choose one (`details.depositMethods`)."
  ),
  deposit_method_unavailable: entry(422, "invalid_request_error", "The deposit method is not enabled for the shop."),
  deposit_accounts_unavailable: entry(422, "invalid_request_error", "Deposit accounts are not enabled for the shop."),
  // Platform
  rate_limited: entry(429, "rate_limit_error", "Too many requests."),
  internal_error: entry(500, "api_error", "An unexpected error on our side; report it with the requestId.")
} as const satisfies Record<string, CatalogEntry>

export type ErrorCode = keyof typeof ErrorCatalog

export const errorCodes = Object.keys(ErrorCatalog) as ReadonlyArray<ErrorCode>

export const ErrorCodeSchema = Schema.Literals(errorCodes as [ErrorCode, ...Array<ErrorCode>])

export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  code: ErrorCodeSchema,
  message: Schema.String,
  details: Schema.Record(Schema.String, Schema.Unknown)
}) {
  get status(): number {
    return ErrorCatalog[this.code].status
  }
  get type(): ErrorType {
    return ErrorCatalog[this.code].type
  }
}

/** Builds an `ApiError`; `details` defaults to `{}`. */
export const apiError = (code: ErrorCode, message: string, details: Record<string, unknown> = {}): ApiError =>
  new ApiError({ code, message, details })

/** One problem with one input value: where it is and what is wrong with it. */
export interface Issue {
  readonly path: string
  readonly message: string
}

/**
 * `400 invalid_request` with the spec's details: `issues[]` (`{ path, message }`) and
 * `missingFields` (the top-level names of required fields that were absent).
 */
export const invalidRequest = (
  message: string,
  issues: ReadonlyArray<Issue>,
  missingFields: ReadonlyArray<string> = []
): ApiError => apiError("invalid_request", message, { issues, missingFields })

/** `404 not_found` for a resource kind; an id of another shop gives exactly this too. */
export const notFound = (resource: string, id: string): ApiError =>
  apiError("not_found", `No such ${resource}: '${id}'`, { resource, id })
