/**
 * The EBANX pay-in connector (Direct API): PIX and boleto in Brazil, SPEI and OXXO in Mexico,
 * Efecty in Colombia, PagoEfectivo in Peru, Webpay in Chile (`Rails.ts`; PSE is known but not
 * served: EBANX's `eft` needs a bank code the engine cannot carry).
 *
 * - **Authentication** (`Auth.ts`): the `X-JWS-Signature` header EBANX documents now (RS256 over
 *   the exact body, the private key `Redacted`), or the legacy `integration_key` in the body. Both
 *   secrets are scrubbed from anything EBANX answers.
 * - **Buyer data.** Only what the engine knows is sent (no empty `name` or `document`); boleto
 *   carries the buyer's address and phone. `requires(method)` declares what EBANX needs on a rail
 *   beyond the catalog's `method.requires`, so the engine refuses a charge without it first.
 * - **Errors.** EBANX answers most errors with HTTP 200 and `status: "ERROR"` plus a documented
 *   `status_code` (`Wire.verdictOf`): `BP-SA-*` (credentials) is `invalid_credentials` and, like a
 *   rail this account has not activated (`BP-CH-1`, `BP-DR-4`, `BP-DR-35`, `BP-DR-36`),
 *   `Misconfigured`: the next provider may serve the charge; every other code (missing or invalid
 *   buyer data, amount limits...) is `Declined`. The same codes under an HTTP 4xx are read the same
 *   way; HTTP 5xx, 429, timeouts and network errors are `Failed` or `OutcomeUnknown`
 *   (`providers/kit/UpstreamHttp.ts`).
 * - **Idempotency.** `merchant_payment_code` (the engine's transaction id) is unique per account:
 *   a retry after a lost answer is refused `BP-DR-0` and the connector answers the payment EBANX
 *   holds, queried by that code. A refund carries `merchant_refund_code`, derived from the
 *   engine's refund id ({@link refundCodeOf}); before asking, and again when EBANX refuses, the
 *   connector looks for a refund with that code on the payment, so a retried refund is never a
 *   second one, and a refund asked again answers where it stands (`RE`/`PE` pending, `CO`
 *   succeeded, `CA` failed).
 * - **Notifications** are not trusted: EBANX POSTs only the hashes of payments that changed
 *   (`operation=payment_status_change&notification_type=<type>&hash_codes=...`). `verifyCallback`
 *   reads the form and asks `/ws/query` about each hash with our credentials (notify-then-query):
 *   a hash EBANX does not know, or a query that fails, is `CallbackRejected` (EBANX notifies
 *   again), and the status is always the one EBANX answers, never one a caller could forge.
 */
import { Duration, Effect, Redacted, type Schema } from "effect"
import { Mac } from "effect/crypto"
import { type HttpClient, HttpClientRequest } from "effect/http"
import { type Environment, hmacSha256Hex, Money } from "../../core/ports/index.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  type ProviderError,
  type RefundOutcome,
  type RefundRequest
} from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { defineConnector } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Auth from "./Auth.ts"
import * as Rails from "./Rails.ts"
import { ebanxTransactionsReport } from "./Report.ts"
import * as Wire from "./Wire.ts"

export const baseUrls: Readonly<Record<Environment, string>> = {
  sandbox: "https://sandbox.ebanxpay.com",
  production: "https://api.ebanxpay.com"
}

export interface Options {
  readonly id: string
  readonly displayName?: string | undefined
  readonly environment: Environment
  readonly baseUrl?: string | undefined
  /** Legacy authentication (`integration_key` in the body), used when `jws` is not given. */
  readonly integrationKey?: Redacted.Redacted<string> | undefined
  /** JWS authentication: the `kid` EBANX gave for the registered public key, and the RSA private key (PKCS#8 PEM). */
  readonly jws?: { readonly keyId: string; readonly privateKey: Redacted.Redacted<string> } | undefined
  readonly timeoutMs?: number | undefined
}

/** EBANX's `due_date` (`dd/mm/yyyy`): the UTC calendar day of the engine's expiry. */
export const dueDateOf = (expiresAt: Date): string =>
  `${String(expiresAt.getUTCDate()).padStart(2, "0")}/${String(expiresAt.getUTCMonth() + 1).padStart(2, "0")}/${expiresAt.getUTCFullYear()}`

/**
 * The `merchant_refund_code` of an engine refund. EBANX takes at most 20 characters and the
 * engine's refund ids are longer (`CLM-` and a 26-character ULID), so the code is the first 20 hex
 * digits of HMAC-SHA256 of the refund id under a fixed, public key: the same refund id always
 * gives the same code (a retry finds its refund), and two refunds of one payment share a code
 * with a probability of about 2^-80. It is a name, not a secret; the refund's `description`
 * carries the whole id for people reading EBANX's dashboard.
 */
export const refundCodeOf = (refundId: string): Effect.Effect<string, never, Mac.Mac> =>
  Effect.map(hmacSha256Hex("ebanx/merchant_refund_code", refundId), (hex) => hex.slice(0, Wire.maxMerchantRefundCode))

/** The buyer fields of a Direct API `payment`: only those the engine knows, none empty. */
export const buyerFieldsOf = (customer: ChargeRequest["customer"]) => {
  const text = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value.trim())
  const address = clear(customer.address)
  return UpstreamHttp.defined({
    name: text(clear(customer.name)),
    email: text(clear(customer.email)),
    document: text(clear(customer.documentId)),
    phone_number: text(clear(customer.phone)),
    address: text(address?.street),
    street_number: text(address?.number),
    street_complement: text(address?.complement),
    city: text(address?.city),
    state: text(address?.state),
    zipcode: text(address?.postalCode),
    customer_ip: text(customer.ip)
  })
}

/** The account's credentials from the options: JWS when given, else the integration key. */
const credentialsOf = (options: Options): Auth.Credentials | undefined =>
  options.jws !== undefined
    ? { scheme: "jws", keyId: options.jws.keyId, privateKey: options.jws.privateKey }
    : options.integrationKey !== undefined
    ? { scheme: "integration_key", integrationKey: options.integrationKey }
    : undefined

type Outcome = { readonly status: string; readonly status_code?: string | null | undefined; readonly status_message?: string | null | undefined }

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const mac = yield* Mac.Mac
    const baseUrl = (options.baseUrl ?? baseUrls[options.environment]).replace(/\/+$/, "")
    const credentials = credentialsOf(options)
    const upstream = yield* UpstreamHttp.make({
      providerId: options.id,
      secrets: credentials === undefined ? [] : Auth.secretsOf(credentials),
      timeout: Duration.millis(options.timeoutMs ?? 10_000),
      readError: UpstreamHttp.jsonWords("status_code", "status_message"),
      // Some documented codes come with an HTTP 4xx: read them as their HTTP-200 twins.
      classify: (status, words) =>
        status >= 400 && status < 500 && status !== 429 && words.code?.startsWith("BP-") === true ? Wire.verdictOf(words.code) : undefined
    })
    const { declined, malformed, misconfigured } = upstream
    const signer = credentials === undefined ? undefined : yield* Auth.make(credentials)

    /** EBANX's `ERROR` answer as a `ProviderError` (see the module comment for which reason). */
    const refused = (answer: Outcome) => {
      const code = upstream.clip(answer.status_code ?? "error")
      return upstream.of(Wire.verdictOf(code), `EBANX refused ${code}: ${upstream.clip(answer.status_message ?? code)}`)
    }

    /**
     * One call, authenticated (`Auth.ts`), answered `SUCCESS` or `ERROR` (both HTTP 200). Amounts
     * are `UpstreamHttp.JsonDecimal`s: the body is written with each as a JSON number literal of
     * its exact decimal text (`"amount_total":250.05`), so no float ever holds money on our side.
     */
    const exchange = <A extends Outcome>(operation: string, path: string, body: Record<string, unknown>, schema: Schema.Codec<A, unknown>) =>
      Effect.gen(function*() {
        if (signer === undefined) return yield* misconfigured("invalid_credentials", "EBANX: neither a JWS key nor an integration key is configured")
        const signed = yield* signer.sign(body).pipe(Effect.mapError((why) => misconfigured("invalid_credentials", `EBANX: ${why}`)))
        const request = HttpClientRequest.post(`${baseUrl}${path}`).pipe(
          HttpClientRequest.setHeaders(signed.headers),
          HttpClientRequest.bodyText(signed.text, "application/json"),
          HttpClientRequest.acceptJson
        )
        return yield* upstream.call(operation, request, schema)
      })

    /** {@link exchange}, where an `ERROR` answer fails. */
    const call = <A extends Outcome>(operation: string, path: string, body: Record<string, unknown>, schema: Schema.Codec<A, unknown>) =>
      Effect.flatMap(exchange(operation, path, body, schema), (answer) => answer.status === "SUCCESS" ? Effect.succeed(answer) : Effect.fail(refused(answer)))

    const paymentOf = (answer: Wire.PaymentAnswer) =>
      answer.payment === undefined || answer.payment === null
        ? Effect.fail(malformed("EBANX answered without the payment"))
        : Effect.succeed({ payment: answer.payment, redirectUrl: answer.redirect_url ?? undefined })

    const query = (by: { readonly hash: string } | { readonly merchant_payment_code: string }) =>
      Effect.flatMap(call("status", "/ws/query", by, Wire.PaymentAnswer), paymentOf)

    const update = (payment: Wire.Payment, detail?: string): ChargeUpdate => ({
      providerRef: payment.hash,
      transactionId: payment.merchant_payment_code,
      status: Wire.toUpdateStatus(payment),
      ...(detail === undefined ? {} : { detail })
    })

    const charge = Effect.fn("EbanxProvider.charge")(function*(request: ChargeRequest) {
      const rail = Rails.servedRailOf(request.method)
      if (rail === undefined) return yield* misconfigured("method_not_served", `EBANX is not configured for ${request.method.id}`)
      const type = rail.paymentTypeCode
      const { payment, redirectUrl } = yield* call("charge", "/ws/direct", {
        operation: "request",
        payment: {
          ...buyerFieldsOf(request.customer),
          country: request.country.toLowerCase(),
          payment_type_code: type,
          merchant_payment_code: request.transactionId,
          currency_code: request.currency,
          // Major units as a JSON number, written from the decimal text (never a float): 250.05.
          amount_total: new UpstreamHttp.JsonDecimal(request.amount),
          notification_url: request.callbackUrl,
          due_date: dueDateOf(request.expiresAt)
        }
      }, Wire.PaymentAnswer).pipe(
        Effect.flatMap(paymentOf),
        Effect.catchIf(
          (error: ProviderError) => error.code === Wire.errorCodes.duplicate,
          () => query({ merchant_payment_code: request.transactionId })
        )
      )
      if (payment.merchant_payment_code !== request.transactionId) return yield* malformed("EBANX answered about another payment")
      const status = Wire.toUpdateStatus(payment)
      if (status !== "pending" && status !== "completed") return yield* declined("cancelled", "EBANX cancelled the payment")
      const formUrl = payment[rail.page] ?? redirectUrl ?? Wire.pageFields.map((field) => payment[field]).find((url) => typeof url === "string")
      if (formUrl === undefined || formUrl === null) return yield* malformed("EBANX answered without a page for the buyer")
      const qrCode = payment.pix?.qr_code_value
      return {
        providerRef: payment.hash,
        status,
        paymentFormUrl: formUrl,
        paymentData: { type, ...(typeof qrCode === "string" ? { qrCode } : {}) }
      } satisfies ChargeAccepted
    })

    const status = Effect.fn("EbanxProvider.status")(function*(providerRef: string, transactionId: string) {
      const { payment } = yield* query({ hash: providerRef })
      if (payment.hash !== providerRef || payment.merchant_payment_code !== transactionId) {
        return yield* malformed("EBANX answered about another payment")
      }
      return update(payment)
    })

    const outcomeOf = (refund: Wire.Refund): RefundOutcome => {
      const status = Wire.toRefundStatus(refund.status)
      return { providerRef: String(refund.id), status, ...(status === "failed" ? { detail: `EBANX cancelled the refund (${refund.status})` } : {}) }
    }

    const refund = Effect.fn("EbanxProvider.refund")(function*(request: RefundRequest) {
      const code = yield* refundCodeOf(request.refundId).pipe(Effect.provideService(Mac.Mac, mac))
      const madeOn = (payment: Wire.Payment | null | undefined) => payment?.refunds?.find((r) => r.merchant_refund_code === code)
      const lookUp = Effect.map(query({ hash: request.providerRef }), ({ payment }) => madeOn(payment))
      // Asked before (a retry, or the engine following a pending refund): answer it as it stands.
      const made = yield* lookUp
      if (made !== undefined) return outcomeOf(made)
      const answer = yield* exchange("refund", "/ws/refund", {
        operation: "request",
        hash: request.providerRef,
        amount: new UpstreamHttp.JsonDecimal(Money.round(request.amount, request.currency)),
        description: `Refund ${request.refundId} of ${request.transactionId}`,
        merchant_refund_code: code
      }, Wire.RefundAnswer)
      // Refused, or answered without the refund: a twin request may have made it meanwhile.
      const found = answer.status === "SUCCESS"
        ? answer.refund ?? madeOn(answer.payment) ?? (yield* lookUp)
        : yield* lookUp
      if (found !== undefined && found !== null) return outcomeOf(found)
      if (answer.status !== "SUCCESS") return yield* refused(answer)
      return yield* malformed("EBANX answered without the refund")
    })

    /**
     * A `refund` notification names the payment only; its refunds and their statuses come with
     * the query, and travel as the update's `refunds` (the engine settles a pending one at once).
     */
    const withRefunds = (payment: Wire.Payment): ChargeUpdate => ({ ...update(payment), refunds: (payment.refunds ?? []).map(outcomeOf) })

    const verifyCallback = (_headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*() {
        const notification = Wire.notificationOf(rawBody)
        if (notification === undefined) return yield* new CallbackRejected({ reason: "not an EBANX notification" })
        const updates: Array<ChargeUpdate> = []
        for (const hash of notification.hashes) {
          const { payment } = yield* query({ hash }).pipe(
            Effect.mapError((e) => new CallbackRejected({ reason: `EBANX could not confirm ${upstream.clip(hash)}: ${e.code}` }))
          )
          updates.push(notification.type === "refund" ? withRefunds(payment) : update(payment))
        }
        return updates
      }).pipe(
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.withSpan("EbanxProvider.verifyCallback")
      )

    return {
      id: options.id,
      displayName: options.displayName ?? "EBANX",
      environments: [options.environment],
      supports: (method) => Rails.servedRailOf(method) !== undefined,
      requires: Rails.requiredBeyondCatalog,
      charge,
      status,
      verifyCallback,
      refund
    } satisfies PaymentProvider
  })

/** What the two signing schemes share: one API, one wire; only the credentials differ. */
const common = {
  rails: Rails.rails,
  wire: Wire,
  statusMaps: { payments: Wire.paymentStatusMap, refunds: Wire.refundStatusMap },
  make
}

/** One EBANX account on the legacy scheme (`CONNECTORS=<id>=ebanx`, secret `<ID>_INTEGRATION_KEY`). */
export const EbanxConnector = defineConnector({
  kind: "ebanx",
  secrets: ["INTEGRATION_KEY"],
  ...common,
  options: (settings) => ({
    integrationKey: settings.secrets["INTEGRATION_KEY"]!
  }),
  // EBANX delivers its reports from the merchant area: uploaded by an operator, no reports API used.
  reportFormats: () => [ebanxTransactionsReport]
})

/**
 * One EBANX account on JWS (`CONNECTORS=<id>=ebanx-jws`, secrets `<ID>_JWS_PRIVATE_KEY` (PEM,
 * best as `<ID>_JWS_PRIVATE_KEY_FILE`) and `<ID>_JWS_KEY_ID`, the `kid` EBANX gave; the kid is not
 * secret, but the kit's plain settings are optional and this one is required).
 */
export const EbanxJwsConnector = defineConnector({
  kind: "ebanx-jws",
  secrets: ["JWS_PRIVATE_KEY", "JWS_KEY_ID"],
  ...common,
  options: (settings) => ({
    jws: { keyId: Redacted.value(settings.secrets["JWS_KEY_ID"]!), privateKey: settings.secrets["JWS_PRIVATE_KEY"]! }
  }),
  reportFormats: () => [{ ...ebanxTransactionsReport, provider: "ebanx-jws" }]
})

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const { connector, layer } = EbanxConnector
export const jwsConnector = EbanxJwsConnector.connector

export const EbanxProvider = { make, layer, connector, jwsConnector, baseUrls }
