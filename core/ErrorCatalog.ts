/**
 * Every error code a caller can receive, with its `type`, what it means and the shape of its
 * `details`: the public contract (spec section 7 plus the codes the spec leaves to us), published
 * per code in the OpenAPI document. `ApiError.ts` builds errors of these codes.
 */
import { Schema } from "effect"
import { skipReasons } from "./routing/Skips.ts"
import { CardDecline } from "./ports/CardDeclines.ts"

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "idempotency_error"
  | "provider_error"
  | "rate_limit_error"
  | "api_error"

interface CatalogEntry {
  readonly type: ErrorType
  readonly description: string
  /** The shape of `details` for this code (published per code in the OpenAPI document). */
  readonly details: Schema.Top
}

const entry = <D extends Schema.Top>(type: ErrorType, description: string, details: D) => ({ type, description, details })

/** `details` of a code that carries none. */
const none = Schema.Struct({})
const money = Schema.Finite.annotate({ description: "Major units" })
/** The providers routing passed over, never called (`core/routing/Skips.ts`): `details.skipped`. */
const skippedDetails = Schema.Array(Schema.Struct({
  provider: Schema.String,
  reason: Schema.Literals(skipReasons),
  missingFields: Schema.optionalKey(Schema.Array(Schema.String))
})).annotate({
  description: "The providers of the matching rule or of the shop's routes that routing passed over without calling them, each with " +
    "`reason` (route_disabled, provider_not_configured, method_not_supported, method_not_in_route, excluded_by_rule, circuit_open, " +
    "missing_required_fields) and, for missing_required_fields, the `missingFields` that provider needs"
})
const IssueSchema = Schema.Struct({
  path: Schema.String.annotate({ description: "Where: a dotted path into the body, query or parameters ('' for the whole request)" }),
  message: Schema.String
})

export const ErrorCatalog = {
  // Authentication (spec section 5)
  missing_authorization: entry("authentication_error", "No `Authorization: Bearer` header was sent.", none),
  invalid_api_key: entry("authentication_error",
    "The bearer value is not a valid access token or API key (a refresh token used on a business endpoint gives this code).",
    none
  ),
  token_expired: entry("authentication_error", "The access token has expired; refresh it or exchange the key pair again.", none),
  token_revoked: entry("authentication_error", "The key pair behind the token was rotated or revoked.", none),
  authentication_failed: entry("authentication_error",
    "The key pair or refresh token was rejected (unknown, mismatched, cross-environment, expired, used or revoked), or a signed notification's signature was not valid.",
    none
  ),
  secret_key_required: entry("permission_error", "A publishable key may only call `any key` endpoints and hosted checkout.", none),
  permission_denied: entry("permission_error",
    "A restricted key called an operation its permissions do not cover; nothing was done.",
    Schema.Struct({ needed: Schema.String.annotate({ description: "The permission the operation needs (`refunds:write`), or `a full secret key`" }) })
  ),
  // Request shape and lookups
  invalid_request: entry("invalid_request_error",
    "A field is missing or malformed; see `details.issues[]`, `details.missingFields` or `details.required`.",
    Schema.Struct({
      issues: Schema.Array(IssueSchema).annotate({ description: "Every problem found, not only the first" }),
      missingFields: Schema.Array(Schema.String).annotate({ description: "The required top-level fields that were absent" }),
      required: Schema.optionalKey(Schema.Array(Schema.String)).annotate({ description: "Fields this request needs in its context (e.g. a deposit account's)" })
    })
  ),
  payload_too_large: entry("invalid_request_error", "The request body is larger than 1 MB.", Schema.Struct({ maxBytes: Schema.Int })),
  unsupported_media_type: entry("invalid_request_error", "The request body must be JSON: send `Content-Type: application/json`.", none),
  not_found: entry("invalid_request_error",
    "No such resource for this credential (an id of another shop answers the same).",
    Schema.Struct({
      resource: Schema.optionalKey(Schema.String).annotate({ description: "What was looked up: payment, shop, webhook..." }),
      id: Schema.optionalKey(Schema.String).annotate({ description: "The id that was not found" })
    })
  ),
  method_not_allowed: entry("invalid_request_error",
    "The path exists but does not accept this HTTP method; the `Allow` header and `details.allowed` list the methods it accepts.",
    Schema.Struct({ allowed: Schema.Array(Schema.String).annotate({ description: "The methods the path accepts, as in the `Allow` header" }) })
  ),
  // Idempotency
  idempotency_key_reused: entry("idempotency_error",
    "The Idempotency-Key was already used with a different request body or endpoint.",
    Schema.Struct({ key: Schema.String })
  ),
  idempotency_key_in_progress: entry("idempotency_error",
    "A request with this Idempotency-Key is still executing; retry after it finishes.",
    Schema.Struct({ key: Schema.String })
  ),
  // Sandbox-only operations
  fund_sandbox_only: entry("invalid_request_error", "Sandbox funding is not available in production.", none),
  simulate_sandbox_only: entry("invalid_request_error",
    "Sandbox simulation (payouts, withdrawals, deposits, chargebacks) is not available in production.",
    none
  ),
  sandbox_only: entry("invalid_request_error", "The endpoint exists in sandbox only (test clocks); production time never moves.", none),
  // Checkout
  checkout_session_not_found: entry("invalid_request_error",
    "The checkout session token is unknown or expired (24 hours).",
    Schema.Struct({ token: Schema.String })
  ),
  checkout_session_already_completed: entry("invalid_request_error",
    "The session already created its transaction; `details.existingTxId` carries it.",
    Schema.Struct({
      existingTxId: Schema.NullOr(Schema.String),
      continueUrl: Schema.optionalKey(Schema.String).annotate({ description: "Hosted pages only: where the buyer continues" })
    })
  ),
  missing_required_fields: entry("invalid_request_error",
    "Buyer data is missing: the hosted-checkout flow needs userName, email and documentId, and some rails' providers need more " +
      "(a Brazilian boleto's userAddress and userPhone; GET /payment-methods lists them as `requiredFields`). `details.missingFields` names each.",
    Schema.Struct({
      missingFields: Schema.Array(Schema.String),
      skipped: Schema.optionalKey(skippedDetails)
    })
  ),
  // Pay-ins
  amount_out_of_limits: entry("invalid_request_error",
    "The amount is outside the chosen method's limits, above the 100000 USD headline limit, or does not cover the fees.",
    Schema.Struct({
      currency: Schema.optionalKey(Schema.String).annotate({ description: "The currency of `min` and `max`" }),
      min: Schema.optionalKey(Schema.NullOr(money)),
      max: Schema.optionalKey(Schema.NullOr(money)),
      amountLocal: Schema.optionalKey(money),
      amountUsd: Schema.optionalKey(money),
      maxUsd: Schema.optionalKey(money),
      feesUsd: Schema.optionalKey(money)
    })
  ),
  // Cards (the vault holds the card; the engine only its token)
  card_required: entry("invalid_request_error",
    "A card rail (channel CREDIT_CARD) in production needs `card.token`: a token the card vault gave the merchant (POST /card-sessions, then the vault's POST /v1/cards).",
    none
  ),
  card_not_accepted: entry("invalid_request_error", "`card` was sent for a rail that is not a card rail (its channel is not CREDIT_CARD).", none),
  card_token_not_found: entry("invalid_request_error", "The card vault holds no card for `card.token` for this merchant.", none),
  card_brand_mismatch: entry("invalid_request_error",
    "The card's brand is not the rail's (a Mastercard token on the Visa rail): `details.cardBrand` and `details.railBrand` say which.",
    Schema.Struct({ cardBrand: Schema.String, railBrand: Schema.String })
  ),
  card_expired: entry("invalid_request_error", "The card's expiry month is past: `details.expMonth` and `details.expYear`.", Schema.Struct({ expMonth: Schema.Int, expYear: Schema.Int })),
  installments_not_accepted: entry("invalid_request_error", "`installments` was sent for a rail that is not a card rail (its channel is not CREDIT_CARD).", none),
  installment_interest_not_supported: entry("invalid_request_error",
    "`installments.interest: \"buyer\"` is not supported: the engine has no documented source of issuers' instalment interest rates. Send \"merchant\" (the default).",
    none
  ),
  installments_invalid: entry("invalid_request_error",
    "The instalment count is not one the rail's country allows for this amount: `details.allowed` lists those that are, `details.minimumInstalment` " +
      "the least one instalment may be (in `details.currency`; null where the country has none).",
    Schema.Struct({
      allowed: Schema.Array(Schema.Int),
      minimumInstalment: Schema.NullOr(money),
      currency: Schema.String
    })
  ),
  card_vault_unavailable: entry("api_error",
    "The card vault could not be reached (or no vault is configured on this host): nothing was written or charged; retry later.",
    none
  ),
  card_vault_not_configured: entry("invalid_request_error", "This host has no card vault configured (VAULT_URL): cards cannot be tokenized or charged here.", none),
  cascade_exhausted: entry("provider_error",
    "No provider could process the payment; see `details.reason` and `details.paymentMethodEnabledForShop`.",
    Schema.Struct({
      reason: Schema.Literals(["unknown_payment_method", "no_provider_for_method_region", "provider_declined", "all_providers_failed"]),
      paymentMethodEnabledForShop: Schema.Boolean,
      providerReason: Schema.optionalKey(Schema.NullOr(Schema.String)).annotate({ description: "The declining provider's reason" }),
      transactionId: Schema.optionalKey(Schema.String).annotate({ description: "The failed payment record, which keeps the attempts" }),
      attempts: Schema.optionalKey(Schema.Array(Schema.Struct({
        provider: Schema.String,
        outcome: Schema.String,
        latencyMs: Schema.Finite,
        reason: Schema.NullOr(Schema.String),
        decline: Schema.optionalKey(Schema.NullOr(CardDecline)).annotate({
          description: "On a card payment: the normalized decline the provider's refusal named (a hard one stops the cascade, a soft one moves on); null when none"
        })
      }))),
      skipped: Schema.optionalKey(skippedDetails)
    })
  ),
  provider_outcome_unknown: entry("provider_error",
    "The provider gave no answer about the charge (a timeout, a lost connection, a 5xx): it may hold it. The payment record is kept and " +
      "stays bound to the `Idempotency-Key`: retry with the same key (or wait for the recovery job, within 5 minutes) and the same " +
      "provider is asked again with the same upstream key, never another one. The payment shows `pending` meanwhile; one with no answer " +
      "by its expiry fails.",
    Schema.Struct({
      transactionId: Schema.String.annotate({ description: "The payment record, kept pending while its outcome is asked again" }),
      provider: Schema.String,
      reason: Schema.NullOr(Schema.String).annotate({ description: "What the provider's call ended with (timeout, network_error...)" })
    })
  ),
  fx_unavailable: entry("api_error", "No FX rate is available for the currency pair.", Schema.Struct({ currency: Schema.String })),
  // Refunds
  // Authorize now, capture later (`capture: false`, POST /payments/{id}/capture and /void)
  capture_requires_card: entry("invalid_request_error",
    "`capture: false` (authorize only) was sent for a rail that is not a card rail (its channel is not CREDIT_CARD): nothing was written.",
    none
  ),
  capture_not_supported: entry("invalid_request_error",
    "No provider routing would try for this card rail can authorize without capturing (it offers no capture and void): nothing was written. Charge with capture (omit `capture`).",
    none
  ),
  payment_not_authorized: entry("invalid_request_error",
    "Only an `authorized` payment (created with `capture: false`) can be captured or voided; `details.status` is the payment's status. A capture or void already done answers with its own key's stored result, never again.",
    Schema.Struct({ status: Schema.String, operation: Schema.optionalKey(Schema.String).annotate({ description: "capture or void: the operation already under way on this authorization" }) })
  ),
  capture_amount_exceeds_authorized: entry("invalid_request_error",
    "The capture's `amount` is more than was authorized: `details.authorized` in `details.currency`.",
    Schema.Struct({ requested: money, authorized: money, currency: Schema.String })
  ),
  capture_declined: entry("provider_error",
    "The provider refused the capture or void (`details.providerCode`): nothing changed, the payment is still `authorized` until it expires.",
    Schema.Struct({ operation: Schema.String, providerCode: Schema.String })
  ),
  capture_failed: entry("provider_error",
    "The provider could not take the capture or void now and nothing was done there (`details.providerCode`): retry later, with a new Idempotency-Key or the same one.",
    Schema.Struct({ operation: Schema.String, providerCode: Schema.String })
  ),
  refund_not_allowed: entry("invalid_request_error",
    "The payment cannot be refunded in its status (only completed payments can).",
    Schema.Struct({ status: Schema.String })
  ),
  refund_amount_exceeds_remaining: entry("invalid_request_error",
    "The refund is above what remains refundable; `details.remaining` says how much is left, in the payment's local currency.",
    Schema.Struct({ requested: money, remaining: money, currency: Schema.String })
  ),
  // Chargebacks
  claim_not_chargeback: entry("invalid_request_error",
    "Only a chargeback is resolved with an outcome; a refund is resolved by its provider (`details.kind`).",
    Schema.Struct({ kind: Schema.String })
  ),
  claim_already_resolved: entry("invalid_request_error",
    "The chargeback was already resolved with the other outcome (`details.status`); repeating the same outcome answers the claim unchanged.",
    Schema.Struct({ status: Schema.String })
  ),
  chargeback_already_opened: entry("invalid_request_error",
    "The payment already has a chargeback (`details.claimId`, `details.status`): a payment is charged back once.",
    Schema.Struct({ claimId: Schema.String, status: Schema.String })
  ),
  chargeback_not_allowed: entry("invalid_request_error",
    "The payment cannot be charged back in its status (`details.status`): only a completed payment can.",
    Schema.Struct({ status: Schema.String })
  ),
  chargeback_nothing_remaining: entry("invalid_request_error",
    "The payment's refunds (approved or pending) cover all of it: nothing remains to dispute (amounts in the payment's local currency).",
    Schema.Struct({ amount: money, refunded: money, currency: Schema.String })
  ),
  // Routing configuration (admin)
  routing_rule_invalid: entry("invalid_request_error",
    "A routing rule's card condition can never hold: a BIN range whose `from` and `to` differ in length or are reversed, an instalment range " +
      "whose min is above its max, or card conditions on a rule that can match no card payment method of its brands. `details.issues[]` names each.",
    Schema.Struct({ issues: Schema.Array(IssueSchema).annotate({ description: "Every problem found, not only the first" }) })
  ),
  routing_version_conflict: entry("invalid_request_error",
    "The routing configuration changed since it was read (`details.version` is the current one): read it again and resend.",
    Schema.Struct({ version: Schema.optionalKey(Schema.Int) })
  ),
  // Connector accounts
  connector_credentials_refused: entry("invalid_request_error",
    "The provider refused the connector account's credentials when they were checked (an authenticated call made as they were saved); nothing was saved.",
    Schema.Struct({
      code: Schema.String.annotate({ description: "The provider's code, e.g. `invalid_credentials`" }),
      providerMessage: Schema.String.annotate({ description: "What the provider answered, made safe to show" })
    })
  ),
  connector_account_in_use: entry("invalid_request_error",
    "The connector account cannot be deleted while routes name it or payments on it are still open: disable it, remove its routes, and delete it once its payments have ended.",
    Schema.Struct({
      routes: Schema.Int.annotate({ description: "Routes that name it" }),
      openPayments: Schema.Int.annotate({ description: "Its payments not yet in a final status" })
    })
  ),
  connector_account_conflict: entry("invalid_request_error",
    "Another change to the connector account came first (`details.version` is the current one): read it again and resend, or the id asked for is taken.",
    Schema.Struct({ version: Schema.optionalKey(Schema.Int) })
  ),
  connector_accounts_not_allowed: entry("permission_error",
    "Connector accounts are not available to this caller: the host keeps them to its operator (who manages them through the admin API), or the engine has no sealing key to keep their credentials under.",
    none
  ),
  team_unavailable: entry("invalid_request_error",
    "This engine has no password hashing, one-time codes or sealing key configured (an embedding that gave none): team members cannot be invited or sign in.",
    none
  ),
  // Payouts and balances
  payout_already_final: entry("invalid_request_error",
    "The payout is no longer processing (`details.status`): only a processing payout is resolved by the operator.",
    Schema.Struct({ status: Schema.String })
  ),
  payout_dispatch_failed: entry("provider_error",
    "The provider rejected the beneficiary data; the debit was reversed; a corrected retry with the same Idempotency-Key re-executes.",
    Schema.Struct({ failureReason: Schema.NullOr(Schema.String), payoutId: Schema.String, debitReversed: Schema.Boolean })
  ),
  settlement_destination_unavailable: entry("invalid_request_error",
    "No settlement payout provider pays on the destination's chain in this environment (sandbox pays on `SANDBOX`, or on a chain a configured sandbox provider names).",
    Schema.Struct({ chain: Schema.String, chains: Schema.Array(Schema.String).annotate({ description: "The chains this environment can pay on" }) })
  ),
  settlement_destination_refused: entry("invalid_request_error",
    "The settlement payout provider refused to enter the destination (Circle Mint: the address for its address book); nothing was saved.",
    Schema.Struct({
      provider: Schema.String.annotate({ description: "The settlement payout provider that pays on the chain" }),
      reason: Schema.String.annotate({ description: "The provider's words" })
    })
  ),
  settlement_open: entry("invalid_request_error",
    "The settlement batch is still open: its statement exists once it closes (`settlement.closed`, then `settlement.pdf_ready`).",
    Schema.Struct({ settlementId: Schema.String, closesAt: Schema.String.annotate({ description: "The next scheduled close, ISO 8601" }) })
  ),
  // Reconciliation (operator)
  report_format_unknown: entry("invalid_request_error",
    "The provider reads no report format of that name in this environment (`details.formats` lists those it has there; `details.configuredIn` the environments it is configured in at all); nothing was imported.",
    Schema.Struct({
      provider: Schema.String,
      environment: Schema.String.annotate({ description: "The environment asked for (`environment`, default production)" }),
      formats: Schema.Array(Schema.String),
      configuredIn: Schema.Array(Schema.String).annotate({ description: "Environments in which this provider reads reports on this host" })
    })
  ),
  report_malformed: entry("invalid_request_error",
    "The report file breaks its format at `details.line`, `details.column`; nothing was imported.",
    Schema.Struct({ line: Schema.Int, column: Schema.String, problem: Schema.String })
  ),
  report_source_unavailable: entry("invalid_request_error",
    "The provider has no reports API the engine can fetch from (upload its file instead: `POST /admin/v1/reconciliation/reports`).",
    Schema.Struct({ provider: Schema.String })
  ),
  report_unavailable: entry("provider_error",
    "The provider's reports API did not give the report; nothing was imported. Retry later.",
    Schema.Struct({ provider: Schema.String, reason: Schema.String })
  ),
  discrepancy_resolved: entry("invalid_request_error",
    "The discrepancy is already resolved; history is not edited (a further correction is another journal entry).",
    Schema.Struct({ discrepancyId: Schema.String, resolvedAt: Schema.String })
  ),
  adjustment_needs_record: entry("invalid_request_error",
    "An adjustment is booked on the shop of the engine's record; this discrepancy has no record (resolve it with a note alone).",
    Schema.Struct({ discrepancyId: Schema.String })
  ),
  payout_method_unavailable: entry("invalid_request_error",
    "The payout method does not exist here, or (production) no payout provider is configured for it: `details.reason`; nothing was debited.",
    Schema.Struct({ methodId: Schema.String, reason: Schema.optionalKey(Schema.Literal("no_payout_provider_configured")) })
  ),
  currency_not_funded: entry("invalid_request_error", "There is no balance in the method's currency.", Schema.Struct({ currency: Schema.String })),
  balance_insufficient: entry("invalid_request_error",
    "The amount is above the available balance.",
    Schema.Struct({
      currency: Schema.String,
      requested: money,
      available: money,
      shortfall: Schema.optionalKey(money),
      fee: Schema.optionalKey(money).annotate({ description: "A withdrawal's fee, part of `requested`" }),
      availableUsd: Schema.optionalKey(Schema.NullOr(money)).annotate({ description: "null when no FX rate is available" }),
      shortfallUsd: Schema.optionalKey(Schema.NullOr(money))
    })
  ),
  amount_rounds_to_zero: entry("invalid_request_error",
    "The amount is worth less than the smallest unit of the currency it would be booked in (a swap, a payout swap, a refund's USD share): nothing was moved. Send a larger amount.",
    Schema.Struct({
      amount: money.annotate({ description: "The amount sent, in `currency`" }),
      currency: Schema.String,
      bookedCurrency: Schema.String.annotate({ description: "The currency in which it rounds to 0" })
    })
  ),
  amount_invalid: entry("invalid_request_error",
    "The amount is not valid for this operation (sign, decimals, or the method's or operation's USD range).",
    Schema.Struct({
      amount: Schema.optionalKey(money),
      currency: Schema.optionalKey(Schema.String),
      amountUsd: Schema.optionalKey(money),
      minUsd: Schema.optionalKey(money),
      maxUsd: Schema.optionalKey(money),
      minimumUsd: Schema.optionalKey(money)
    })
  ),
  // Deposit accounts
  deposit_method_required: entry("invalid_request_error",
    "The shop has two or more deposit methods; choose one (`details.depositMethods`).",
    Schema.Struct({ depositMethods: Schema.Array(Schema.Struct({ depositMethodId: Schema.String, name: Schema.String })) })
  ),
  deposit_method_unavailable: entry("invalid_request_error",
    "The deposit method is not enabled for the shop.",
    Schema.Struct({
      depositMethodId: Schema.String,
      depositMethods: Schema.Array(Schema.Struct({ depositMethodId: Schema.String, name: Schema.String }))
    })
  ),
  deposit_accounts_unavailable: entry("invalid_request_error", "Deposit accounts are not enabled for the shop.", none),
  // Platform
  rate_limited: entry("rate_limit_error",
    "Too many requests.",
    Schema.Struct({ limit: Schema.Int, retryAfterSeconds: Schema.Int })
  ),
  internal_error: entry("api_error", "An unexpected error on our side; report it with the requestId.", none)
} as const satisfies Record<string, CatalogEntry>

export type ErrorCode = keyof typeof ErrorCatalog

export const errorCodes = Object.keys(ErrorCatalog) as ReadonlyArray<ErrorCode>

export const ErrorCodeSchema = Schema.Literals(errorCodes as [ErrorCode, ...Array<ErrorCode>])
