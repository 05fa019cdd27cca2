/**
 * What the merchant should do on each error code, with an example of its envelope: shown on
 * `/docs/errors`, in the OpenAPI description's error table, and as the examples of the
 * `Error_<code>` schemas.
 */
import { type DetailsOf, ErrorCatalog, type ErrorCode } from "../../../core/ApiError.ts"

export interface Guide<C extends ErrorCode> {
  /** One line: what the merchant should do on this code. */
  readonly advice: string
  /** A message the host really writes for this code. */
  readonly message: string
  readonly details: DetailsOf<C>
}

/** Every code: what to do, and an example of its envelope's `message` and `details`. */
export const errorGuide: { readonly [C in ErrorCode]: Guide<C> } = {
  missing_authorization: {
    advice: "Send `Authorization: Bearer <accessToken>` (from POST /auth/token) or a secret key as the bearer.",
    message: "Send `Authorization: Bearer <access token or API key>`",
    details: {}
  },
  invalid_api_key: {
    advice: "Check the key's environment and that it was not rotated; exchange the key pair again at POST /auth/token.",
    message: "The bearer value is not a valid access token or API key",
    details: {}
  },
  token_expired: {
    advice: "Get a new access token with POST /auth/refresh (or POST /auth/token) and retry the request.",
    message: "The access token has expired",
    details: {}
  },
  token_revoked: {
    advice: "The keys were rotated: exchange the new key pair at POST /auth/token.",
    message: "The access token was revoked",
    details: {}
  },
  authentication_failed: {
    advice: "Check the key pair (same shop, same environment) or log in again; do not retry the same refresh token.",
    message: "The key pair was rejected",
    details: {}
  },
  permission_denied: {
    advice: "Call it with a key that holds `details.needed` (create a restricted key with it, or use the full secret key from your server).",
    message: "This restricted key (rk_test_…a1B2) may not call POST /api/v1/payments/:id/refund: it needs refunds:write",
    details: { needed: "refunds:write" }
  },
  secret_key_required: {
    advice: "Call this endpoint from your server with the secret key; the publishable key is for checkout only.",
    message: "This endpoint needs a secret key",
    details: {}
  },
  invalid_request: {
    advice: "Fix the fields named in `details.issues[].path`, then send the request again; retrying unchanged gives the same answer.",
    message: "Missing required parameter: amount",
    details: { issues: [{ path: "amount", message: "Missing required parameter: amount" }], missingFields: ["amount"] }
  },
  payload_too_large: {
    advice: "Send a body under 1 MB; large lists go in several requests.",
    message: "The request body is larger than 1048576 bytes",
    details: { maxBytes: 1048576 }
  },
  unsupported_media_type: {
    advice: "Send the body as JSON with `Content-Type: application/json`.",
    message: "The request body must be JSON: send Content-Type: application/json",
    details: {}
  },
  not_found: {
    advice: "Check the id and that the credential belongs to the shop and environment that created it.",
    message: "No such payment: 'TXN-01M8C3QQABHZAEKCJKXKJKTEVX'",
    details: { resource: "payment", id: "TXN-01M8C3QQABHZAEKCJKXKJKTEVX" }
  },
  method_not_allowed: {
    advice: "Use one of the methods in the `Allow` header.",
    message: "DELETE is not allowed on /api/v1/payments",
    details: { allowed: ["GET", "POST"] }
  },
  idempotency_key_reused: {
    advice: "Use a new Idempotency-Key for a different request; reuse a key only to retry the very same request.",
    message: "The Idempotency-Key was already used with a different request",
    details: { key: "order-1001" }
  },
  idempotency_key_in_progress: {
    advice: "Wait a second and retry with the same key: you will get the first request's answer.",
    message: "A request with this Idempotency-Key is still executing",
    details: { key: "order-1001" }
  },
  fund_sandbox_only: {
    advice: "Fund the balance with real pay-ins in production; use sandbox keys to fund a test balance.",
    message: "Sandbox funding is not available in production",
    details: {}
  },
  simulate_sandbox_only: {
    advice: "Use sandbox keys to simulate; in production the provider or the operator decides the outcome.",
    message: "Simulation is not available in production",
    details: {}
  },
  sandbox_only: {
    advice: "Use sandbox keys: test clocks exist in sandbox only.",
    message: "The sandbox clock does not exist in production",
    details: {}
  },
  checkout_session_not_found: {
    advice: "Create a new checkout session (they last 24 hours) and send the buyer its new URL.",
    message: "No such checkout session",
    details: { token: "cs_01m8c3r2k4w5x6y7z8a9b0c1d2" }
  },
  checkout_session_already_completed: {
    advice: "Read the payment in `details.existingTxId` instead of paying again.",
    message: "The checkout session already created its transaction",
    details: { existingTxId: "TXN-01M8C3QQABHZAEKCJKXKJKTEVF" }
  },
  missing_required_fields: {
    advice: "Collect the fields in `details.missingFields` from the buyer (or use hosted checkout) and send them.",
    message: "Missing buyer data: userName, documentId",
    details: { missingFields: ["userName", "documentId"] }
  },
  amount_out_of_limits: {
    advice: "Charge an amount within the method's `min` and `max` (GET /payment-methods) and the 100,000 USD headline limit, or split the order.",
    message: "The USD amount 150000 is above the limit of 100000 USD",
    details: { amountUsd: 150000, maxUsd: 100000 }
  },
  card_required: {
    advice: "Tokenize the buyer's card at the card vault (POST /card-sessions gives the vault's URL and a session token) and send `card: { token }`.",
    message: "Visa (1004) is a card rail: send card.token",
    details: {}
  },
  card_not_accepted: {
    advice: "Leave `card` out for this rail, or charge the card on a card rail (channel CREDIT_CARD).",
    message: "PIX (1001) is not a card rail: card is not accepted",
    details: {}
  },
  card_token_not_found: {
    advice: "Send a token the vault gave for one of your own cards; tokenize the card again if it was deleted.",
    message: "The card vault holds no card card_8f2k... for this merchant",
    details: {}
  },
  card_brand_mismatch: {
    advice: "Charge the card on its own brand's rail (GET /payment-methods), e.g. a Mastercard on the Mastercard rail.",
    message: "The card is a mastercard, the rail Visa (1004) takes visa",
    details: { cardBrand: "mastercard", railBrand: "visa" }
  },
  card_expired: {
    advice: "Ask the buyer for another card.",
    message: "The card expired in 03/2024",
    details: { expMonth: 3, expYear: 2024 }
  },
  installments_not_accepted: {
    advice: "Leave `installments` out for this rail, or charge a card rail (channel CREDIT_CARD).",
    message: "PIX (1001) is not a card rail: installments are not accepted",
    details: {}
  },
  installment_interest_not_supported: {
    advice: "Send `installments.interest: \"merchant\"` (or leave it out): the buyer pays the price in equal parts and you absorb the acquirer's cost.",
    message: "installments.interest \"buyer\" is not supported",
    details: {}
  },
  installments_invalid: {
    advice: "Ask GET /installments?paymentMethodId=&amount= for the counts this amount can be paid in, and send one of them.",
    message: "Visa (1004) takes 1, 2, 3, 4 instalment(s) for 20 BRL, not 6 (each instalment at least 5 BRL)",
    details: { allowed: [1, 2, 3, 4], minimumInstalment: 5, currency: "BRL" }
  },
  card_vault_unavailable: {
    advice: "Retry later (with the same Idempotency-Key): nothing was charged.",
    message: "The card vault could not be reached",
    details: {}
  },
  card_vault_not_configured: {
    advice: "Ask the host's operator to configure the card vault (VAULT_URL, VAULT_ENGINE_KEY, VAULT_SESSION_SECRET).",
    message: "No card vault is configured on this host",
    details: {}
  },
  cascade_exhausted: {
    advice: "Act on `details.reason`: enable the method or a provider for it, ask the buyer for another method, or retry later.",
    message: "No provider could process the payment",
    details: { reason: "provider_declined", paymentMethodEnabledForShop: true, providerReason: "insufficient_funds", transactionId: "TXN-01M8C3QQABHZAEKCJKXKJKTEVF" }
  },
  provider_outcome_unknown: {
    advice:
      "Retry the same request with the same Idempotency-Key after a few seconds: it asks the same provider again and answers the payment " +
      "once the provider says. Do not retry with a new key: that starts a second payment. The payment is pending meanwhile.",
    message: "dlocal gave no answer about the charge; retry with the same Idempotency-Key to ask it again",
    details: { transactionId: "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", provider: "dlocal", reason: "timeout" }
  },
  fx_unavailable: {
    advice: "Charge in USD or in the method's own currency, or retry later when the rate is back.",
    message: "No FX rate is available for VES",
    details: { currency: "VES" }
  },
  capture_requires_card: {
    advice: "Send `capture: false` only on a card rail (channel CREDIT_CARD); other rails are captured by the buyer paying.",
    message: "capture: false is for card rails only",
    details: {}
  },
  capture_not_supported: {
    advice: "Charge this rail with capture (omit `capture`), or route it to a provider that can authorize only.",
    message: "No provider for this rail can authorize without capturing",
    details: {}
  },
  payment_not_authorized: {
    advice: "Read the payment first: only an authorized payment can be captured or voided, once.",
    message: "A completed payment cannot be captured",
    details: { status: "completed" }
  },
  capture_amount_exceeds_authorized: {
    advice: "Capture at most the authorized amount (the payment's `authorization.amountLocal`).",
    message: "Only 100.00 BRL were authorized",
    details: { requested: 120, authorized: 100, currency: "BRL" }
  },
  capture_declined: {
    advice: "The authorization stays as it is until it expires; void it or ask the buyer to pay again.",
    message: "The provider refused the capture",
    details: { operation: "capture", providerCode: "not_authorized" }
  },
  capture_failed: {
    advice: "Retry later: nothing was captured or released at the provider.",
    message: "The provider could not take the capture now",
    details: { operation: "capture", providerCode: "503" }
  },
  refund_not_allowed: {
    advice: "Refund only completed payments; read the payment's status first.",
    message: "A pending payment cannot be refunded",
    details: { status: "pending" }
  },
  refund_amount_exceeds_remaining: {
    advice: "Refund at most `details.remaining` (in the payment's local currency).",
    message: "The refund is above what remains refundable",
    details: { requested: 600, remaining: 500.55, currency: "BRL" }
  },
  claim_not_chargeback: {
    advice: "Simulate an outcome on chargebacks only; a refund is settled by its provider.",
    message: "Only a chargeback is resolved with an outcome",
    details: { kind: "refund" }
  },
  claim_already_resolved: {
    advice: "Read the claim: it is final, and its outcome cannot change.",
    message: "The chargeback was already resolved",
    details: { status: "won" }
  },
  chargeback_already_opened: {
    advice: "Read the chargeback `details.claimId`: a payment is charged back once; resolve that one instead.",
    message: "The payment already has a chargeback: CLM-01M8C3QQABHZAEKCJKXKJKTEVF (open)",
    details: { claimId: "CLM-01M8C3QQABHZAEKCJKXKJKTEVF", status: "open" }
  },
  chargeback_not_allowed: {
    advice: "Charge back only completed payments; read the payment's status first.",
    message: "A pending payment cannot be charged back: only a completed one",
    details: { status: "pending" }
  },
  chargeback_nothing_remaining: {
    advice: "Nothing is left to dispute: the payment's refunds cover it; a refund still pending that fails makes it disputable again.",
    message: "The payment's refunds (approved or pending) cover all of it: nothing remains to dispute",
    details: { amount: 500.55, refunded: 500.55, currency: "BRL" }
  },
  routing_rule_invalid: {
    advice: "Fix each field `details.issues[]` names: give a BIN range's from and to with as many digits, from not above to; an instalment min not above its max; card conditions only on rules that can match a card rail of their brands.",
    message: "Invalid routing configuration: a card condition can never hold",
    details: { issues: [{ path: "rules[0].when.bins[0]", message: "from (5500) and to (559999) must have as many digits" }] }
  },
  routing_version_conflict: {
    advice: "Read the routing again (GET), apply your change to it and send it with the new version.",
    message: "The routing configuration changed since it was read",
    details: { version: 4 }
  },
  connector_credentials_refused: {
    advice: "Check the credentials against the provider's dashboard for this environment (a sandbox key is refused in production and the other way round) and send them again. Nothing was saved.",
    message: "The provider refused the credentials: HTTP 401 from the provider",
    details: { code: "invalid_credentials", providerMessage: "HTTP 401 from the provider" }
  },
  connector_account_in_use: {
    advice: "Disable the account (PATCH status: disabled) so that it takes no new payment, remove the routes that name it, and delete it once its open payments have ended. An account you may still refund through stays, disabled.",
    message: "The connector account has 1 route(s) naming it and 0 open payment(s)",
    details: { routes: 1, openPayments: 0 }
  },
  connector_account_conflict: {
    advice: "Read the account again (GET), apply your change and send it with the version read; for a new account, choose another id or leave it out.",
    message: "The connector account is at version 3, not 2: read it again",
    details: { version: 3 }
  },
  team_unavailable: {
    advice: "Give the engine a Passwords, a OneTimeCodes and a Sealing service (the reference host does), or manage access with API keys.",
    message: "This engine has no password hashing, one-time codes or sealing key configured: team members cannot sign in",
    details: {}
  },
  connector_accounts_not_allowed: {
    advice: "Ask the operator of the host to create the account, or to let merchants manage their own (MERCHANT_CONNECTOR_ACCOUNTS=true).",
    message: "This host does not let merchants manage their own connector accounts; ask the operator",
    details: {}
  },
  payout_already_final: {
    advice: "Read the payout: it is final and cannot be resolved again.",
    message: "The payout is no longer processing",
    details: { status: "completed" }
  },
  payout_dispatch_failed: {
    advice: "Correct the recipient data named in `details.failureReason` and retry; nothing stays debited.",
    message: "The provider rejected the beneficiary data",
    details: { failureReason: "invalid_account", payoutId: "PO-01M8C3R5N2P3Q4R5S6T7U8V9W0", debitReversed: true }
  },
  settlement_destination_unavailable: {
    advice: "Choose a chain listed in `details.chains` (sandbox: `SANDBOX`); in production ask the operator to configure a settlement payout provider for the chain.",
    message: "No settlement payout provider pays on ETH in production",
    details: { chain: "ETH", chains: [] }
  },
  settlement_destination_refused: {
    advice: "Check the address and the chain: the provider would not enter it in its address book. Correct them and send the schedule again.",
    message: "circle refused the destination: Invalid entity. address is not a ETH address",
    details: { provider: "circle", reason: "Invalid entity. address is not a ETH address" }
  },
  settlement_open: {
    advice: "Wait for the batch to close (`details.closesAt`, then `settlement.closed` and `settlement.pdf_ready`) and fetch the statement then.",
    message: "Settlement STL-01M8C3R5N2P3Q4R5S6T7U8V9W0 is still open: it closes at 2026-11-27T00:00:00.000Z",
    details: { settlementId: "STL-01M8C3R5N2P3Q4R5S6T7U8V9W0", closesAt: "2026-11-27T00:00:00.000Z" }
  },
  report_format_unknown: {
    advice: "Name one of `details.formats` (the provider's documented report formats this host reads) in `format`; when `details.formats` is empty, pass the `environment` of `details.configuredIn` the report is about.",
    message: "Provider dlocal has no report format 'settlement.csv'",
    details: { provider: "dlocal", environment: "production", formats: ["settlement-cross-border-csv"], configuredIn: ["production"] }
  },
  report_malformed: {
    advice: "Fix the file at `details.line`, `details.column` (or ask the provider for a new one) and upload it again; nothing was imported.",
    message: "The report breaks its format at line 7, column LOCAL_AMOUNT: not a decimal amount: '12,5O'",
    details: { line: 7, column: "LOCAL_AMOUNT", problem: "not a decimal amount: '12,5O'" }
  },
  report_source_unavailable: {
    advice: "Upload the provider's report file with POST /admin/v1/reconciliation/reports instead.",
    message: "Provider dlocal has no reports API here: upload its report file",
    details: { provider: "dlocal" }
  },
  report_unavailable: {
    advice: "Retry the run later; the scheduled run retries by itself with backoff.",
    message: "Provider mercadopago did not give the report: the report is not ready after 10 questions",
    details: { provider: "mercadopago", reason: "the report is not ready after 10 questions" }
  },
  discrepancy_resolved: {
    advice: "Read the discrepancy's `resolution`; a further correction is another adjustment on another discrepancy or a manual journal entry.",
    message: "Discrepancy rcd_01M8C3R5N2P3Q4R5S6T7U8V9W0 was resolved at 2026-11-27T09:12:00.000Z",
    details: { discrepancyId: "rcd_01M8C3R5N2P3Q4R5S6T7U8V9W0", resolvedAt: "2026-11-27T09:12:00.000Z" }
  },
  adjustment_needs_record: {
    advice: "Resolve it with a `note` alone: a line unknown to the engine has no shop to book an adjustment on.",
    message: "Discrepancy rcd_01M8C3R5N2P3Q4R5S6T7U8V9W0 has no engine record to book an adjustment on",
    details: { discrepancyId: "rcd_01M8C3R5N2P3Q4R5S6T7U8V9W0" }
  },
  payout_method_unavailable: {
    advice: "Take a method id from GET /me/payout/methods; in production ask the operator to configure its provider.",
    message: "No payout method 'mx_spei_x': take ids from GET /me/payout/methods",
    details: { methodId: "mx_spei_x" }
  },
  currency_not_funded: {
    advice: "Transfer USD to the payout balance and swap it to the currency (POST /me/payout/transfer, then /me/payout/swap).",
    message: "The payout balance holds no MXN",
    details: { currency: "MXN" }
  },
  balance_insufficient: {
    advice: "Send at most the available amount, or wait for pending funds to settle (GET /me/balance).",
    message: "Only 76.78 USD is available",
    details: { currency: "USD", requested: 100, available: 76.78, shortfall: 23.22 }
  },
  amount_rounds_to_zero: {
    advice: "Send an amount worth at least the smallest unit of `details.bookedCurrency` after conversion (0.01 USD for a swap or a refund's USD share).",
    message: "0.03 BRL is less than the smallest USD unit after conversion: nothing would be booked",
    details: { amount: 0.03, currency: "BRL", bookedCurrency: "USD" }
  },
  amount_invalid: {
    advice: "Send an amount above 0 with the currency's decimals, within the range the message states.",
    message: "A withdrawal is at least 10 USD",
    details: { amount: 5, currency: "USD", minimumUsd: 10 }
  },
  deposit_method_required: {
    advice: "Send one of the `depositMethodId`s listed in `details.depositMethods`.",
    message: "Choose a deposit method",
    details: { depositMethods: [{ depositMethodId: "mx_spei", name: "SPEI" }, { depositMethodId: "mx_oxxo", name: "OXXO" }] }
  },
  deposit_method_unavailable: {
    advice: "Use one of `details.depositMethods`, or ask the operator to enable the method.",
    message: "The deposit method is not enabled for the shop",
    details: { depositMethodId: "br_pix", depositMethods: [{ depositMethodId: "mx_spei", name: "SPEI" }] }
  },
  deposit_accounts_unavailable: {
    advice: "Ask the operator to enable deposit accounts for the shop.",
    message: "Deposit accounts are not enabled for the shop",
    details: {}
  },
  rate_limited: {
    advice: "Wait `Retry-After` seconds, then retry; spread requests out or cache what you read.",
    message: "Too many requests: at most 25 per second for one credential",
    details: { limit: 25, retryAfterSeconds: 1 }
  },
  internal_error: {
    advice: "Retry with the same Idempotency-Key; if it persists, report the `requestId`.",
    message: "An unexpected error occurred",
    details: {}
  }
}

/** An example envelope of `code`, as the host writes it. */
export const errorExample = (code: ErrorCode, docsBase = "https://api.example.com") => {
  const e = ErrorCatalog[code]
  const guide: Guide<ErrorCode> = errorGuide[code]
  return {
    error: {
      code,
      type: e.type,
      message: guide.message,
      requestId: "req_01m8c3qx531p57ge0gkanvf62j",
      docs_url: `${docsBase}/docs/errors#${code}`,
      details: guide.details
    }
  }
}
