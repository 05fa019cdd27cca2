/**
 * The dLocal payout connector (Payouts API v3): a `PayoutProvider` for SPEI (Mexico), PIX
 * (Brazil) and bank transfers in Colombia, Peru, Chile and Argentina. Wire types and the status
 * map are in `PayoutsWire.ts`; calls are authenticated with an OAuth2 bearer token
 * (`PayoutsClient.ts`, https://docs.dlocal.com/reference/security-payouts-v3), not the pay-in
 * signature; notifications are checked with the pay-in signature (`Signing.ts`, see the README's
 * "Not confirmed"); its simulator is `PayoutsSimulator.ts`.
 *
 * - **Idempotency.** dLocal's key for a payout is `external_id`, unique per merchant: the engine's
 *   payout id. A retry after a lost answer posts the same `external_id`; dLocal refuses the
 *   duplicate (400) and the connector answers the payout it already holds, looked up by
 *   `external_id`. So a retried payout is never paid twice.
 * - **Errors.** A maybe is never a refusal: a timeout, a network error, 5xx, 429 and refused
 *   credentials (a token refused twice, a client id or secret refused, 403 for an unregistered IP
 *   or a balance too low to pay) are `PayoutProviderUnavailable`, and the engine asks again later
 *   with the same key.
 *   Only another 4xx (invalid beneficiary, invalid bank account...) is `PayoutRejected`, which
 *   reverses the debit.
 * - **Callbacks.** dLocal POSTs the payout object, signed like every request (see `Signing.ts`);
 *   the update echoes `external_id` as the engine's payout id.
 * - **Secrets** (`clientId`, `clientSecret`, the tokens, `login`, `secretKey`) stay `Redacted` and
 *   out of errors and logs.
 */
import { absurd, Effect, Redacted, Schema } from "effect"
import type { Mac } from "effect/crypto"
import type { HttpClient } from "effect/http"
import { CallbackRejected, type ProviderError } from "../../core/ports/PaymentProvider.ts"
import {
  type PayoutProvider,
  PayoutProviderUnavailable,
  PayoutRejected,
  type PayoutUpdate
} from "../../core/ports/PayoutProvider.ts"
import { Money, type PayoutMethodDef } from "../../core/ports/index.ts"
import type { ConnectorSettings } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { makePayoutsClient, type PayoutsClientOptions } from "./PayoutsClient.ts"
import * as Wire from "./PayoutsWire.ts"
import { type Credentials, verifyNotification } from "./Signing.ts"

/** The engine's payout rails dLocal pays, with dLocal's payment method. */
export const payoutRails: Readonly<Record<string, Wire.PayoutBody["payment_method_id"]>> = {
  po_mx_spei: "BANK_TRANSFER",
  po_br_pix: "INSTANT_PAYMENT",
  po_co_bank: "BANK_TRANSFER",
  po_pe_bank: "BANK_TRANSFER",
  po_cl_bank: "BANK_TRANSFER",
  po_ar_bank: "BANK_TRANSFER"
}

/** dLocal's code for a second payout with an `external_id` it already holds. */
export const duplicateExternalIdCode = "5008"

export interface PayoutOptions extends PayoutsClientOptions, Pick<Credentials, "login" | "secretKey"> {
  /** dLocal's `purpose` (REMITTANCES, PAYROLL, SUPPLIER_PAYMENT, ...). Default `OTHER`. */
  readonly purpose?: string | undefined
  /** dLocal's `flow_type` (B2C, B2B, P2P). Default `B2C`. */
  readonly flowType?: string | undefined
}

const decodeNotification = Schema.decodeUnknownEffect(Schema.fromJsonString(Wire.PayoutObject))

/** The beneficiary as dLocal wants it, from the engine's validated recipient fields. */
const beneficiaryOf = (method: PayoutMethodDef, recipient: Readonly<Record<string, string>>): Wire.PayoutBody["beneficiary"] => {
  const words = (recipient["name"] ?? "").trim().split(/\s+/)
  const last = words.length > 1 ? words.pop()! : words[0] ?? ""
  const documentId = recipient["documentId"] ?? ""
  const documentType = recipient["documentType"] ??
    (method.country === "BR" ? (documentId.length === 14 ? "CNPJ" : "CPF") : undefined)
  return {
    first_name: words.join(" "),
    last_name: last,
    ...UpstreamHttp.defined({ email: recipient["email"] }),
    document: { id: documentId, ...UpstreamHttp.defined({ type: documentType }) },
    bank_account: {
      account: recipient["account"] ?? "",
      ...UpstreamHttp.defined({ code: recipient["bankCode"], type: recipient["accountType"] })
    }
  }
}

export const makePayouts = (options: PayoutOptions): Effect.Effect<PayoutProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const { call } = yield* makePayoutsClient(options)
    const mac = yield* Effect.context<Mac.Mac>()

    const unavailable = (error: ProviderError) => new PayoutProviderUnavailable({ reason: `${error.code}: ${error.message}` })

    /** A refusal refuses the beneficiary; anything else is asked again later, with the same key. */
    const sendError = (error: ProviderError) => {
      switch (error.reason._tag) {
        case "Declined":
          return new PayoutRejected({ failureReason: error.message })
        case "Failed":
        case "OutcomeUnknown":
        case "Misconfigured":
          return unavailable(error)
        default:
          return absurd<never>(error.reason)
      }
    }

    const byExternalId = (payoutId: string) =>
      call("payout.lookup", `/payouts/v3?external_id=${encodeURIComponent(payoutId)}`, Wire.PayoutObject)

    const send: PayoutProvider["send"] = (request) =>
      Effect.gen(function*() {
        const method = payoutRails[request.method.id]
        if (method === undefined) return yield* new PayoutRejected({ failureReason: `dLocal does not pay ${request.method.id}` })
        const body = UpstreamHttp.jsonText({
          external_id: request.payoutId,
          country: request.method.country,
          payment_method_id: method,
          amount: new UpstreamHttp.JsonDecimal(Money.decimal(request.amount)),
          currency: request.currency,
          currency_to_pay: request.currency,
          purpose: options.purpose ?? "OTHER",
          flow_type: options.flowType ?? "B2C",
          notification_url: request.callbackUrl,
          beneficiary: beneficiaryOf(request.method, request.recipient)
        })
        const created = yield* call("payout.send", "/payouts/v3", Wire.PayoutObject, body).pipe(
          Effect.catchIf(
            (error) => error.code === duplicateExternalIdCode,
            () => byExternalId(request.payoutId)
          ),
          Effect.mapError(sendError)
        )
        if (created.external_id !== request.payoutId) {
          return yield* new PayoutProviderUnavailable({ reason: "dLocal answered about another payout" })
        }
        const status = Wire.toPayoutStatus(created.status)
        if (status === "failed") {
          return yield* new PayoutRejected({ failureReason: created.status_detail ?? `dLocal: ${created.status}` })
        }
        return { providerRef: created.id, status }
      }).pipe(Effect.withSpan("DLocalPayouts.send"))

    const status: PayoutProvider["status"] = (providerRef, payoutId) =>
      Effect.gen(function*() {
        const found = yield* call("payout.status", `/payouts/v3/${encodeURIComponent(providerRef)}`, Wire.PayoutObject).pipe(
          Effect.mapError(unavailable)
        )
        if (found.id !== providerRef || found.external_id !== payoutId) {
          return yield* new PayoutProviderUnavailable({ reason: "dLocal answered about another payout" })
        }
        return { providerRef, payoutId, status: Wire.toPayoutStatus(found.status), detail: found.status_detail } satisfies PayoutUpdate
      }).pipe(Effect.withSpan("DLocalPayouts.status"))

    const verifyCallback: PayoutProvider["verifyCallback"] = (headers, rawBody) =>
      Effect.gen(function*() {
        const verdict = yield* verifyNotification(options, headers, rawBody)
        if (verdict !== "valid") return yield* new CallbackRejected({ reason: `signature ${verdict}` })
        const payout = yield* decodeNotification(rawBody).pipe(
          Effect.mapError(() => new CallbackRejected({ reason: "unreadable body" }))
        )
        return [{
          providerRef: payout.id,
          payoutId: payout.external_id,
          status: Wire.toPayoutStatus(payout.status),
          detail: payout.status_detail
        }]
      }).pipe(
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.provideContext(mac),
        Effect.withSpan("DLocalPayouts.verifyCallback")
      )

    return {
      id: options.id,
      environments: [options.environment],
      supports: (method) => method.id in payoutRails,
      send,
      status,
      verifyCallback
    } satisfies PayoutProvider
  })

/** The payout provider of a configured dLocal account (`host/Connectors.ts`). */
export const payoutsFromSettings = (settings: ConnectorSettings) =>
  makePayouts({
    id: settings.id,
    environment: settings.environment,
    baseUrl: settings.baseUrl,
    // Required by `connector.secrets`; an embedding that builds settings itself without them gets
    // a provider whose payouts wait (unavailable, `not_configured`) instead of a crash.
    clientId: settings.secrets["CLIENT_ID"] ?? Redacted.make(""),
    clientSecret: settings.secrets["CLIENT_SECRET"] ?? Redacted.make(""),
    login: settings.secrets["LOGIN"]!,
    secretKey: settings.secrets["SECRET_KEY"]!,
    purpose: settings.values["PAYOUT_PURPOSE"],
    flowType: settings.values["PAYOUT_FLOW_TYPE"],
    timeoutMs: settings.timeoutMs
  })

export const DLocalPayouts = { make: makePayouts, fromSettings: payoutsFromSettings, payoutRails }

