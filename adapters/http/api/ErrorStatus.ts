/**
 * The HTTP status of each error code: the transport's business, kept out of the core's catalog
 * (`core/ApiError.ts`). A record over every code, so a new code does not compile without one.
 */
import type { ErrorCode } from "../../../core/ApiError.ts"

export const httpStatus: { readonly [C in ErrorCode]: number } = {
  missing_authorization: 401,
  invalid_api_key: 401,
  token_expired: 401,
  token_revoked: 401,
  authentication_failed: 401,
  secret_key_required: 403,
  invalid_request: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_reused: 409,
  idempotency_key_in_progress: 409,
  fund_sandbox_only: 400,
  simulate_sandbox_only: 400,
  sandbox_only: 400,
  checkout_session_not_found: 404,
  checkout_session_already_completed: 409,
  missing_required_fields: 422,
  amount_out_of_limits: 422,
  cascade_exhausted: 422,
  provider_outcome_unknown: 503,
  fx_unavailable: 422,
  refund_not_allowed: 422,
  refund_amount_exceeds_remaining: 422,
  claim_not_chargeback: 422,
  claim_already_resolved: 409,
  chargeback_already_opened: 409,
  chargeback_not_allowed: 422,
  chargeback_nothing_remaining: 422,
  routing_version_conflict: 409,
  payout_already_final: 409,
  payout_dispatch_failed: 422,
  settlement_destination_unavailable: 422,
  settlement_destination_refused: 422,
  settlement_open: 409,
  report_format_unknown: 422,
  report_malformed: 400,
  report_source_unavailable: 422,
  report_unavailable: 502,
  discrepancy_resolved: 409,
  adjustment_needs_record: 422,
  payout_method_unavailable: 422,
  currency_not_funded: 422,
  balance_insufficient: 422,
  amount_invalid: 422,
  amount_rounds_to_zero: 422,
  deposit_method_required: 422,
  deposit_method_unavailable: 422,
  deposit_accounts_unavailable: 422,
  rate_limited: 429,
  internal_error: 500
}

/** The status an error of `code` is answered with. */
export const statusOf = (code: ErrorCode): number => httpStatus[code]
