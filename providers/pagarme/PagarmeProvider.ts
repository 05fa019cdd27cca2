/**
 * The Pagar.me pay-in connector (Core API v5, `https://api.pagar.me/core/v5`): PIX, boleto and
 * credit cards in Brazil (`Rails.ts`; a card's order goes through the card vault, `CardCharge.ts`).
 * Wire types and status maps are in `Wire.ts` and `CardWire.ts`, the webhook signature in
 * `Notifications.ts`, the charge body in `OrderBody.ts`; a local upstream is `PagarmeSimulator.ts`.
 *
 * - **Authentication.** `Authorization: Basic base64(<secret key>:)` (the secret key is the user,
 *   the password empty), from a `Redacted` secret; one base URL for both environments, the key
 *   decides (`sk_test_...` / `sk_...`).
 * - **Charge**: `POST /orders` with one item, the customer and one payment (`pix` with
 *   `expires_in`, or `boleto` with `due_at` and the billing address), `code` = the engine's
 *   transaction id, and `Idempotency-Key` = the engine's idempotency key (documented: the same key
 *   within 24 hours answers the one order created first). Because the key lives 24 hours only, the
 *   order is first looked up by `code` (`GET /orders?code=`), so a retry days later (a recovery
 *   job) answers the order made then. The provider reference is the CHARGE id (`ch_...`).
 * - **Errors.** `401` (bad key) is `invalid_credentials`, `Misconfigured`; `422` (by field) and
 *   `412` (business) are `Declined`, the code naming the first field; a `failed` order declines.
 * - **Refunds**: `DELETE /charges/{id}` with `amount` (centavos) and `operation_reference` = the
 *   engine's refund id. Pagar.me documents no lookup of a refund by our reference, so a marker
 *   in the charge's `metadata` (`refund_<refundId>`) is written AHEAD (`asked`, then the refund
 *   transaction's id); an `asked` marker makes the refund be looked up among the charge's
 *   transactions before a `DELETE` is sent again (README, "Refunds"). Once a `DELETE` made a
 *   refund, whatever fails after it answers it `pending`, never a refusal.
 * - **Capture later** (`capture: false`, `auth_only`), void, and no 3-D Secure: `CardCapture.ts`, `CardCharge.ts`.
 * - **Webhooks** are verified (RS256 against Pagar.me's JWKS, `Notifications.ts`) and then not
 *   trusted for their status: the connector asks `GET /charges/{id}` about the charge the webhook
 *   names (verified notify-then-query), so a replayed old webhook reports what is true now.
 */
import { Duration, Effect, Option, Redacted, Schema } from "effect"
import type { Mac } from "effect/crypto"
import { Base64 } from "effect/encoding"
import { type HttpClient, HttpClientRequest } from "effect/http"
import { CardVault, type Environment, type PaymentMethodDef } from "../../core/ports/index.ts"
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
import { defineConnector } from "../kit/Connector.ts"
import * as CardCapture from "./CardCapture.ts"
import * as CardCharge from "./CardCharge.ts"
import { pagarmePayablesReport } from "./Report.ts"
import { PagarmeReportSource } from "./ReportSource.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Notifications from "./Notifications.ts"
import { orderBodyOf } from "./OrderBody.ts"
import * as Rails from "./Rails.ts"
import * as Wire from "./Wire.ts"

export const defaultBaseUrl = "https://api.pagar.me/core/v5"
export const defaultTimeoutMs = 10_000

export interface Options {
  readonly id: string
  readonly displayName?: string | undefined
  /** The one environment this account serves (an `sk_test_` key is `sandbox`). */
  readonly environment: Environment
  /** Default {@link defaultBaseUrl} (the same for both environments). */
  readonly baseUrl?: string | undefined
  readonly secretKey: Redacted.Redacted<string>
  /** Where the webhook signature's public keys are; default {@link Wire.defaultJwksUrl}. */
  readonly jwksUrl?: string | undefined
  readonly timeoutMs?: number | undefined
  /** The card statement's text (`credit_card.statement_descriptor`, 13 characters kept). */
  readonly statementDescriptor?: string | undefined
}

/** `{ message, errors: { field: [words] } }`: the first field speaks, else the message (`Wire.ts`). */
export const readError = Wire.readError
const decodeWebhook = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Webhook))

/** A charge's metadata as `PATCH /charges/{id}/metadata` takes it back (text values only). */
const keptMetadata = (metadata: Wire.Charge["metadata"]): Record<string, string> =>
  Object.fromEntries(Object.entries(metadata ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string"))

/** The refund marker this connector keeps in the charge's `metadata`. */
export const refundMarkerOf = (refundId: string) => `refund_${refundId}`.slice(0, 64)

export const make = (options: Options): Effect.Effect<PaymentProvider, never, HttpClient.HttpClient | Mac.Mac> =>
  Effect.gen(function*() {
    const providerId = options.id
    const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "")
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
    // The key travels base64-encoded in `Authorization: Basic`: an upstream that echoes the
    // header echoes that form, which is as secret as the key.
    const basicCredential = Redacted.make(Base64.encode(`${Redacted.value(options.secretKey)}:`))
    const upstream = yield* UpstreamHttp.make({
      providerId,
      secrets: [options.secretKey, basicCredential],
      timeout: Duration.millis(timeoutMs),
      readError
    })
    const verifier = yield* Notifications.make({ jwksUrl: options.jwksUrl ?? Wire.defaultJwksUrl, timeoutMs })
    const { declined, failed, malformed } = upstream
    const call = <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) =>
      upstream.call(operation, request.pipe(HttpClientRequest.basicAuth(options.secretKey, ""), HttpClientRequest.acceptJson), schema)
    const chargeUrl = (id: string) => `${baseUrl}/charges/${encodeURIComponent(id)}`
    const getCharge = (operation: string, id: string) => call(operation, HttpClientRequest.get(chargeUrl(id)), Wire.Charge)

    // The key is kept 24 hours only: an order made earlier for this transaction is found by its
    // `code` first, so a retry after that (a recovery job) is never a second order.
    const earlierOrder = (transactionId: string) =>
      call(
        "charge.lookup",
        HttpClientRequest.get(`${baseUrl}/orders`).pipe(HttpClientRequest.setUrlParam("code", transactionId)),
        Wire.OrderList
      ).pipe(Effect.map((list) => (list.data ?? []).find((o) => o.code === transactionId)))
    // A card rail needs a vault to forward the card. A host without one provides
    // `CardVault.unconfigured` (the port says no more), which is told by identity: with it card rails are not served.
    const unconfigured = yield* Effect.provide(Effect.service(CardVault), CardVault.unconfigured)
    const vault = Option.filter(yield* Effect.serviceOption(CardVault), (given) => given !== unconfigured)
    const cardCharge = CardCharge.make({
      providerId, baseUrl, timeoutMs, basicCredential, statementDescriptor: options.statementDescriptor, upstream, earlierOrder, vault
    })

    // Card authorizations (`capture: false`, `auth_only`): capture, void and their window.
    const cardCapture = CardCapture.make({ upstream, call, chargeUrl, chargeSchema: Wire.Charge })
    const supports = (method: PaymentMethodDef) => {
      const rail = Rails.railOf(method)
      return rail !== undefined && (!Rails.isCardRail(rail) || Option.isSome(vault))
    }

    const charge = Effect.fn("PagarmeProvider.charge")(function*(request: ChargeRequest) {
      const rail = Rails.railOf(request.method)
      // Retryable: another provider may serve what this connector cannot.
      if (rail === undefined) return yield* failed("unsupported_method", `Pagar.me connector does not serve ${request.method.id}`)
      if (request.currency !== rail.currency) {
        return yield* failed("unsupported_currency", `${rail.paymentMethod} is charged in ${rail.currency}`)
      }
      if (Rails.isCardRail(rail)) return yield* cardCharge(request, rail)
      const built = orderBodyOf(rail, request, yield* Effect.clockWith((clock) => clock.currentTimeMillis))
      if (built._tag === "Failure") return yield* failed(built.failure.reason, built.failure.message)
      const earlier = yield* earlierOrder(request.transactionId)
      const order = earlier ?? (yield* call(
        "charge",
        HttpClientRequest.post(`${baseUrl}/orders`).pipe(
          HttpClientRequest.setHeader("Idempotency-Key", request.idempotencyKey),
          HttpClientRequest.bodyText(JSON.stringify(built.success), "application/json")
        ),
        Wire.Order
      ))
      if (order.code !== undefined && order.code !== null && order.code !== request.transactionId) {
        return yield* malformed("Pagar.me answered about another order")
      }
      const created = order.charges?.[0]
      const transaction = created?.last_transaction ?? undefined
      if (order.status === "failed" || (created !== undefined && Wire.toChargeStatus(created) === "failed")) {
        const words = transaction?.gateway_response?.errors?.[0]?.message ?? transaction?.status ?? "failed"
        return yield* declined(upstream.clip(words) || "failed", `Pagar.me refused order ${order.id}`)
      }
      if (created === undefined) return yield* malformed(`order ${order.id} has no charge`)
      const formUrl = rail.paymentMethod === "pix" ? transaction?.qr_code_url : transaction?.url ?? transaction?.pdf
      if (formUrl === undefined || formUrl === null || !/^https?:\/\/\S+$/.test(formUrl)) {
        return yield* malformed(`charge ${created.id} has no payment URL`)
      }
      return {
        providerRef: created.id,
        status: Wire.toChargeStatus(created),
        paymentFormUrl: formUrl,
        paymentData: UpstreamHttp.defined({
          paymentMethod: rail.paymentMethod,
          orderId: order.id,
          qrCode: transaction?.qr_code ?? undefined,
          qrCodeUrl: transaction?.qr_code_url ?? undefined,
          expiresAt: transaction?.expires_at ?? undefined,
          boletoUrl: transaction?.url ?? undefined,
          pdf: transaction?.pdf ?? undefined,
          digitableLine: transaction?.line ?? undefined,
          barcode: transaction?.barcode ?? undefined,
          dueAt: transaction?.due_at ?? undefined
        })
      } satisfies ChargeAccepted
    })

    /** What the API says about a charge, as an update; only the charge asked about may speak. */
    const updateOf = (providerRef: string, charge: Wire.Charge, transactionId?: string): Effect.Effect<ChargeUpdate, ProviderError> => {
      const echoed = charge.order?.code ?? undefined
      return charge.id !== providerRef || (transactionId !== undefined && echoed !== undefined && echoed !== transactionId)
        ? Effect.fail(malformed("Pagar.me answered about another charge"))
        : Effect.succeed({
          providerRef,
          transactionId: transactionId ?? echoed,
          status: Wire.toUpdateStatus(charge),
          detail: Wire.detailOf(charge)
        })
    }

    const status = Effect.fn("PagarmeProvider.status")(function*(providerRef: string, transactionId: string) {
      return yield* updateOf(providerRef, yield* getCharge("status", providerRef), transactionId)
    })

    const transactionsOf = (chargeId: string) =>
      call("refund.lookup", HttpClientRequest.get(`${chargeUrl(chargeId)}/transactions`), Wire.TransactionList).pipe(
        Effect.map((list) => list.data ?? [])
      )

    /** The refund transaction `transactionId` of the charge as it stands now. */
    const refundAsItStands = (chargeId: string, transactionId: string, known: Wire.Transaction | undefined) =>
      Effect.gen(function*() {
        if (known !== undefined && Wire.toRefundStatus(known.status) !== "pending") return known
        return (yield* transactionsOf(chargeId)).find((t) => t.id === transactionId) ?? known
      })

    /**
     * Writes the refund's marker and reads it back. Two refunds of one charge marking at once can
     * overwrite each other's metadata, so the write is merged and checked again; failing that, the
     * call fails (`Failed`: asked again later).
     */
    const mark = (chargeId: string, marker: string, value: string) =>
      Effect.gen(function*() {
        for (let attempt = 0; attempt < 3; attempt++) {
          const current = yield* call("refund.marker", HttpClientRequest.get(chargeUrl(chargeId)), Wire.Charge)
          if (current.metadata?.[marker] === value) return
          yield* call(
            "refund.mark",
            HttpClientRequest.patch(`${chargeUrl(chargeId)}/metadata`).pipe(
              HttpClientRequest.bodyText(JSON.stringify({ metadata: { ...keptMetadata(current.metadata), [marker]: value } }), "application/json")
            ),
            Wire.Charge
          )
        }
        const last = yield* call("refund.marker", HttpClientRequest.get(chargeUrl(chargeId)), Wire.Charge)
        if (last.metadata?.[marker] !== value) {
          return yield* failed("refund_marker_lost", `the refund marker of ${chargeId} could not be kept`)
        }
      })

    /**
     * A refund Pagar.me holds: whatever fails now (the marker, the read) is not a refusal, the
     * money has left or is leaving. It is answered as Pagar.me last said (`pending` unless it said
     * otherwise) and the engine asks again later, which finds it by its marker or its transaction.
     */
    const heldRefund = (chargeId: string, marker: string, transaction: Wire.Transaction & { readonly id: string }) =>
      Effect.gen(function*() {
        yield* mark(chargeId, marker, transaction.id)
        const now = yield* refundAsItStands(chargeId, transaction.id, transaction)
        return { providerRef: transaction.id, status: Wire.toRefundStatus(now?.status) } satisfies RefundOutcome
      }).pipe(
        Effect.catch((error) =>
          Effect.logWarning(`Pagar.me refund ${transaction.id}: held, its marker or read failed (${error.code}); asked again later`).pipe(
            Effect.as({ providerRef: transaction.id, status: Wire.toRefundStatus(transaction.status) } satisfies RefundOutcome)
          )
        )
      )

    /**
     * The charge's refund that an earlier, unanswered `DELETE` of this refund made, if any: a
     * refund transaction (`pending_refund` or `refunded`: money leaving) of the same amount that
     * no other refund's marker claims. More than one such is ambiguous: `Failed`, never a guess.
     * One that failed is not looked for: asking again cannot pay the buyer twice.
     */
    const earlierRefund = (charge: Wire.Charge, centavos: number) =>
      Effect.gen(function*() {
        const claimed = new Set(Object.values(charge.metadata ?? {}))
        const candidates = (yield* transactionsOf(charge.id)).filter((t): t is Wire.Transaction & { readonly id: string } =>
          typeof t.id === "string" && !claimed.has(t.id) && t.amount === centavos &&
          (t.status === "pending_refund" || t.status === "refunded")
        )
        if (candidates.length > 1) {
          return yield* failed("refund_ambiguous", `charge ${charge.id} holds ${candidates.length} unclaimed refunds of this amount`)
        }
        return candidates[0]
      })

    const refund = Effect.fn("PagarmeProvider.refund")(function*(request: RefundRequest) {
      const centavos = Rails.toCentavos(request.amount)
      if (Option.isNone(centavos) || centavos.value <= 0) {
        return yield* declined("invalid_amount", "a refund is a positive amount in whole centavos")
      }
      const marker = refundMarkerOf(request.refundId)
      const before = yield* call("refund.marker", HttpClientRequest.get(chargeUrl(request.providerRef)), Wire.Charge)
      const marked = before.metadata?.[marker]
      if (marked !== undefined && marked !== null && marked !== "" && marked !== Wire.refundAsked) {
        return yield* heldRefund(request.providerRef, marker, { id: marked, status: "pending_refund" })
      }
      if (marked === Wire.refundAsked) {
        // Asked before without an answer kept: the refund may exist. It is looked up, never
        // asked for again on the strength of an Idempotency-Key (documented for orders only).
        const earlier = yield* earlierRefund(before, centavos.value)
        if (earlier !== undefined) return yield* heldRefund(request.providerRef, marker, earlier)
      } else {
        // Write-ahead: the mark says "asked" before the DELETE leaves.
        yield* mark(request.providerRef, marker, Wire.refundAsked)
      }
      const answered = yield* call(
        "refund",
        HttpClientRequest.delete(chargeUrl(request.providerRef)).pipe(
          HttpClientRequest.setHeader("Idempotency-Key", request.idempotencyKey),
          HttpClientRequest.bodyText(JSON.stringify({ amount: centavos.value, operation_reference: request.refundId }), "application/json")
        ),
        Wire.Charge
      )
      const transaction = answered.last_transaction ?? undefined
      const refundRef = transaction?.id ?? undefined
      if (answered.id !== request.providerRef || transaction === undefined || refundRef === undefined || refundRef === null) {
        return yield* malformed("Pagar.me's refund answer names no refund transaction")
      }
      if (Wire.toRefundStatus(transaction.status) === "failed") {
        return yield* declined(upstream.clip(transaction.status ?? "refund_failed"), `Pagar.me refused the refund of ${answered.id}`)
      }
      return yield* heldRefund(request.providerRef, marker, { ...transaction, id: refundRef })
    })

    /**
     * The charge's refunds as they stand, for a webhook's update: a refund's webhook
     * (`charge.refunded`, a partial one's, `charge.updated`) names the charge, and its refund
     * transactions (`GET /charges/{id}/transactions`) say where each refund is, so the engine
     * settles or fails a pending one at once. Every transaction with an id is reported (the engine
     * matches only the refunds it holds, by id). A failed read leaves them out: the charge's own
     * update still applies, and the engine's follow-up of the refund still runs.
     */
    const refundsNow = (chargeId: string) =>
      transactionsOf(chargeId).pipe(
        Effect.map((transactions) => {
          const refunds = transactions.flatMap((t): Array<RefundOutcome> =>
            typeof t.id === "string" && t.id !== "" ? [{ providerRef: t.id, status: Wire.toRefundStatus(t.status), detail: t.status ?? undefined }] : []
          )
          return refunds.length === 0 ? {} : { refunds }
        }),
        Effect.catch((error) => Effect.as(Effect.logWarning(`Pagar.me charge ${chargeId}: its transactions could not be read (${error.code})`), {}))
      )

    const verifyCallback = (headers: Readonly<Record<string, string | undefined>>, rawBody: string) =>
      Effect.gen(function*(): Effect.fn.Return<ReadonlyArray<ChargeUpdate>, CallbackRejected> {
        const reject = (reason: string) => Effect.fail(new CallbackRejected({ reason }))
        if (!(yield* verifier.verify(headers, rawBody))) return yield* reject("signature missing or invalid")
        const webhook = decodeWebhook(rawBody)
        if (Option.isNone(webhook)) return yield* reject("unreadable body")
        const { data, type } = webhook.value
        const chargeIds = type.startsWith("charge.")
          ? [data.id]
          : type.startsWith("order.")
          ? (data.charges ?? []).map((c) => c.id)
          : []
        const updates: Array<ChargeUpdate> = []
        for (const chargeId of chargeIds) {
          const charge = yield* getCharge("notification.query", chargeId).pipe(
            Effect.mapError((error) => new CallbackRejected({ reason: `charge query failed: ${error.code}` }))
          )
          const update = yield* updateOf(chargeId, charge).pipe(Effect.mapError((error) => new CallbackRejected({ reason: error.code })))
          updates.push({ ...update, ...(yield* refundsNow(chargeId)) })
        }
        return updates
      }).pipe(
        // Untrusted input must never escape as a defect.
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.withSpan("PagarmeProvider.verifyCallback")
      )

    return {
      id: providerId,
      displayName: options.displayName ?? "Pagar.me",
      environments: [options.environment],
      supports,
      requires: Rails.requiredBeyondCatalog,
      charge,
      status,
      verifyCallback,
      refund,
      ...cardCapture
    } satisfies PaymentProvider
  })

/**
 * `CONNECTORS=<id>=pagarme` with `<PREFIX>_SECRET_KEY` (the account's `sk_test_...` or `sk_...`
 * secret key); optional `<PREFIX>_WEBHOOK_JWKS_URL` (default Pagar.me's JWKS) and
 * `<PREFIX>_STATEMENT_DESCRIPTOR` (a card statement's text).
 */
export const PagarmeConnector = defineConnector({
  kind: "pagarme",
  secrets: ["SECRET_KEY"],
  settings: ["WEBHOOK_JWKS_URL", "STATEMENT_DESCRIPTOR"],
  rails: Rails.rails,
  wire: Wire,
  statusMaps: { charges: Wire.chargeStatusMap, refunds: Wire.refundStatusMap },
  make,
  options: (settings) => ({
    secretKey: settings.secrets["SECRET_KEY"]!,
    jwksUrl: settings.values["WEBHOOK_JWKS_URL"],
    statementDescriptor: settings.values["STATEMENT_DESCRIPTOR"]
  }),
  reportFormats: () => [pagarmePayablesReport],
  reportSource: (settings) =>
    PagarmeReportSource.make({
      id: settings.id,
      baseUrl: settings.baseUrl ?? defaultBaseUrl,
      secretKey: settings.secrets["SECRET_KEY"]!,
      timeoutMs: settings.timeoutMs
    })
})

/** Registers the provider; the host provides `HttpClient` (e.g. `FetchHttpClient.layer`) and `Mac`. */
export const { connector, layer } = PagarmeConnector

export const PagarmeProvider = { make, layer, connector, defaultBaseUrl, defaultTimeoutMs, refundMarkerOf }
