/**
 * The prose of the OpenAPI document: conventions every endpoint shares, and the error codes'
 * table (their advice and examples are in `ErrorGuide.ts`).
 */
import { ErrorCatalog, errorCodes } from "../../../core/ApiError.ts"
import { errorGuide } from "./ErrorGuide.ts"
import { httpStatus } from "./ErrorStatus.ts"

const errorTable = [
  "| HTTP | code | type | when, and what to do |",
  "|---|---|---|---|",
  ...errorCodes.map((code) => {
    const e = ErrorCatalog[code]
    return `| ${httpStatus[code]} | \`${code}\` | ${e.type} | ${e.description} ${errorGuide[code].advice} |`
  })
].join("\n")

export const apiDescription = `
Merchants accept Latin-American local payment methods, settle in USD, refund, hold balances, send
payouts, give end users fixed deposit accounts and receive signed webhooks.

## Conventions

- Bodies are JSON (UTF-8), fields camelCase, timestamps ISO 8601.
- Money is in major units of its currency (\`50.00\` is fifty), never cents, and is exact: amounts
  are decimals with the currency's ISO 4217 exponent (CLP 0, USD 2). Every conversion and share
  is rounded in the platform's favour: what the merchant receives (a USD headline, the USD of a
  swap, the local money of a payout swap) down, what it or its buyer pays (fees, a refund's USD
  share, a local price converted from USD) up. An operation whose booked amount would round to 0
  (a swap or payout swap worth less than one unit of its target, a refund with nothing of its
  payment's USD headline left to take) is refused with \`422 amount_rounds_to_zero\`.
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
  naming it in \`details.issues[].path\` (a typo is never ignored); \`null\` for an optional body
  field is the same as leaving it out (a JSON client's way of saying "not set"); a body over 1 MB is
  \`413 payload_too_large\`; a body that is not \`application/json\` is \`415
  unsupported_media_type\`; a NUL character in a path, query or string is \`400\`; every amount
  is a finite number of at most 1e12 in magnitude, with at most its currency's decimals. A client
  that does not finish its headers within 10 s gets \`408\` and is disconnected.

## Pay-ins

- \`POST /payments\` converts a presentment \`currency\` to the USD headline at the mid rate minus
  the FX markup (\`amount / perUsd * (1 - markup)\`, rounded down). A price in the rail's own
  currency is what the buyer pays (\`amountLocal\` = \`amount\`: only the headline carries the
  markup); any other price goes from the headline to the rail's local currency at the mid rate
  plus the markup (\`usd * perUsd * (1 + markup)\`, rounded up). The rates used are stored with
  the payment.
- Fees are USD on the headline, each percentage rounded up to the cent: the tier's platform fee (starter 2.9 % + 0.30, standard
  2.5 % + 0.25, premium 1.9 % + 0.20) plus the rail's provider fee (\`fee\` in the catalog); the
  tier's rolling reserve (10 %, 5 %, 0 %) is held back and released to \`available\` 90, 60 or 30
  days after completion (\`reserveSchedule\` in \`GET /me/balance\`). Net = amount - fees.total - reserve lands in
  \`pending\` at completion and moves to \`available\` after the rail's settlement delay (T+n days).
- Settlement and reserve release are per payment: each moves what is left of that payment's own
  net and reserve (less what its refunds or chargeback took), on its schedule, whatever claims it
  had; a payment never settles with another payment's money. Before reaching \`available\`, the
  money first repays what the shop owes (see Refunds and chargebacks).
- Routing: the shop's configured providers for the rail, by ascending priority; the next one is
  tried after a failure that left nothing behind (a refused connection, 503, 429, refused
  credentials), not after a decline, and not after no answer about the charge (a timeout, a
  connection lost after sending, 500, 502, 504, an unreadable answer): that provider may hold the
  charge, and another could charge the buyer twice. The request then answers
  \`503 provider_outcome_unknown\` naming the payment; retry with the same \`Idempotency-Key\` and
  the same provider is asked again with the same upstream key (the recovery job also asks it,
  from 5 minutes on). The payment is \`pending\` meanwhile; with no answer by its \`expiresAt\` it
  fails (\`failureReason\` \`provider_outcome_unknown: ...\`).
  \`cascade_exhausted\` says why in \`details.reason\`: \`unknown_payment_method\`,
  \`no_provider_for_method_region\` (with \`paymentMethodEnabledForShop: false\`),
  \`all_providers_failed\` or \`provider_declined\` (with \`details.attempts\`). Every provider
  of the rule or the shop's routes that routing passed over without calling it is in
  \`details.skipped\` (\`{ provider, reason, missingFields? }\`; reasons \`route_disabled\`,
  \`provider_not_configured\`, \`method_not_supported\`, \`method_not_in_route\`,
  \`excluded_by_rule\`, \`circuit_open\`, \`missing_required_fields\`), and on the payment as
  \`routing.skipped\` of GET /payments/{id}. In sandbox, the built-in sandbox provider serves a
  shop without routes of its own; a shop with routes only when one of them names \`sandbox\`.
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
  \`cascade_exhausted\`, and the retry creates a new one), except \`provider_outcome_unknown\`,
  whose payment is still open: the retry continues it. Keys are kept 24 hours per merchant and environment.
- Cards: this API never sees a card number. Your server gets a session from POST /card-sessions,
  tokenizes the card at the card vault (\`POST {vaultUrl}/v1/cards\`) and sends the token it got as
  \`card: { token }\` on a card rail (channel \`CREDIT_CARD\`); required there in production
  (\`card_required\`), refused elsewhere (\`card_not_accepted\`), checked with the vault before anything
  is written (\`card_token_not_found\`, \`card_brand_mismatch\`, \`card_expired\`, 503
  \`card_vault_unavailable\`). The payment shows \`card: { brand, bin, last4, expMonth, expYear, fingerprint }\`
  (never the token or the holder's name), in webhook events too.
  PCI DSS: only the vault stores or transmits card numbers; a deployment keeps its scope there by
  running the vault as its own service, with its own store, keys and network rules (the operating
  guide, "Keeping PCI DSS scope at the vault"). A merchant server that posts cards to the vault
  itself handles card numbers and needs its own PCI DSS validation; one that uses the hosted card
  page does not see them. No card connector has yet charged a real card.

## Refunds and chargebacks

- A refund (\`POST /payments/{id}/refund\`) or a chargeback takes its USD from that payment's own
  share first (its net while still \`pending\`, then its rolling reserve while still held), then
  from \`available\`. What these cannot cover is **owed** by the shop: a refund may be owed only
  while the whole balance less what is already owed covers it (else \`422 balance_insufficient\`).
  A partial refund's USD is the headline pro rata, rounded up and never more than what is left of
  it; the refund of the rest takes exactly what is left, so refunds in parts never take more than
  a refund in full. A refund with nothing of the headline left to take is \`422 amount_rounds_to_zero\`.
  A chargeback's shortfall is always owed.
- What the shop owes is recovered from its later income: a settlement, a reserve release, a won
  chargeback or a rejected refund first repays it, in the same balance movement, and only the rest
  reaches \`available\`. \`GET /me/balance\` reports \`feeSummary.netBalance\` = available + pending +
  frozen + reserve - owed, and \`ledgerWarnings\` states what is still owed.
- A chargeback (provider callback, \`Sandbox-Simulate: chargeback\`, the operator's
  \`POST /admin/v1/payments/{id}/chargebacks\` for one a provider reported late, or its sandbox
  rehearsal \`POST /payments/{id}/simulate-chargeback\`) moves the payment to
  \`chargeback\` and freezes what remains of it: its USD headline less its refunds succeeded or
  pending (a chargeback after a partial refund disputes only the rest), plus the tier's
  chargeback fee (15/15/10 USD). Events \`chargeback.created\` and \`claim.opened\`. A payment is
  charged back once: 409 \`chargeback_already_opened\`; 422 \`chargeback_not_allowed\` (not
  completed) or \`chargeback_nothing_remaining\` (its refunds cover it all).
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

The buyer's links are capabilities, not ids: \`{checkout_url}/checkout/{token}\` opens with the
session's token, \`{checkout_url}/c/{transactionId}?returnUrl=…&token=…\` with the payment's
link token (in the \`checkoutUrl\` a create, a one-shot session or a select returns), and the
sandbox provider's form with the secret its \`paymentFormUrl\` carries. Each is 24 random bytes,
compared in constant time; a link without its token answers 404, as an unknown id does.

Some rails' providers need more of the buyer than the amount: a Brazilian boleto prints the
payer's postal address and phone. \`GET /payment-methods\` lists, per method, the
\`requiredFields\` without which no provider configured for the shop can charge it. A provider
that needs data the request lacks is passed over in the cascade (it could only decline; the
payment's \`routing.skipped\` says so, naming its \`missingFields\`); when none is left,
\`POST /payments\` answers 422 \`missing_required_fields\` naming what the first choice of
routing needs (and each provider in \`details.skipped\`), before any provider is asked and with
nothing written. Each method's \`providers[]\` in \`GET /payment-methods\` lists what each
provider of the shop needs. The address is
\`userAddress\` on \`POST /payments\` and \`customer.address\` (or \`userAddress\`) in checkout
sessions; like the document id it is forwarded to the provider and never stored.

## Payouts

The payout balance is separate from the pay-in balance. Fund it with \`POST /me/payout/transfer\`
(USD from pay-in \`available\`, atomically), swap USD to a payout currency with
\`POST /me/payout/swap\` (rate = mid x (1 - markup), rounded down to the currency), then
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

## Settlements

A shop with a settlement schedule is paid in batches, in USDC. The operator sets the schedule
(\`PUT /admin/v1/shops/{shopId}/settlement-schedule\`): a \`daily\` or \`weekly\` close at a time
of the shop's time zone, the USDC address and chain it is paid to, and a minimum. Sandbox shops
start with a daily close at 00:00 UTC paid on the sandbox chain (\`SANDBOX\`), which completes at
once. A shop without a schedule (or with \`manual\`) keeps its money \`available\` for withdrawals
and payout transfers; \`GET /me\` says \`capabilities.crypto: ["USDC"]\` when it is paid in batches.
Where the payer pays only to addresses its administrator approved (Circle Mint's address book),
the schedule's \`destinationApproval\` says where the address stands (\`approved\`, \`pending\`,
\`denied\`, \`unknown\`); a close keeps the batch open while it is not approved.

- **The open batch** (\`status: open\`, first in \`GET /me/settlements\`) is the current period: it
  closes at \`period.end\`. Its totals are \`null\` until then.
- **At the close** what is \`available\` in USD is swept into the batch in one entry (money a
  withdrawal or payout transfer in flight holds has already left \`available\` and is never
  taken): every movement of the period (payments, refunds, chargebacks, fees, reserve held and
  released, owed amounts recovered) is a line of exactly one batch, and the lines sum to \`net\`
  to the cent. The batch is \`paying\`, \`settlement.closed\` is sent with it, and a new open
  batch starts. A net below the schedule's \`minimumUsd\` (or nothing) leaves the batch open
  until the next close. Local-currency balances are not swept: swap them to USD first.
- **The payout** is one transfer of \`net\` to the destination, sent once whatever the retries:
  \`paid\` with \`payout.transactionHash\`, or \`failed\` with \`payout.failureReason\`. There is
  no \`settlement.failed\` event: a failed batch's net goes back to \`available\` (balance movement
  \`settlement.failed\` in \`GET /me/balance\`) and the next batch pays it again.
- **Statements**: \`GET /me/settlements/{id}/statement.pdf\` (a receipt to file: merchant, shop,
  period, destination, summary and every line with its transaction id, merchant order id, method,
  local and USD amounts and fees) and \`.csv\` (the same lines, for a spreadsheet), from the close
  on; \`settlement.pdf_ready\` says when they are ready. An open batch answers
  \`409 settlement_open\`.

On a sandbox shop, advancing the test clock runs each close on the way: a week's advance closes
seven daily batches, each with what became available that day.

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
outcomes, settlement T+n and reserve release, settlement batch closes and their payouts,
refund resolution, payout and withdrawal timers,
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
