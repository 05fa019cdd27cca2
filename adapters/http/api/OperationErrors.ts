/**
 * The errors each operation can answer, for the OpenAPI documents: every operation lists only its
 * own statuses, and at each status only its own codes, each with the schema of its `details`
 * (`ErrorCatalog` in the core). The test host checks every error response of the test suite
 * against this (test/support/Contract.ts), so a code an operation can return and does not list
 * fails a test.
 *
 * What every request can meet is added to all: a NUL character in the URL or body or a body that
 * does not decode (400 `invalid_request`), a declared body over 1 MB (413), a defect (500); a JSON
 * body adds 415, an `Idempotency-Key` header adds the two 409s, and a path parameter adds 404
 * `not_found` (the router matches no route for a parameter over 100 characters).
 *
 * A path called with a method it does not accept answers 405 `method_not_allowed` (with `Allow`):
 * no operation answers it, so its envelope is published beside the others and in `Error`. A JSON
 * body whose fields are all optional may be left out (an empty body is read as `{}`), and its
 * `requestBody` says so.
 */
import { type Effect, Schema } from "effect"
import { type ApiErrorOf, ErrorCatalog, type ErrorCode, errorCodes } from "../../../core/ApiError.ts"
import type { Api } from "./Api.ts"
import { httpStatus } from "./ErrorStatus.ts"

type Codes = ReadonlyArray<ErrorCode>

const everyRequest = ["invalid_request", "payload_too_large", "internal_error"] as const satisfies Codes
const jsonBody = ["unsupported_media_type"] as const satisfies Codes
const idempotent = ["idempotency_key_reused", "idempotency_key_in_progress"] as const satisfies Codes
const pathParameter = ["not_found"] as const satisfies Codes
/** Answered for a path, whatever its operations: a method none of them has. */
const anyPath = ["method_not_allowed"] as const satisfies Codes

/** A bearer API key or access token: a raw key also draws from the address's login allowance. */
const anyKey = ["missing_authorization", "invalid_api_key", "token_expired", "token_revoked", "rate_limited"] as const satisfies Codes
/** A secret key, and the shop or merchant the request names or defaults to (404 when it is not the credential's). */
const secretKey = [...anyKey, "secret_key_required", "not_found"] as const satisfies Codes
/**
 * The operator's token; 404 `not_found` also when the host has no `ADMIN_TOKEN` (the admin API is
 * off); a wrong token draws from the address's login allowance (429 once it is spent).
 */
const admin = ["invalid_api_key", "not_found", "rate_limited"] as const satisfies Codes
/** A signed notification from a provider or a network, to a path naming it. */
const signed = ["authentication_failed", "not_found"] as const satisfies Codes

/** A card sent with a payment (or a card rail without one): checked with the vault before anything is written. */
const card = ["card_required", "card_not_accepted", "card_token_not_found", "card_brand_mismatch", "card_expired", "card_vault_unavailable"] as const satisfies Codes
const payIn = ["cascade_exhausted", "provider_outcome_unknown", "amount_out_of_limits", "fx_unavailable", "missing_required_fields", ...card] as const satisfies Codes
/** A chargeback opened on an existing payment (operator, sandbox rehearsal). */
const lateChargeback = ["chargeback_already_opened", "chargeback_not_allowed", "chargeback_nothing_remaining"] as const satisfies Codes
const refund = [...secretKey, ...idempotent, "refund_not_allowed", "refund_amount_exceeds_remaining", "balance_insufficient", "amount_rounds_to_zero"] as const satisfies Codes

/**
 * Each operation's own codes, by the group and endpoint names of its definition in `Api.ts`: the
 * type is the API's own (`ErrorsOfEndpoints`), so an endpoint added without its errors, or errors
 * left for an endpoint that is gone or renamed, does not compile.
 */
const byEndpoint = {
  auth: {
    token: ["authentication_failed", "rate_limited"],
    refresh: ["authentication_failed", "rate_limited"]
  },
  ping: {
    ping: anyKey
  },
  identity: {
    me: secretKey,
    balance: secretKey,
    balanceHistory: secretKey,
    swapQuote: [...secretKey, "fx_unavailable", "amount_rounds_to_zero"],
    swap: [...secretKey, ...idempotent, "fx_unavailable", "balance_insufficient", "amount_rounds_to_zero"],
    fundSandbox: [...secretKey, "fund_sandbox_only", "fx_unavailable"]
  },
  catalog: {
    paymentMethods: [...anyKey, "not_found"]
  },
  cardSessions: {
    create: [...secretKey, "card_vault_not_configured"]
  },
  payments: {
    create: [...secretKey, ...idempotent, ...payIn],
    createTransaction: [...secretKey, ...idempotent, ...payIn],
    list: secretKey,
    listTransactions: secretKey,
    get: secretKey,
    getTransaction: secretKey,
    ledgerEntries: secretKey
  },
  callbacks: {
    providerCallback: signed,
    payoutCallback: signed
  },
  checkout: {
    createSession: [...secretKey, ...idempotent, ...payIn]
  },
  checkoutPublic: {
    getSession: ["checkout_session_not_found"],
    select: ["checkout_session_not_found", "checkout_session_already_completed", ...payIn]
  },
  webhooks: {
    create: [...secretKey, ...idempotent],
    list: secretKey,
    get: secretKey,
    update: secretKey,
    remove: secretKey,
    rotateSecret: [...secretKey, ...idempotent],
    deliveries: secretKey,
    delivery: secretKey,
    replay: [...secretKey, ...idempotent],
    sendTest: [...secretKey, ...idempotent],
    inbox: secretKey
  },
  developers: {
    keys: secretKey,
    rotateKeys: secretKey,
    requests: secretKey
  },
  webhookInbox: {
    receive: signed
  },
  events: {
    list: secretKey,
    get: secretKey,
    deliveries: secretKey
  },
  deposits: {
    methods: secretKey,
    getOrCreate: [...secretKey, "deposit_accounts_unavailable", "deposit_method_required", "deposit_method_unavailable"],
    list: secretKey,
    get: secretKey,
    deposits: secretKey,
    simulate: [...secretKey, "simulate_sandbox_only", "amount_out_of_limits", "fx_unavailable"]
  },
  depositNotifications: {
    notify: [...signed, "amount_out_of_limits", "fx_unavailable"]
  },
  claims: {
    refund: refund,
    refundTransaction: refund,
    get: secretKey,
    paymentClaims: secretKey,
    simulate: [...secretKey, "simulate_sandbox_only", "claim_not_chargeback", "claim_already_resolved"],
    simulateChargeback: [...secretKey, ...idempotent, "simulate_sandbox_only", ...lateChargeback]
  },
  payouts: {
    balance: secretKey,
    methods: secretKey,
    currencies: secretKey,
    transfer: [...secretKey, ...idempotent, "amount_invalid", "balance_insufficient"],
    swapQuote: [...secretKey, "amount_invalid", "fx_unavailable", "amount_rounds_to_zero"],
    swap: [...secretKey, ...idempotent, "amount_invalid", "balance_insufficient", "fx_unavailable", "amount_rounds_to_zero"],
    send: [
      ...secretKey,
      ...idempotent,
      "payout_method_unavailable",
      "amount_invalid",
      "currency_not_funded",
      "balance_insufficient",
      "payout_dispatch_failed",
      "fx_unavailable"
    ],
    list: secretKey,
    get: secretKey,
    fundSandbox: [...secretKey, "fund_sandbox_only", "fx_unavailable"],
    simulate: [...secretKey, "simulate_sandbox_only"]
  },
  withdrawals: {
    create: [...secretKey, ...idempotent, "amount_invalid", "balance_insufficient"],
    list: secretKey,
    get: secretKey,
    simulate: [...secretKey, "simulate_sandbox_only"]
  },
  settlements: {
    list: secretKey,
    get: secretKey,
    statementPdf: [...secretKey, "settlement_open"],
    statementCsv: [...secretKey, "settlement_open"],
    lines: [...secretKey, "settlement_open"]
  },
  settlementCallbacks: {
    notify: signed,
    check: ["not_found"]
  },
  sandbox: {
    clock: [...secretKey, "sandbox_only"],
    advance: [...secretKey, "sandbox_only", ...idempotent]
  },
  admin: {
    createMerchant: [...admin, ...idempotent],
    issueKeys: admin,
    rotateKeys: [...admin, ...idempotent],
    listFxRates: admin,
    putFxRate: admin,
    listProviders: admin,
    listRoutes: admin,
    putRoute: admin,
    deleteRoute: admin,
    reconcileNow: admin
  },
  operatorAdmin: {
    listMerchants: admin,
    providerHealth: admin,
    listPayouts: admin,
    listClaims: admin,
    listWithdrawals: admin
  },
  depositAdmin: {
    getSettings: admin,
    putSettings: admin,
    setAccountStatus: admin
  },
  withdrawalAdmin: {
    resolve: admin
  },
  claimAdmin: {
    resolve: [...admin, "claim_not_chargeback", "claim_already_resolved"],
    openChargeback: [...admin, ...idempotent, ...lateChargeback]
  },
  payoutAdmin: {
    resolve: [...admin, "payout_already_final"]
  },
  routingAdmin: {
    getRouting: admin,
    putRouting: [...admin, "routing_version_conflict"],
    getPaymentRouting: admin
  },
  settlementAdmin: {
    getSchedule: admin,
    putSchedule: [...admin, "settlement_destination_unavailable", "settlement_destination_refused"]
  },
  reconciliationAdmin: {
    upload: [...admin, "invalid_request", "report_format_unknown", "report_malformed", "payload_too_large"],
    run: [...admin, "invalid_request", "report_format_unknown", "report_malformed", "report_source_unavailable", "report_unavailable"],
    listReports: admin,
    getReport: admin,
    listDiscrepancies: admin,
    getDiscrepancy: admin,
    resolve: [...admin, "invalid_request", "discrepancy_resolved", "adjustment_needs_record"]
  }
} as const satisfies ErrorsOfEndpoints

/** Every endpoint of `Api`, by group and endpoint name, with the codes it declares. */
type ErrorsOfEndpoints = {
  readonly [G in keyof ApiGroups]: { readonly [E in keyof ApiGroups[G]["endpoints"]]: Codes }
}
type ApiGroups = (typeof Api)["groups"]

/** `{ g: { e: codes } }` read as `{ "g.e": codes }`. */
type ById<T> = ToRecord<{ [G in keyof T & string]: { [E in keyof T[G] & string]: readonly [`${G}.${E}`, T[G][E]] }[keyof T[G] & string] }[keyof T & string]>
type ToRecord<P extends readonly [string, unknown]> = { readonly [Q in P as Q[0]]: Q[1] }

/** The same codes by operation id (`group.endpoint`, the document's `operationId`), derived from `byEndpoint`. */
export const operationErrors = Object.fromEntries(
  Object.entries(byEndpoint).flatMap(([group, endpoints]) =>
    Object.entries(endpoints).map(([endpoint, codes]) => [`${group}.${endpoint}`, codes] as const))
) as unknown as ById<typeof byEndpoint>

/** An operation of the document, by its `group.endpoint` id. */
export type OperationId = keyof typeof operationErrors

/**
 * The codes a handler of `operation` may fail with: its own and every request's. What the rest of
 * an operation's shape adds in the document (a JSON body's 415, an `Idempotency-Key`'s 409s, a
 * path parameter's 404) is not assumed here, since the type cannot see the shape: an operation
 * whose handler raises one of those lists it too (the document is the same, `codesOf` keeps each
 * code once), so the check is no looser than the document.
 */
export type DocumentedCode<Op extends OperationId> =
  | (typeof operationErrors)[Op][number]
  | (typeof everyRequest)[number]

/**
 * A handler's effect, checked at compile time against the codes its operation documents: a
 * service that can fail with a code the operation does not list does not compile. (It needs the
 * service to declare its codes, `ApiErrorOf<...>`; one that says only `ApiError` does not fit.)
 */
export const documented = <Op extends OperationId, A, R>(
  _operation: Op,
  effect: Effect.Effect<A, ApiErrorOf<DocumentedCode<Op>>, R>
): Effect.Effect<A, ApiErrorOf<DocumentedCode<Op>>, R> => effect

type Spec = Record<string, any>

/** The component name of a code's envelope. */
export const errorComponent = (code: ErrorCode) => `Error_${code}`

const ref = (code: ErrorCode) => ({ $ref: `#/components/schemas/${errorComponent(code)}` })

/** The envelope of one code: `code` and `type` fixed, `details` in the code's own shape. */
const envelopeSchema = (code: ErrorCode): Spec => {
  const entry = ErrorCatalog[code]
  const generated = Schema.toJsonSchemaDocument(entry.details as Schema.Top, { onExcessProperty: "error" }).schema
  // A struct without fields comes out as "not null"; the envelope always carries `{}` for it.
  const details = generated["type"] === "object" ? generated : { type: "object", properties: {}, additionalProperties: false }
  return {
    type: "object",
    description: entry.description,
    required: ["error"],
    additionalProperties: false,
    properties: {
      error: {
        type: "object",
        required: ["code", "type", "message", "requestId", "docs_url", "details"],
        additionalProperties: false,
        properties: {
          code: { type: "string", const: code },
          type: { type: "string", const: entry.type },
          message: { type: "string", description: "For a person; may change between versions" },
          requestId: { type: "string", description: "Also in the `X-Request-Id` header; quote it when reporting a problem" },
          docs_url: { type: "string", description: "This code on the error reference page" },
          details
        }
      }
    }
  }
}

const errorStatuses = new Set(errorCodes.map((code) => String(httpStatus[code])))

/** Every code an operation of the document can answer: its own and what its shape brings. */
export const codesOf = (operation: Spec): Codes => {
  const own: Codes | undefined = (operationErrors as Readonly<Record<string, Codes>>)[operation["operationId"]]
  if (own === undefined) throw new Error(`OperationErrors: no errors declared for ${operation["operationId"]}`)
  const parameters: ReadonlyArray<Spec> = operation["parameters"] ?? []
  return [...new Set([
    ...everyRequest,
    ...(operation["requestBody"]?.["content"]?.["application/json"] === undefined ? [] : jsonBody),
    ...(parameters.some((p) => p["in"] === "header" && String(p["name"]).toLowerCase() === "idempotency-key") ? idempotent : []),
    ...(parameters.some((p) => p["in"] === "path") ? pathParameter : []),
    ...own
  ])]
}

/** An operation whose JSON body has no required field may be sent without one (read as `{}`). */
const optionalBody = (operation: Spec, schemas: Spec) => {
  const body: Spec | undefined = operation["requestBody"]
  let schema: Spec | undefined = body?.["content"]?.["application/json"]?.["schema"]
  const ref = schema?.["$ref"]
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) schema = schemas[ref.slice("#/components/schemas/".length)]
  if (body === undefined || schema?.["type"] !== "object" || (schema["required"]?.length ?? 0) > 0) return
  body["required"] = false
  body["description"] ??= "Every field is optional: the body may be left out, and an empty body is read as `{}`."
}

/**
 * Replaces the generic error responses of each operation with its own, and publishes one envelope
 * per code (`Error_<code>`) plus `Error`, the union of them all, for a client's catch-all.
 */
export const withOperationErrors = (spec: Spec): Spec => {
  const schemas: Spec = (spec["components"] ??= {})["schemas"] ??= {}
  const used = new Set<ErrorCode>(anyPath)
  for (const item of Object.values<Spec>(spec["paths"] ?? {})) {
    for (const operation of Object.values<Spec>(item)) {
      if (typeof operation !== "object" || operation === null || typeof operation["operationId"] !== "string") continue
      optionalBody(operation, schemas)
      const responses: Spec = operation["responses"] ??= {}
      for (const status of Object.keys(responses)) if (errorStatuses.has(status)) delete responses[status]
      const byStatus = new Map<number, Array<ErrorCode>>()
      for (const code of codesOf(operation)) {
        used.add(code)
        const status = httpStatus[code]
        byStatus.set(status, [...(byStatus.get(status) ?? []), code])
      }
      for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
        responses[String(status)] = {
          description: codes.map((code) => `\`${code}\``).join(", "),
          content: { "application/json": { schema: codes.length === 1 ? ref(codes[0]!) : { oneOf: codes.map(ref) } } }
        }
      }
    }
  }
  delete schemas["ErrorBody"]
  for (const code of errorCodes.filter((c) => used.has(c))) schemas[errorComponent(code)] = envelopeSchema(code)
  schemas["Error"] = {
    description: "Any error envelope: switch on `error.code`; `details` depends on it",
    oneOf: errorCodes.filter((c) => used.has(c)).map(ref)
  }
  return spec
}
