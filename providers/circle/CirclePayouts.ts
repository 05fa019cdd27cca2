/**
 * The Circle settlement payout connector: a `SettlementPayoutProvider` that pays a closed
 * settlement batch's net in USDC from the platform's Circle wallet to the merchant's blockchain
 * address, an approved entry of the account's address book (Circle Mint business-account
 * transfers, `POST /v1/businessAccount/transfers`). Wire types and the status map are in
 * `Wire.ts`, the SNS notification signature in `Sns.ts`; a local Circle to test against is
 * `CircleSimulator.ts`.
 *
 * - **Authentication.** `Authorization: Bearer <API key>` on every call, from a `Redacted`
 *   secret, scrubbed from every error message and log line (`UpstreamHttp`).
 * - **Address book.** `destination` enters the destination in the account's address book
 *   (`POST /v1/businessAccount/wallets/addresses/recipient`, a key derived from chain and address)
 *   unless it is listed already (`GET` lists the verified entries only), and answers its state:
 *   `active` is approved; the account's administrator approves the rest. `send` pays only an
 *   approved entry; another destination is not sent, and is `Unavailable`, never a refusal (an
 *   earlier ask of the batch may have paid it).
 * - **Send.** `POST /v1/businessAccount/transfers` `{ idempotencyKey, source: { type: "wallet",
 *   id: <WALLET_ID>, identities? }, destination: { type: "verified_blockchain", addressId },
 *   amount: { amount: "12.34", currency: "USD" } }`, `identities` the Travel Rule's originator
 *   from 3,000 USD on its chains (without one, nothing is sent): the amount is decimal text with two decimals, written from the `BigDecimal`
 *   (never a float); an amount with more than two decimals, not positive, or a chain Circle does
 *   not name is refused before anything is sent.
 * - **Idempotency.** Circle's `idempotencyKey` must be a UUID v4, and "subsequent requests with
 *   the same idempotencyKey will produce the same result as the initial request". The engine's key
 *   (`<batchId>:<providerId>`) is not a UUID, so the connector derives one from it: the first 16
 *   bytes of SHA-256(`circle-transfer:` + key), with the version nibble set to 4 and the variant
 *   bits to `10` ({@link idempotencyKeyOf}). Name-based, so every retry of a batch sends the same
 *   key and Circle answers the transfer it already holds: never a second one. Circle answers a
 *   retry with its first answer (the transfer as it was), so a `pending` answer is followed by
 *   `GET /v1/businessAccount/transfers/{id}` to report the transfer as it stands now.
 * - **Errors.** A maybe is never a refusal: a timeout, a network error, 5xx, 429, refused
 *   credentials (401/403) and `409` (the key bound to another request: a transfer may exist for
 *   it, so failing the batch could pay twice) are `SettlementPayoutUnavailable`, and the engine
 *   asks again with the same key. Only another 4xx (an address Circle refuses...) is
 *   `SettlementPayoutRejected`, which returns the batch's money.
 * - **Notifications** arrive through AWS SNS. The connector verifies the SNS signature exactly as
 *   AWS documents it (`Sns.ts`), confirms a subscription by visiting its `SubscribeURL` (only on
 *   a trusted host), and for a `transfers` notification asks `GET /v1/businessAccount/transfers/{id}` and reports
 *   what Circle says now (notify-then-query): a replay can only report what is true.
 */
import { absurd, BigDecimal, Duration, Effect, Option, Redacted, Schema } from "effect"
import { Digest } from "effect/crypto"
import { HttpClient, HttpClientRequest } from "effect/http"
import type { Environment } from "../../core/ports/index.ts"
import { CallbackRejected, type ProviderError } from "../../core/ports/PaymentProvider.ts"
import {
  type DestinationApproval,
  type SettlementPayoutProvider,
  SettlementPayoutRejected,
  SettlementPayoutUnavailable,
  type SettlementPayoutUpdate
} from "../../core/ports/SettlementPayoutProvider.ts"
import type { Connector, ConnectorSettings } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Sns from "./Sns.ts"
import * as Wire from "./Wire.ts"

export const defaultTimeoutMs = 15_000

/** Address book entries asked per page, and the most pages read looking for one (5,000 entries). */
export const recipientPageSize = 50
const maxRecipientPages = 100

/** The name space of {@link idempotencyKeyOf}: changing it would make a retry a new transfer. */
export const idempotencyNamespace = "circle-transfer:"

/** The name space of an address book entry's key (`<chain>:<address>`): the same destination is one entry. */
export const recipientNamespace = "circle-recipient:"

export interface CircleOptions {
  readonly id: string
  readonly environment: Environment
  /** Overrides Circle's base URL for the environment (a simulator, a proxy). */
  readonly baseUrl?: string | undefined
  readonly timeoutMs?: number | undefined
  readonly apiKey: Redacted.Redacted<string>
  /** The platform's Circle wallet the payouts are paid from (`source.id`). */
  readonly walletId: string
  /** The chains paid on (Circle's names); default every chain of `Wire.chains`. */
  readonly chains?: ReadonlyArray<string> | undefined
  /** Trusted prefix of SNS `SigningCertURL`s instead of `https://sns.<region>.amazonaws.com/`. */
  readonly snsCertUrlPrefix?: string | undefined
  /** The only SNS topic accepted; any when undefined. */
  readonly snsTopicArn?: string | undefined
  /**
   * The Travel Rule's originator (`source.identities`), sent on a transfer of 3,000 USD or more on
   * a chain of `Wire.travelRuleChains`; without it such a transfer is not sent.
   */
  readonly originator?: Wire.Identity | "unreadable" | undefined
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * The UUID Circle sees for the engine's idempotency key: SHA-256(namespace + key), first 16
 * bytes, version 4 and RFC 4122 variant bits set. Deterministic, so a retry is the same request.
 */
export const idempotencyKeyOf = (key: string, namespace: string = idempotencyNamespace): Effect.Effect<string> =>
  Effect.gen(function*() {
    const digest = yield* Digest.Digest
    const hash = yield* digest.digest(Digest.sha256, new TextEncoder().encode(namespace + key))
    const bytes = hash.slice(0, 16)
    bytes[6] = (bytes[6]! & 0x0f) | 0x40
    bytes[8] = (bytes[8]! & 0x3f) | 0x80
    const hex = toHex(bytes)
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }).pipe(Effect.provide(Digest.layerWebCrypto))

/** `"12.30"` for 12.3; `undefined` when the amount has more than two decimals or is not positive. */
export const amountText = (amount: BigDecimal.BigDecimal): string | undefined => {
  const normalized = BigDecimal.normalize(amount)
  if (normalized.scale > 2 || !BigDecimal.isPositive(normalized)) return undefined
  const cents = BigDecimal.scale(normalized, 2).value
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`
}

const sameAmount = (a: string, b: string) => {
  const x = BigDecimal.fromString(a)
  const y = BigDecimal.fromString(b)
  return Option.isSome(x) && Option.isSome(y) && BigDecimal.equals(x.value, y.value)
}

const decodeNotification = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Notification))
const decodeIdentity = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Identity))

/** Whether Circle's Travel Rule asks the originator of this transfer (3,000 USD or more on a Travel Rule chain). */
export const travelRuleApplies = (chain: string, amount: BigDecimal.BigDecimal) =>
  Wire.travelRuleChains.includes(chain) && BigDecimal.isGreaterThanOrEqualTo(amount, BigDecimal.fromNumberUnsafe(Wire.travelRuleThresholdUsd))

const approvalOf = (recipient: Wire.Recipient, listed: boolean): DestinationApproval => {
  // The list holds verified entries only: one listed without a status is active.
  const status = recipient.status ?? (listed ? "active" : "pending_verification")
  return { status: Wire.approvalOf(status), reference: recipient.id, detail: status }
}

export const make = (options: CircleOptions): Effect.Effect<SettlementPayoutProvider, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const baseUrl = (options.baseUrl ?? Wire.baseUrls[options.environment]).replace(/\/+$/, "")
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
    const chains: ReadonlyArray<string> = options.chains ?? Wire.chains
    const http = yield* HttpClient.HttpClient
    const upstream = yield* UpstreamHttp.make({
      providerId: options.id,
      secrets: [options.apiKey],
      timeout: Duration.millis(timeoutMs),
      readError: UpstreamHttp.jsonWords("code", "message"),
      classify: (status) => (status === 409 ? { reason: "Failed", code: "idempotency_conflict" } : undefined)
    })
    const sns = yield* Sns.make({ certUrlPrefix: options.snsCertUrlPrefix, topicArn: options.snsTopicArn, timeoutMs })

    const authorized = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(
        HttpClientRequest.setHeader("authorization", `Bearer ${Redacted.value(options.apiKey)}`),
        HttpClientRequest.acceptJson
      )

    const unavailable = (error: ProviderError) => new SettlementPayoutUnavailable({ reason: `${error.code}: ${error.message}` })

    /** A refusal refuses the payout (`refused` words it); anything else is asked again, with the same key. */
    const refusedOr = (refused: (error: ProviderError) => string) => (error: ProviderError) => {
      switch (error.reason._tag) {
        case "Declined":
          return new SettlementPayoutRejected({ reason: refused(error) })
        case "Failed":
        case "OutcomeUnknown":
        case "Misconfigured":
          return unavailable(error)
        default:
          return absurd<never>(error.reason)
      }
    }

    const updateOf = (transfer: Wire.Transfer, batchId?: string): SettlementPayoutUpdate => ({
      providerRef: transfer.id,
      batchId,
      status: Wire.toStatus(transfer.status),
      transactionHash: transfer.transactionHash ?? undefined,
      detail: transfer.errorCode ?? undefined
    })

    const read = (transferId: string) =>
      upstream.call(
        "transfer.get",
        authorized(HttpClientRequest.get(`${baseUrl}/v1/businessAccount/transfers/${encodeURIComponent(transferId)}`)),
        Wire.TransferAnswer
      ).pipe(
        Effect.flatMap(({ data }) =>
          data.id === transferId ? Effect.succeed(data) : Effect.fail(upstream.malformed("Circle answered about another transfer"))
        )
      )

    const postJson = (path: string, body: unknown) =>
      authorized(HttpClientRequest.post(`${baseUrl}${path}`).pipe(HttpClientRequest.bodyText(JSON.stringify(body), "application/json")))

    /**
     * The verified entry of the address book for `chain` and `address` (Circle lists no entry
     * pending verification), read page by page (`pageSize`, `pageAfter`: the collection's own
     * cap may be lower) until it is found or a page is empty.
     */
    const listedEntry = (chain: string, address: string) =>
      Effect.gen(function*() {
        let after: string | undefined
        for (let page = 0; page < maxRecipientPages; page++) {
          const url = `${baseUrl}/v1/businessAccount/wallets/addresses/recipient?pageSize=${recipientPageSize}` +
            (after === undefined ? "" : `&pageAfter=${encodeURIComponent(after)}`)
          const { data } = yield* upstream.call("recipient.list", authorized(HttpClientRequest.get(url)), Wire.RecipientList)
          const found = data.find((r) => r.chain === chain && r.address === address)
          if (found !== undefined) return found
          const last = data.at(-1)?.id
          if (last === undefined || last === after) return undefined
          after = last
        }
        return undefined
      })

    const destination: NonNullable<SettlementPayoutProvider["destination"]> = (_environment, { address, chain }) =>
      Effect.gen(function*() {
        if (!chains.includes(chain)) {
          return yield* new SettlementPayoutRejected({ reason: `Circle does not pay on chain '${upstream.clip(chain)}' here (${chains.join(", ")})` })
        }
        const listed = yield* listedEntry(chain, address).pipe(Effect.mapError(unavailable))
        if (listed !== undefined) return approvalOf(listed, true)
        const body: Wire.RecipientBody = {
          idempotencyKey: yield* idempotencyKeyOf(`${chain}:${address}`, recipientNamespace),
          address,
          chain,
          currency: "USD",
          description: `Settlement payouts on ${chain}`
        }
        const created = yield* upstream.call("recipient.create", postJson("/v1/businessAccount/wallets/addresses/recipient", body), Wire.RecipientAnswer).pipe(
          Effect.mapError(refusedOr((error) => `Circle refused the address: ${error.message}`))
        )
        if (created.data.chain !== chain || created.data.address !== address) {
          return yield* new SettlementPayoutUnavailable({ reason: "Circle answered about another address" })
        }
        return approvalOf(created.data, false)
      }).pipe(Effect.withSpan("CirclePayouts.destination"))

    const send: SettlementPayoutProvider["send"] = (request) =>
      Effect.gen(function*() {
        const { chain, address } = request.destination
        if (!chains.includes(chain)) {
          return yield* new SettlementPayoutRejected({ reason: `Circle does not pay on chain '${upstream.clip(chain)}' here (${chains.join(", ")})` })
        }
        const amount = amountText(request.amountUsd)
        if (amount === undefined) {
          return yield* new SettlementPayoutRejected({ reason: "the amount must be positive with at most two decimals" })
        }
        if (options.walletId === "") {
          return yield* new SettlementPayoutUnavailable({ reason: "not_configured: Circle needs WALLET_ID" })
        }
        const travelRule = travelRuleApplies(chain, request.amountUsd)
        const originator = options.originator
        if (travelRule && (originator === undefined || originator === "unreadable")) {
          return yield* new SettlementPayoutUnavailable({
            reason: `not_configured: Circle's Travel Rule needs ORIGINATOR_IDENTITY (${originator === undefined ? "unset" : "not Circle's Identity JSON"}) ` +
              `for ${Wire.travelRuleThresholdUsd} USD or more on ${chain}`
          })
        }
        // Circle pays only to approved entries of the address book. Not approved (any more):
        // nothing is sent, and the engine asks again (an earlier ask may have sent it: a refusal
        // here could pay twice).
        const entry = yield* listedEntry(chain, address).pipe(Effect.mapError(unavailable))
        if (entry === undefined || approvalOf(entry, true).status !== "approved") {
          return yield* new SettlementPayoutUnavailable({
            reason: `destination_not_approved: the ${chain} address is not an approved entry of Circle's address book (the account's administrator approves it)`
          })
        }
        const body: Wire.BusinessTransferBody = {
          idempotencyKey: yield* idempotencyKeyOf(request.idempotencyKey),
          source: { type: "wallet", id: options.walletId, ...(travelRule && originator !== undefined && originator !== "unreadable" ? { identities: [originator] } : {}) },
          destination: { type: "verified_blockchain", addressId: entry.id },
          amount: { amount, currency: "USD" }
        }
        const created = yield* upstream.call("transfer.create", postJson("/v1/businessAccount/transfers", body), Wire.TransferAnswer).pipe(
          Effect.mapError(refusedOr((error) => error.message))
        )
        const transfer = created.data
        if (
          transfer.destination.address !== address || transfer.destination.chain !== chain ||
          transfer.amount.currency !== "USD" || !sameAmount(transfer.amount.amount, amount)
        ) {
          return yield* new SettlementPayoutUnavailable({ reason: "Circle answered about another transfer" })
        }
        // A retry is answered with the first answer: read the transfer as it stands now. The
        // first answer stands when the read fails (it is true, only older).
        const now = Wire.toStatus(transfer.status) === "pending"
          ? yield* read(transfer.id).pipe(Effect.orElseSucceed(() => transfer))
          : transfer
        return updateOf(now, request.batchId)
      }).pipe(Effect.withSpan("CirclePayouts.send"))

    const status: SettlementPayoutProvider["status"] = (providerRef) =>
      read(providerRef).pipe(
        Effect.map((transfer) => updateOf(transfer)),
        Effect.mapError(unavailable),
        Effect.withSpan("CirclePayouts.status")
      )

    const confirm = (url: string) =>
      http.execute(HttpClientRequest.get(url)).pipe(
        Effect.flatMap((response) => Effect.as(response.text, response.status)),
        Effect.timeout(Duration.millis(timeoutMs)),
        Effect.orElseSucceed(() => 0)
      )

    const verifyCallback: SettlementPayoutProvider["verifyCallback"] = (headers, rawBody) =>
      Effect.gen(function*() {
        const verdict = yield* sns.verify(rawBody)
        if (verdict._tag === "Refused") return yield* new CallbackRejected({ reason: verdict.reason })
        const envelope = verdict.envelope
        const said = headers["x-amz-sns-message-type"]
        if (said !== undefined && said !== envelope.Type) return yield* new CallbackRejected({ reason: "x-amz-sns-message-type does not match Type" })
        if (envelope.Type === "SubscriptionConfirmation") {
          const url = envelope.SubscribeURL ?? ""
          if (!sns.trustedSubscribeUrl(url)) return yield* new CallbackRejected({ reason: "untrusted SubscribeURL" })
          const answered = yield* confirm(url)
          if (answered !== 200) return yield* new CallbackRejected({ reason: "the subscription could not be confirmed" })
          return []
        }
        if (envelope.Type !== "Notification") return []
        const message = decodeNotification(envelope.Message)
        if (Option.isNone(message)) return yield* new CallbackRejected({ reason: "unreadable Message" })
        const transfer = message.value.transfer
        if (message.value.notificationType !== "transfers" || transfer === undefined) return []
        const now = yield* read(transfer.id).pipe(
          Effect.mapError((error) => new CallbackRejected({ reason: `the transfer could not be read: ${error.code}` }))
        )
        return [updateOf(now)]
      }).pipe(
        Effect.catchDefect(() => Effect.fail(new CallbackRejected({ reason: "unreadable callback" }))),
        Effect.withSpan("CirclePayouts.verifyCallback")
      )

    return {
      id: options.id,
      environments: [options.environment],
      chains,
      send,
      status,
      destination,
      verifyCallback
    } satisfies SettlementPayoutProvider
  })

/**
 * `ORIGINATOR_IDENTITY`, Circle's `Identity` as JSON: `undefined` when unset, `"unreadable"` when
 * it is not that JSON (a Travel Rule transfer then waits, `not_configured`, naming the variable).
 */
export const originatorOf = (text: string | undefined): Wire.Identity | "unreadable" | undefined =>
  text === undefined || text.trim() === "" ? undefined : Option.getOrElse(decodeIdentity(text), () => "unreadable" as const)

/** The settlement payout provider of a configured Circle account. */
export const fromSettings = (settings: ConnectorSettings) =>
  make({
    id: settings.id,
    environment: settings.environment,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    // Required by `settlementConnector.secrets`; an embedding that builds settings without it gets
    // a provider Circle refuses (unavailable, never a refused batch) instead of a crash.
    apiKey: settings.secrets["API_KEY"] ?? Redacted.make(""),
    walletId: settings.values["WALLET_ID"] ?? "",
    chains: settings.values["CHAINS"]?.split(",").map((c) => c.trim()).filter((c) => c !== ""),
    snsCertUrlPrefix: settings.values["SNS_CERT_URL_PREFIX"],
    snsTopicArn: settings.values["SNS_TOPIC_ARN"],
    originator: originatorOf(settings.values["ORIGINATOR_IDENTITY"])
  })

/**
 * How a host configures this connector (`CONNECTORS=<id>=circle`, see the README): the API key
 * secret, the wallet (required), the chains and SNS settings (optional). Settlement payouts only:
 * no pay-in or payout plugin.
 */
export const settlementConnector = {
  kind: "circle",
  secrets: ["API_KEY"],
  requiredSettings: ["WALLET_ID"],
  settings: ["CHAINS", "SNS_CERT_URL_PREFIX", "SNS_TOPIC_ARN", "ORIGINATOR_IDENTITY"],
  settlementPayoutProvider: (settings: ConnectorSettings): Effect.Effect<SettlementPayoutProvider, never, HttpClient.HttpClient> =>
    fromSettings(settings)
} as const satisfies Connector

export const CirclePayouts = { make, fromSettings, idempotencyKeyOf, amountText, travelRuleApplies, originatorOf, settlementConnector }
