/**
 * The prose of the OpenAPI document: conventions every endpoint shares, and the error codes with
 * an example envelope and what the merchant should do about each (`errorGuide`, shown on
 * `/docs/errors` and as the examples of the `Error_<code>` schemas).
 */
import { type DetailsOf, ErrorCatalog, type ErrorCode, errorCodes } from "../../../core/ApiError.ts"

interface Guide<C extends ErrorCode> {
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
  cascade_exhausted: {
    advice: "Act on `details.reason`: enable the method or a provider for it, ask the buyer for another method, or retry later.",
    message: "No provider could process the payment",
    details: { reason: "provider_declined", paymentMethodEnabledForShop: true, providerReason: "insufficient_funds", transactionId: "TXN-01M8C3QQABHZAEKCJKXKJKTEVF" }
  },
  fx_unavailable: {
    advice: "Charge in USD or in the method's own currency, or retry later when the rate is back.",
    message: "No FX rate is available for VES",
    details: { currency: "VES" }
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
  routing_version_conflict: {
    advice: "Read the routing again (GET), apply your change to it and send it with the new version.",
    message: "The routing configuration changed since it was read",
    details: { version: 4 }
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

const errorTable = [
  "| HTTP | code | type | when, and what to do |",
  "|---|---|---|---|",
  ...errorCodes.map((code) => {
    const e = ErrorCatalog[code]
    return `| ${e.status} | \`${code}\` | ${e.type} | ${e.description} ${errorGuide[code].advice} |`
  })
].join("\n")

export const apiDescription = `
Merchants accept Latin-American local payment methods, settle in USD, refund, hold balances, send
payouts, give end users fixed deposit accounts and receive signed webhooks.

## Conventions

- Bodies are JSON (UTF-8), fields camelCase, timestamps ISO 8601.
- Money is in major units of its currency (\`50.00\` is fifty), never cents, and is exact: amounts
  are decimals rounded to the currency's ISO 4217 exponent (CLP 0, USD 2), half to even.
- Two environments, sandbox (\`pk_test_\`/\`sk_test_\` keys) and production (\`pk_live_\`/\`sk_live_\`).
  A credential only ever sees its own environment's data; an id of another shop or environment
  answers exactly like an unknown id (404).
- Authentication: exchange a key pair at \`POST /auth/token\` and send
  \`Authorization: Bearer <accessToken>\`. A raw secret key is also accepted as the bearer (legacy).
  Publishable keys serve hosted checkout and the endpoints marked *any key* only.
- Every response carries \`X-Request-Id\`; an error body carries the same \`requestId\`.
- Rate limits, like Stripe's: per credential 100 requests per second in production and 25 in
  sandbox, and per client IP 30 per minute on \`POST /auth/token\` and \`/auth/refresh\` (the
  operator may configure them). An unknown raw API key sent as the bearer takes from its IP's
  allowance of \`/auth/token\` too; once that is spent, raw keys from the IP wait for the reset
  (access tokens do not). Every limited response carries \`RateLimit-Limit\`,
  \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); past the limit the answer is
  \`429 rate_limited\` with \`Retry-After\`. Limits hold across every replica of the host.
- Input is strict, like Stripe's: an unknown field in a body or query is \`400 invalid_request\`
  naming it in \`details.issues[].path\` (a typo is never ignored); a body over 1 MB is
  \`413 payload_too_large\`; a body that is not \`application/json\` is \`415
  unsupported_media_type\`; a NUL character in a path, query or string is \`400\`; every amount
  is a finite number of at most 1e12 in magnitude, with at most its currency's decimals. A client
  that does not finish its headers within 10 s gets \`408\` and is disconnected.

## Pay-ins

- \`POST /payments\` converts a presentment \`currency\` to the USD headline at the mid rate minus
  the FX markup (\`amount / perUsd * (1 - markup)\`), then the headline to the rail's local
  currency at the mid rate plus the markup (\`usd * perUsd * (1 + markup)\`); each rounded to
  its currency, half to even. The rates used are stored with the payment.
- Fees are USD on the headline: the tier's platform fee (starter 2.9 % + 0.30, standard
  2.5 % + 0.25, premium 1.9 % + 0.20) plus the rail's provider fee (\`fee\` in the catalog); the
  tier's rolling reserve (10 %, 5 %, 0 %) is held back and released to \`available\` 90, 60 or 30
  days after completion (\`reserveSchedule\` in \`GET /me/balance\`). Net = amount - fees.total - reserve lands in
  \`pending\` at completion and moves to \`available\` after the rail's settlement delay (T+n days).
- Settlement and reserve release are per payment: each moves what is left of that payment's own
  net and reserve (less what its refunds or chargeback took), on its schedule, whatever claims it
  had; a payment never settles with another payment's money. Before reaching \`available\`, the
  money first repays what the shop owes (see Refunds and chargebacks).
- Routing: the shop's configured providers for the rail, by ascending priority; the next one is
  tried after a retryable failure (timeout, 5xx, unavailable), not after a decline.
  \`cascade_exhausted\` says why in \`details.reason\`: \`unknown_payment_method\`,
  \`no_provider_for_method_region\` (with \`paymentMethodEnabledForShop: false\`),
  \`all_providers_failed\` or \`provider_declined\` (with \`details.attempts\`).
- Life cycle: \`pending\` -> \`completed\` (signed provider callback, or the reconcile poll every 5
  minutes when the callback was lost) | \`failed\` | \`expired\` (at \`expiresAt\`, after asking
  the provider once more). Events: \`payment.completed\` (plus \`payment.captured\` for payments the sandbox provider completes),
  \`payment.failed\` (also for expiry: its \`data.status\` says \`expired\`).
- \`Idempotency-Key\` (1 to 255 characters) on every POST that moves money: a retry with the same
  key and body replays the first response with the header \`Idempotent-Replayed: true\` (also
  while the first is still running: it waits up to 20 s, then \`409 idempotency_key_in_progress\`);
  the same key with another body is \`409 idempotency_key_reused\`. Exactly once, also across
  crashes: the payment is written (status \`pending\`) before any provider is called and the key is
  bound to it in the same transaction, so a retry after a timeout or an outage continues that
  payment (same \`transactionId\`, same upstream idempotency key) and never starts a second one.
  Errors are never stored (spec 1.9): a retry with the same key after an error executes again (a
  payment that ended \`failed\` stays as it is, named in \`details.transactionId\` of
  \`cascade_exhausted\`, and the retry creates a new one). Keys are kept 24 hours per merchant and environment.

## Refunds and chargebacks

- A refund (\`POST /payments/{id}/refund\`) or a chargeback takes its USD from that payment's own
  share first (its net while still \`pending\`, then its rolling reserve while still held), then
  from \`available\`. What these cannot cover is **owed** by the shop: a refund may be owed only
  while the whole balance less what is already owed covers it (else \`422 balance_insufficient\`);
  a chargeback's shortfall is always owed.
- What the shop owes is recovered from its later income: a settlement, a reserve release, a won
  chargeback or a rejected refund first repays it, in the same balance movement, and only the rest
  reaches \`available\`. \`GET /me/balance\` reports \`feeSummary.netBalance\` = available + pending +
  frozen + reserve - owed, and \`ledgerWarnings\` states what is still owed.
- A chargeback (provider callback, or \`Sandbox-Simulate: chargeback\`) moves the payment to
  \`chargeback\` and freezes what remains of it: its USD headline less its refunds succeeded or
  pending (a chargeback after a partial refund disputes only the rest), plus the tier's
  chargeback fee (15/15/10 USD). Events \`chargeback.created\` and \`claim.opened\`.
- It resolves once, \`won\` or \`lost\` (claim \`status\` and \`resolution\`, \`claim.resolved\`): by the
  provider's callback, by \`POST /claims/{id}/simulate\` in sandbox, or by the operator
  (\`POST /admin/v1/claims/{id}/resolve\`). Won: the frozen amount returns to the shop (owed
  first, then \`available\`); the chargeback fee is not returned (as with Stripe's dispute fee).
  Lost: the frozen amount leaves to the provider, which returns it to the buyer. The payment
  stays \`chargeback\`.

## Hosted checkout

Sessions (\`POST /checkout/sessions\`) hold the amount, the buyer data known so far and the
merchant's order id; the buyer finishes on \`{checkout_url}/checkout/{token}\`. Buyer data a
hosted transaction needs: a full name of two words at least, a valid email and a document id,
plus a phone (with country code) on rails that require one; the same rule applies to
\`POST /payments\` with \`hostedCheckout: true\` (422 \`missing_required_fields\` otherwise; that
legacy call never answers \`awaiting_details\`, since its response is a payment). The buyer's
IP is taken when the page is opened, from the trusted proxy hop, and forwarded as \`userIp\`.

Some rails' providers need more of the buyer than the amount: a Brazilian boleto prints the
payer's postal address and phone. \`GET /payment-methods\` lists, per method, the
\`requiredFields\` without which no provider configured for the shop can charge it. A provider
that needs data the request lacks is passed over in the cascade (it could only decline); when
none is left, \`POST /payments\` answers 422 \`missing_required_fields\` naming what the first
choice of routing needs, before any provider is asked and with nothing written. The address is
\`userAddress\` on \`POST /payments\` and \`customer.address\` (or \`userAddress\`) in checkout
sessions; like the document id it is forwarded to the provider and never stored.

## Payouts

The payout balance is separate from the pay-in balance. Fund it with \`POST /me/payout/transfer\`
(USD from pay-in \`available\`, atomically), swap USD to a payout currency with
\`POST /me/payout/swap\` (rate = mid x (1 - markup), rounded to the currency), then
\`POST /me/payout/send\` in the method's currency with the \`recipient\` fields that
\`GET /me/payout/methods\` lists for it (checked field by field: CLABE check digit, CPF/CNPJ, CBU,
CCI, RUT, phone and email formats; \`400 invalid_request\` names every bad field). The amount leaves
\`available\` in the same transaction as the payout is written, so racing payouts cannot overdraw
(\`422 balance_insufficient\` with \`availableUsd\` and \`shortfallUsd\`). Life cycle:
\`processing\` -> \`completed\` | \`failed\` (final; a failed payout returns its debit). Events
\`payout.completed\`, \`payout.failed\` (with \`failureReason\`). Without a payout provider for the
rail, the simulated driver completes at once and refuses a recipient name containing \`REJECT\`
(\`422 payout_dispatch_failed\`, debit reversed). In sandbox the \`sbx_po_*\` rails debit nothing
and wait for \`POST /me/payout/send/{id}/simulate\`.

## Withdrawals

\`POST /me/withdrawals\` sends USD of the pay-in available balance to the merchant's bank
(\`destination\`: account holder, bank name, account number or IBAN, optional BIC). The tier's
\`withdrawalFeeUsd\` is charged on top: \`amount + fee\` leaves \`available\` in the transaction
that writes the withdrawal, so racing withdrawals cannot overdraw. A local-currency balance is
swapped to USD first. Life cycle as payouts: \`processing\` -> \`completed\`
(\`withdrawal.completed\`) | \`failed\` (amount and fee back to \`available\`;
\`withdrawal.failed\` with \`failureReason\`). In sandbox \`POST /me/withdrawals/{id}/simulate\`
decides; in either environment the operator records the bank's answer with
\`POST /admin/v1/withdrawals/{id}/resolve\`.

## Sandbox

Every rail of the catalog is served in sandbox by the sandbox provider (after any provider the
shop has configured), plus the test methods \`sbx_pix\`, \`sbx_spei\`, \`sbx_card\`, \`sbx_pse\`,
\`sbx_cash\`. The header \`Sandbox-Simulate\` on \`POST /payments\` drives the outcome:

| value | response | then |
|---|---|---|
| (none) | pending | stays pending until paid or expired |
| \`paid\` | pending | completed within a second (\`payment.completed\`, \`payment.captured\`) |
| \`failed\` | pending | failed within a second (\`payment.failed\`) |
| \`expired\` | pending, \`expiresAt\` = now | expired within a second (\`payment.failed\`, status expired) |
| \`chargeback\` | pending | completed, then a chargeback opens within a second: status \`chargeback\`, \`chargeback.created\` and \`claim.opened\`, the USD amount frozen and the tier's chargeback fee charged (\`feeSummary.chargebackFees\`); \`POST /claims/{id}/simulate\` with \`{ "outcome": "won" \\| "lost" }\` decides it |
| \`slow_payment\` | pending | its callback is lost; the next reconcile poll (at most 5 minutes) completes it |

Any other value is \`400 invalid_request\`. The header is ignored in production.

### Test clocks

Each sandbox shop has its own clock, like Stripe's test clocks, so a week of life cycle takes a
second. \`POST /sandbox/clock/advance\` \`{ "seconds": N }\` (an integer from 1 to 400 days) moves
the shop's sandbox time forward and, before answering \`{ "now", "offsetSeconds" }\` (the total
offset), runs everything that came due for the shop: payment expiry and \`Sandbox-Simulate\`
outcomes, settlement T+n and reserve release, refund resolution, payout and withdrawal timers,
webhook deliveries and their retries, and the reconcile poll of its pending payments (which
completes a \`slow_payment\` two minutes after its creation). So after advancing by a payment's
settlement days it reads \`settlement.status: settled\` and its net has moved from \`pending\` to
\`available\`. \`GET /sandbox/clock\` reads the clock.

From then on every sandbox request of the shop, and the background work done for it (jobs,
callbacks, deliveries, the hosted checkout pages), runs in the shop's time: timestamps, expiry
dates, settlement and reserve dates, events. Webhook signatures keep real time (\`t=\` is checked
against the receiver's clock). Time never goes back. A shop's clock moves no other shop's, and
production time never moves (\`400 sandbox_only\`). A merchant-wide credential names the shop with
\`shopId\` (query string, or body of the advance).

## Errors

Every error answers \`{ "error": { code, type, message, requestId, docs_url, details } }\`.
A request that does not match its schema answers \`400 invalid_request\` with
\`details.issues[]\` (\`{ path, message }\`, every problem at once) and \`details.missingFields\`
(the required top-level fields that were absent). Unknown routes answer \`404 not_found\`.

Each operation lists only the statuses and codes it can answer, and each code's envelope is a
schema of its own (\`Error_<code>\`, with its \`details\` typed; \`Error\` is the union of all):
a generated client narrows on \`error.code\`. Besides its own codes, every operation can answer
\`400 invalid_request\` (a NUL character, a body that does not decode), \`413 payload_too_large\`
and \`500 internal_error\`; a JSON body adds \`415\`, an \`Idempotency-Key\` header the two
\`409\` idempotency codes, and a path parameter \`404 not_found\` (a parameter over 100 characters
matches no route).

${errorTable}
`.trim()
