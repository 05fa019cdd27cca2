/**
 * What the generated OpenAPI documents say beyond the schemas: a summary per operation (generated
 * clients name their methods' docs after it), the server, and query parameters typed as what they
 * mean (`limit` and `offset` are integers with bounds and defaults, amounts are numbers) rather
 * than the text a query string carries, and each operation's own errors (`OperationErrors.ts`). Applied to the merchant document (`/openapi.json`) and
 * the operator's (`/admin/openapi.json`).
 */
import { payoutMethods } from "../../../core/payouts/payoutMethods.ts"
import { errorCodes } from "../../../core/ApiError.ts"
import { errorExample } from "./ErrorGuide.ts"
import type { OperationErrors } from "./EndpointErrors.ts"
import { withOperationErrors } from "./OperationErrors.ts"

const summaries: Readonly<Record<string, string>> = {
  "auth.token": "Exchange a key pair for tokens",
  "auth.refresh": "Refresh an access token",
  "ping.ping": "Check a key",
  "identity.me": "Get the merchant",
  "identity.balance": "Get the pay-in balance",
  "identity.swapQuote": "Quote a swap to USD",
  "identity.swap": "Swap a local balance to USD",
  "identity.fundSandbox": "Fund the sandbox pay-in balance",
  "catalog.paymentMethods": "List payment methods",
  "payments.create": "Create a payment",
  "payments.list": "List payments",
  "payments.get": "Get a payment",
  "payments.createTransaction": "Create a payment (legacy path)",
  "payments.listTransactions": "List payments (legacy path)",
  "payments.getTransaction": "Get a payment (legacy path)",
  "callbacks.providerCallback": "Receive a provider's payment notification",
  "callbacks.payoutCallback": "Receive a provider's payout notification",
  "checkout.createSession": "Create a checkout session",
  "checkoutPublic.getSession": "Get a checkout session (buyer)",
  "checkoutPublic.select": "Select a method in a checkout session (buyer)",
  "webhooks.create": "Create a webhook",
  "webhooks.list": "List webhooks",
  "webhooks.get": "Get a webhook",
  "webhooks.update": "Update a webhook",
  "webhooks.remove": "Delete a webhook",
  "webhooks.rotateSecret": "Rotate a webhook's secret",
  "webhooks.deliveries": "List a webhook's deliveries",
  "webhooks.delivery": "Get a delivery with its request and response",
  "webhooks.replay": "Replay a delivery",
  "webhooks.sendTest": "Send a test delivery",
  "developers.keys": "Get the key pair in use",
  "developers.rotateKeys": "Rotate your own keys",
  "developers.requests": "List your recent requests",
  "webhooks.inbox": "Read a managed webhook's inbox",
  "webhookInbox.receive": "Receive a delivery into a managed inbox",
  "events.list": "List events",
  "events.get": "Get an event",
  "deposits.methods": "List deposit methods",
  "deposits.getOrCreate": "Get or create a deposit account",
  "deposits.list": "List deposit accounts",
  "deposits.get": "Get a deposit account",
  "deposits.deposits": "List an account's deposits",
  "deposits.simulate": "Simulate a deposit (sandbox)",
  "depositNotifications.notify": "Receive a deposit network notification",
  "authorizations.capture": "Capture an authorized payment",
  "authorizations.void": "Void an authorized payment",
  "claims.refund": "Refund a payment",
  "claims.refundTransaction": "Refund a payment (legacy path)",
  "claims.get": "Get a claim",
  "claims.simulate": "Simulate a claim outcome (sandbox)",
  "claims.simulateChargeback": "Simulate a late chargeback on a payment (sandbox)",
  "payouts.balance": "Get the payout balance",
  "payouts.methods": "List payout methods",
  "payouts.currencies": "List payout currencies",
  "payouts.transfer": "Transfer USD from pay-in to payout",
  "payouts.swapQuote": "Quote a USD to local swap",
  "payouts.swap": "Swap USD to a local currency",
  "payouts.send": "Send a payout",
  "payouts.list": "List payouts",
  "payouts.get": "Get a payout",
  "payouts.fundSandbox": "Fund the sandbox payout balance",
  "payouts.simulate": "Simulate a payout outcome (sandbox)",
  "withdrawals.create": "Request a withdrawal",
  "withdrawals.list": "List withdrawals",
  "withdrawals.get": "Get a withdrawal",
  "withdrawals.simulate": "Simulate a withdrawal outcome (sandbox)",
  "settlements.list": "List settlements",
  "settlements.get": "Get a settlement",
  "settlements.statementPdf": "Download a settlement's PDF statement",
  "settlements.statementCsv": "Download a settlement's CSV statement",
  "settlementCallbacks.notify": "Receive a provider's settlement payout notification",
  "settlementCallbacks.check": "Check the settlement notification endpoint",
  "sandbox.clock": "Get the sandbox clock",
  "sandbox.advance": "Advance the sandbox clock",
  "admin.createMerchant": "Create a merchant",
  "admin.issueKeys": "Issue keys for a shop",
  "admin.rotateKeys": "Rotate a shop's keys",
  "admin.listFxRates": "List FX rates",
  "admin.putFxRate": "Set an FX rate",
  "admin.listProviders": "List providers",
  "admin.listRoutes": "List a shop's routes",
  "admin.putRoute": "Set a shop's route to a provider",
  "admin.deleteRoute": "Delete a shop's route",
  "admin.reconcileNow": "Run the reconcile poll now",
  "depositAdmin.getSettings": "Get a shop's deposit settings",
  "depositAdmin.putSettings": "Set a shop's deposit settings",
  "depositAdmin.setAccountStatus": "Enable or disable a deposit account",
  "withdrawalAdmin.resolve": "Resolve a withdrawal",
  "claimAdmin.resolve": "Resolve a claim",
  "claimAdmin.openChargeback": "Open a chargeback on a payment",
  "payoutAdmin.resolve": "Resolve a payout",
  "routingAdmin.getRouting": "Get a shop's routing",
  "routingAdmin.putRouting": "Set a shop's routing",
  "routingAdmin.getPaymentRouting": "Explain a payment's routing",
  "settlementAdmin.getSchedule": "Get a shop's settlement schedule",
  "settlementAdmin.putSchedule": "Set a shop's settlement schedule"
}

/** Request examples of the main operations (`redocly lint` checks each against its schema). */
const requestExamples: Readonly<Record<string, unknown>> = {
  "payments.create": {
    amount: 100,
    currency: "USD",
    paymentMethodId: "1001",
    userName: "Ana Souza",
    userEmail: "ana@example.com",
    documentId: "52998224725",
    merchantOrderId: "order-1001",
    returnUrl: "https://shop.example/thanks"
  },
  "claims.refund": { amount: 50.25, reason: "requested_by_customer" },
  "checkout.createSession": { amount: 50, currency: "USD", country: "BR", merchantOrderId: "order-1002", returnUrl: "https://shop.example/thanks" },
  "webhooks.create": { url: "https://shop.example/webhooks", events: ["payment.completed", "payment.failed", "payment.refunded"] },
  "auth.token": { apiKey: "pk_test_...", secretKey: "sk_test_..." },
  "sandbox.advance": { seconds: 86400 }
}

/**
 * Examples of the main responses, as the sandbox host answered them (a PIX payment of 100 USD, its
 * partial refund, the balance after them, a webhook subscription); `redocly lint` and the tests
 * check them against their schemas. Errors take theirs from `errorGuide` (`Description.ts`).
 */
const responseExamples: Readonly<Record<string, unknown>> = {
  CreatedPayment: {"transactionId": "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", "status": "pending", "amount": 100, "currency": "USD", "amountLocal": 550.8, "currencyLocal": "BRL", "paymentMethodId": "1001", "paymentMethod": "pix", "paymentMethodName": "PIX", "logoUrl": "https://api.example.com/icons/payment-methods/1001.svg", "iconUrl": "https://api.example.com/icons/payment-methods/1001.svg", "fees": {"platform": 3.2, "provider": 0.9, "network": 0, "total": 4.1}, "settlement": {"type": "delayed", "delay": "T+1", "reserve": 10, "status": "pending"}, "paymentFormUrl": "https://api.example.com/sandbox/pay/TXN-01M8C3QQABHZAEKCJKXKJKTEVF?secret=3kTMd9bQx2vLpR7nWc4YhZ8sFa1GeJuN5", "paymentData": {"method": "pix", "reference": "KCJKXKJKTEVF", "qrCode": "00020126580014br.gov.bcb.pix0136sandbox-KCJKXKJKTEVF5204000053039865802BR6304SBOX"}, "merchantOrderId": "order-1001", "tag1": null, "tag2": null, "tag3": null, "expiresAt": "2026-11-26T14:51:46.187Z"},
  Payment: {"id": "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", "status": "completed", "amount": 100, "currency": "USD", "amountLocal": 550.8, "currencyLocal": "BRL", "paymentMethodId": "1001", "paymentMethod": "pix", "paymentMethodName": "PIX", "country": "BRA", "fees": {"platform": 3.2, "provider": 0.9, "network": 0, "total": 4.1}, "settlement": {"type": "delayed", "delay": "T+1", "reserve": 10, "status": "pending"}, "timestamps": {"created": "2026-11-26T14:21:46.187Z", "updated": "2026-11-26T14:21:51.843Z", "completed": "2026-11-26T14:21:46.840Z", "expires": "2026-11-26T14:51:46.187Z"}, "merchantOrderId": "order-1001", "tag1": null, "tag2": null, "tag3": null, "failureReason": null, "buyer": {"name": "Ana Souza", "email": "ana.souza@example.com"}},
  PaymentDetail: {"id": "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", "status": "completed", "amount": 100, "currency": "USD", "amountLocal": 550.8, "currencyLocal": "BRL", "paymentMethodId": "1001", "paymentMethod": "pix", "paymentMethodName": "PIX", "country": "BRA", "fees": {"platform": 3.2, "provider": 0.9, "network": 0, "total": 4.1}, "settlement": {"type": "delayed", "delay": "T+1", "reserve": 10, "status": "pending"}, "timestamps": {"created": "2026-11-26T14:21:46.187Z", "updated": "2026-11-26T14:21:51.843Z", "completed": "2026-11-26T14:21:46.840Z", "expires": "2026-11-26T14:51:46.187Z"}, "merchantOrderId": "order-1001", "tag1": null, "tag2": null, "tag3": null, "failureReason": null, "buyer": {"name": "Ana Souza", "email": "ana.souza@example.com"}, "routing": {"provider": "sandbox", "attempts": [{"provider": "sandbox", "outcome": "accepted", "latencyMs": 0, "reason": null, "at": "2026-11-26T14:21:46.200Z"}]}},
  Refund: {"refundId": "CLM-01M8C3QWV9300PCPSYWKHGJNCQ", "transactionId": "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", "amount": 50.25, "amountUsd": 9.12, "currency": "BRL", "status": "pending", "reason": "requested_by_customer", "createdAt": "2026-11-26T14:21:51.849Z"},
  Balance: {"merchantId": "mer_01m8c3f6qbqq9jfj5gfnfbzfth", "shopId": "shop_01m8c3f6qdyvbk23v5kme91xa7", "currency": "USD", "balance": {"available": 0, "pending": 76.78, "frozen": 9.12, "reserve": 10}, "owed": 0, "ledgerWarnings": [], "tier": "starter", "trustScore": 500, "rollingReservePct": 10, "withdrawalFeeUsd": 5, "feeSummary": {"grossVolume": 100, "platformFees": 2.9, "flatFees": 0.3, "providerFees": 0.9, "chargebackFees": 0, "totalFees": 4.1, "netBalance": 95.9}, "movements": [{"id": "jnl_01m8c3qwvsesdw0meydhty7sj0", "type": "claim.opened", "reference": "CLM-01M8C3QWV9300PCPSYWKHGJNCQ", "currency": "USD", "amount": 0, "books": {"payin_pending": -9.12, "payin_frozen": 9.12}, "createdAt": "2026-11-26T14:21:51.865Z"}, {"id": "jnl_01m8c3qqys3g4ebjecrp9b0j1k", "type": "payment.completed", "reference": "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", "currency": "USD", "amount": 95.9, "books": {"payin_pending": 85.9, "payin_reserve": 10}, "createdAt": "2026-11-26T14:21:46.841Z"}], "reserveSchedule": [{"transactionId": "TXN-01M8C3QQABHZAEKCJKXKJKTEVF", "amount": 10, "releaseAt": "2027-02-24T14:21:46.840Z"}], "balances": []},
  WebhookWithSecret: {"id": "wh_01m8c3qx1d4t4sy4sy4x6y3076", "url": "https://shop.example/webhooks", "events": ["payment.completed", "payment.failed", "payment.refunded"], "active": true, "description": null, "managed": false, "disabledReason": null, "createdAt": "2026-11-26T14:21:52.045Z", "updatedAt": "2026-11-26T14:21:52.045Z", "secret": "whsec_9bQx3c7TnW2kLr8VfYp4ZsHd6JmA1eUo5gNi0KtXwRy", "previousSecretExpiresAt": null}
}

/** An operation id (`group.endpoint`) as words, for an operation the table does not name yet. */
const fallbackSummary = (operationId: string) => {
  const words = (operationId.split(".").at(-1) ?? operationId).replace(/([A-Z])/g, " $1").toLowerCase().trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Query parameters as what they mean; the server reads them from text and clamps out-of-range pages. */
const queryParameter: Readonly<Record<string, Record<string, unknown>>> = {
  limit: { type: "integer", minimum: 1, maximum: 100, default: 50, description: "Items per page, 1 to 100; out-of-range values are clamped" },
  offset: { type: "integer", minimum: 0, maximum: 1_000_000_000, default: 0, description: "Items to skip, 0 to 1,000,000,000; out-of-range values are clamped" },
  amount: { type: "number", exclusiveMinimum: 0, maximum: 1e12, description: "Major units" }
}

type Spec = Record<string, any>

/**
 * The payout `recipient` as an object of the beneficiary fields the rails know (all text); which
 * of them a method requires is in its `recipientFields` (GET /me/payout/methods), checked field
 * by field when the payout is sent.
 */
const recipientSchema = (): Spec => {
  const fields = new Map<string, { labels: ReadonlyArray<string>; requiredEverywhere: boolean }>()
  for (const method of payoutMethods) {
    for (const f of method.recipientFields) {
      const known = fields.get(f.key)
      const labels = known === undefined || known.labels.includes(f.label) ? known?.labels ?? [f.label] : [...known.labels, f.label]
      fields.set(f.key, { labels, requiredEverywhere: (known?.requiredEverywhere ?? true) && f.required })
    }
  }
  for (const [key, field] of fields) {
    if (!payoutMethods.every((m) => m.recipientFields.some((f) => f.key === key))) fields.set(key, { ...field, requiredEverywhere: false })
  }
  return {
    type: "object",
    description: "The beneficiary: the fields the method's `recipientFields` list (GET /me/payout/methods), as text",
    properties: Object.fromEntries([...fields].map(([key, f]) => [key, { type: "string", description: f.labels.join("; ") }])),
    required: [...fields].filter(([, f]) => f.requiredEverywhere).map(([key]) => key),
    additionalProperties: false
  }
}

/** The finishing touches of a generated document (see the module comment). */
export const polishDocument = (spec: Spec, errors: OperationErrors): Spec => {
  for (const item of Object.values<Spec>(spec["paths"] ?? {})) {
    for (const operation of Object.values<Spec>(item)) {
      if (typeof operation !== "object" || operation === null || typeof operation["operationId"] !== "string") continue
      operation["summary"] ??= summaries[operation["operationId"]] ?? fallbackSummary(operation["operationId"])
      if (operation["operationId"] === "payouts.send") {
        const properties = operation["requestBody"]?.["content"]?.["application/json"]?.["schema"]?.["properties"]
        if (properties !== undefined) properties["recipient"] = recipientSchema()
      }
      const example = requestExamples[operation["operationId"]]
      const json = operation["requestBody"]?.["content"]?.["application/json"]
      if (example !== undefined && json !== undefined) json["example"] = example
      for (const parameter of operation["parameters"] ?? []) {
        const typed = parameter.in === "query" ? queryParameter[parameter.name] : undefined
        if (typed !== undefined) parameter.schema = { ...typed }
      }
    }
  }
  spec["servers"] = [{ url: "/", description: "This host" }]
  return withExamples(withoutHeadBodies(withOperationErrors(spec, errors)))
}

/** A HEAD answer has no body (RFC 9110 9.3.2): its responses keep their status and lose their `content`. */
const withoutHeadBodies = (spec: Spec): Spec => {
  for (const item of Object.values<Spec>(spec["paths"] ?? {})) {
    for (const response of Object.values<Spec>(item["head"]?.["responses"] ?? {})) delete response["content"]
  }
  return spec
}

/**
 * The response schemas' `examples` (the reference page shows them instead of `"string"` and `1`),
 * and what the amount of a payment may be (its schema is the shared `Amount`).
 */
const withExamples = (spec: Spec): Spec => {
  const schemas: Spec = spec["components"]?.["schemas"] ?? {}
  for (const [name, example] of Object.entries(responseExamples)) {
    if (schemas[name] !== undefined) schemas[name]["examples"] = [example]
  }
  for (const code of errorCodes) {
    if (schemas[`Error_${code}`] !== undefined) schemas[`Error_${code}`]["examples"] = [errorExample(code)]
  }
  if (schemas["Error"] !== undefined) schemas["Error"]["examples"] = [errorExample("amount_out_of_limits"), errorExample("invalid_request")]
  for (const name of ["CreatePayment", "CreateCheckoutSession"]) {
    const amount = schemas[name]?.["properties"]?.["amount"]
    if (amount !== undefined) {
      amount["description"] = "Above 0, in `currency` (major units, at most its decimals); its USD headline may not exceed 100,000 USD " +
        "(`422 amount_out_of_limits`), and it must be within the method's `min` and `max` (GET /payment-methods)"
    }
  }
  return spec
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const payment = ref("Payment")
/**
 * A component's object with more fields: its properties copied beside the new ones (the
 * components are closed objects, so `allOf` with another object could never validate).
 */
const withFields = (base: Spec, fields: Readonly<Record<string, Spec>>) => (components: Spec): Spec => {
  const name = String(base["$ref"]).split("/").at(-1)!
  const component = components[name] ?? {}
  return {
    ...component,
    properties: { ...component.properties, ...fields },
    required: [...new Set([...(component.required ?? []), ...Object.keys(fields)])]
  }
}
const withField = (base: Spec, field: string, schema: Spec) => withFields(base, { [field]: schema })

/** Each event of spec 6: when it fires, and its `data` (the resource as the API returns it). */
const events: ReadonlyArray<readonly [string, string, Spec | ((components: Spec) => Spec)]> = [
  ["payment.completed", "The payment was captured and its money landed in the balance (from the provider's callback or the reconcile poll).", payment],
  ["payment.failed", "The charge failed, or a pending voucher or instant payment was abandoned or expired.", payment],
  ["payment.refunded", "A completed payment was refunded, in full or in part: the payment and the `refund`.", withField(payment, "refund", ref("Refund"))],
  ["payment.captured", "Sandbox simulator only (payments the sandbox provider completes; never deposit credits or real connectors): back-compatible alias of payment.completed.", payment],
  ["payment.authorized", "A card payment made with `capture: false` was authorized: the provider holds the amount until `authorizationExpiresAt`, nothing is in the balance yet. Capture it (POST /payments/{id}/capture: payment.completed follows) or void it (POST /payments/{id}/void).", payment],
  ["payment.voided", "An authorization was released (POST /payments/{id}/void): the payment is `voided`, nothing was captured or booked.", payment],
  ["chargeback.created", "A chargeback was opened against a completed payment: the payment and the `claim`.", withField(payment, "claim", ref("Claim"))],
  ["claim.opened", "A claim (refund, chargeback, dispute) was opened.", ref("Claim")],
  ["claim.resolved", "A claim reached its final resolution.", ref("Claim")],
  ["settlement.closed",
    "A settlement batch closed and its payout began: what was `available` in USD at the close was swept into the batch (status `paying`, " +
      "its totals and `lineCount` set) and is being sent to the shop's USDC address; the batch as GET /me/settlements/{id} returns it. " +
      "There is no `settlement.failed` event: a payout that fails shows as the batch's `status: failed` with `payout.failureReason`, " +
      "its net back in `available` as the balance movement `settlement.failed` (GET /me/balance), and then in the next batch.",
    ref("Settlement")],
  ["settlement.pdf_ready",
    "The statement of a closed batch was checked (its lines sum to its net) and can be fetched with the secret key: the PDF receipt at `pdfUrl` " +
      "and the same lines as CSV at `csvUrl`.",
    {
      type: "object",
      required: ["settlementId", "pdfUrl", "csvUrl", "lineCount", "net"],
      additionalProperties: false,
      properties: {
        settlementId: { type: "string", description: "The batch (`STL-...`)" },
        pdfUrl: { type: "string", description: "Path relative to the API's base URL (`/api/v1`): `/me/settlements/{id}/statement.pdf`" },
        csvUrl: { type: "string", description: "Path relative to the API's base URL: `/me/settlements/{id}/statement.csv`" },
        lineCount: { type: "integer", description: "Lines of the statement" },
        net: { type: "number", description: "What the batch pays out, USD" }
      }
    }],
  ["withdrawal.completed", "A withdrawal was paid out.", ref("Withdrawal")],
  ["withdrawal.failed", "A withdrawal failed; its amount and fee went back to the balance.", ref("Withdrawal")],
  ["payout.completed", "The provider confirmed the payout.", ref("Payout")],
  ["payout.failed", "The payout failed and its debit was reversed; `failureReason` says why.", ref("Payout")],
  ["deposit.credited", "A transfer to a deposit account was credited as a completed pay-in: the deposit, its `accountId` and `endUserRef`.",
    withFields(ref("Deposit"), { accountId: { type: "string" }, endUserRef: { type: "string" } })]
]

const header = (name: string, description: string) => ({ name, in: "header", required: true, description, schema: { type: "string" } })

/**
 * The `webhooks` section (OpenAPI 3.1): what each subscribed endpoint receives, one POST per
 * event type, with the envelope and its `data`, the signature headers, and what the answer means.
 */
export const withWebhooks = (spec: Spec): Spec => {
  const components: Spec = spec["components"]?.["schemas"] ?? {}
  spec["webhooks"] = Object.fromEntries(events.map(([type, firesWhen, dataOf]) => {
    const data = typeof dataOf === "function" ? dataOf(components) : dataOf
    return [type, {
    post: {
      operationId: `webhook.${type}`,
      summary: `Event ${type}`,
      description: `${firesWhen} Delivered at least once: deduplicate on \`id\`.`,
      tags: ["Webhooks"],
      parameters: [
        header("X-Service-Signature", "`t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` with the subscription's secret; `v0` with the previous one during a rotation"),
        header("X-Service-Event", `\`${type}\``),
        header("X-Service-Delivery", "The delivery id (the same across retries of one delivery)")
      ],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["id", "type", "created", "environment", "merchantId", "shopId", "apiVersion", "data"],
              properties: {
                id: { type: "string", description: "The event id (`evt_...`), also readable at GET /api/v1/events/{id}" },
                type: { type: "string", const: type },
                created: { type: "string", format: "date-time" },
                environment: { type: "string", enum: ["sandbox", "production"] },
                merchantId: { type: "string" },
                shopId: { type: "string" },
                apiVersion: { type: "string" },
                merchantOrderId: { type: "string", description: "The payment's merchant order id, when it has one" },
                data
              }
            }
          }
        }
      },
      responses: {
        "200": { description: "Any 2xx acknowledges the delivery. Any other answer, or none within 15 s, is retried (1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 24 h); 410 turns the subscription off." }
      }
    }
  }]
  }))
  return spec
}
