/**
 * Circle's transfer API and address book in miniature (`Wire.ts`), on `SimulatorServer`: what the settlement
 * payout connector and Circle's own Node SDK are tested against over real sockets. Test tooling,
 * never imported by the plugin.
 *
 * - Authentication: `Authorization: Bearer <the API key>` on every `/v1` call, else `401
 *   { code: 401, message: "Malformed authorization. ..." }` (the SDK's `NotAuthorized` example;
 *   the message echoes the header it got, as careless APIs do, so scrubbing is tested).
 * - `POST /v1/businessAccount/transfers` `{ idempotencyKey, source?, destination: { type:
 *   "verified_blockchain", addressId }, amount }` -> `201 { data: transfer }` (its destination
 *   the entry's `blockchain` address): an `addressId` not in the address book (`SimulatorAddressBook.ts`)
 *   or not yet `active` is `400 { code: 2 }`. `GET /v1/businessAccount/transfers/{id}` reads it.
 * - Circle Mint pays only to verified recipient addresses: `POST /v1/transfers` to a
 *   `blockchain` address that is no `active` entry of the address book is refused the same way.
 * - Travel Rule (https://developers.circle.com/circle-mint/travel-rule-on-chain): a transfer of
 *   3,000 USD or more to a blockchain on a chain of `Wire.travelRuleChains` without
 *   `source.identities` (Circle's `Identity`) is created `failed`, `errorCode: "transfer_denied"`,
 *   `riskEvaluation: { decision: "denied", reason: "3220" }`, as the page says Circle answers.
 * - `POST /v1/transfers` -> `201 { data: transfer }` `pending`. Refused with `400 { code: 2,
 *   message: "Invalid entity. ...", errors: [{ error, location, message }] }` (Circle's
 *   documented error shape): an `idempotencyKey` that is not a UUID v4, a source that is not this
 *   account's wallet, a chain outside the SDK's `Chain` enum, a malformed address for the chain
 *   (EVM chains `0x` + 40 hex, SOL base58 of 32 to 44 characters, others any 20 to 128 printable
 *   characters), an amount that is not decimal text with at most two decimals, or not positive.
 * - Idempotency: the same `idempotencyKey` with the same body answers the first answer again
 *   (Circle: "produce the same result as the initial request"); with another body `409 { code:
 *   409, message: "Conflicts with another request." }` (the SDK's `Conflict`: "re-using an
 *   idempotencyKey for a different request").
 * - `GET /v1/transfers/{id}` -> `200 { data }` or `404 { code: 404, message: "Not found." }`;
 *   `GET /v1/transfers` lists them (`{ data: [...] }`, newest first).
 * - Modes: `ok`, `unavailable` (`503 { code: -1, message: "Something went wrong" }`), `slow` (the
 *   transfer IS created, the answer leaves after `slowMs`: a lost answer). Settlement: transfers
 *   stay `pending` until `complete(id, txHash?)` or `fail(id, errorCode)`, or, with
 *   `setAutoComplete(ms)`, complete on their own that long after creation.
 * - Notifications: `subscribe(url)` sends an SNS `SubscriptionConfirmation` (its `SubscribeURL` is
 *   on this server; `confirmations` counts the visits); then each created, completed or failed
 *   transfer is sent as an SNS `Notification` whose `Message` is `{ clientId, notificationType:
 *   "transfers", version: 1, transfer }`, signed with the simulator's key (`SimulatorSns.ts`,
 *   `SignatureVersion` 2 by default, `setSignatureVersion`). The certificate and the
 *   `SubscribeURL` are served by a second local server standing for SNS's host (`certUrlPrefix`);
 *   the connector trusts it through `SNS_CERT_URL_PREFIX`.
 */
import { Effect, type Scope } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { type Answer, idempotencyMemo, type SentCallback, serve, type SimulatorRequest } from "../kit/SimulatorServer.ts"
import { makeAddressBook, type SimulatedRecipient } from "./SimulatorAddressBook.ts"
import { makeSigner, messageId, serveSns, type SignatureVersion } from "./SimulatorSns.ts"
import { addressFits, error, invalid, isIdentities, isRecord, uuidV4 } from "./SimulatorRules.ts"
import * as Wire from "./Wire.ts"

export type Mode = "ok" | "unavailable" | "slow"

export const topicArn = "arn:aws:sns:us-west-2:908968368384:sandbox_platform-notifications-topic"
export const clientId = "c60d2d5b-203c-45bb-9f6e-93641d40a599"
/** Where the certificate is served, under the simulator's base URL. */
export const certPath = "/SimpleNotificationService-simulator.pem"

export interface SimulatedTransfer {
  readonly id: string
  readonly idempotencyKey: string
  readonly source: Record<string, unknown>
  readonly destination: Record<string, unknown>
  readonly amount: { readonly amount: string; readonly currency: string }
  /** The raw body of the request that created it. */
  readonly rawBody: string
  readonly createDate: string
  status: "pending" | "complete" | "failed" | string
  transactionHash: string | undefined
  errorCode: string | undefined
  /** Circle's risk verdict on a transfer it denied (the Travel Rule: `{ decision: "denied", reason: "3220" }`). */
  readonly riskEvaluation?: { readonly decision: string; readonly reason: string } | undefined
}

export interface CircleSimulator {
  readonly baseUrl: string
  /** The URL prefix the connector is told to trust (`SNS_CERT_URL_PREFIX`). */
  readonly certUrlPrefix: string
  readonly certificatePem: string
  readonly transfers: ReadonlyMap<string, SimulatedTransfer>
  /** The address book (`SimulatorAddressBook.ts`), by id. */
  readonly recipients: ReadonlyMap<string, SimulatedRecipient>
  /** The administrator approves (`active`) or denies (`denied`) an address book entry. */
  readonly approveAddress: (id: string) => Effect.Effect<void>
  readonly denyAddress: (id: string) => Effect.Effect<void>
  /** New address book entries are `active` at once (as the API reference's example answers). */
  readonly setAutoApprove: (auto: boolean) => Effect.Effect<void>
  /** `Authorization` headers of every `/v1` call, with whether they were accepted. */
  readonly calls: ReadonlyArray<{ readonly method: string; readonly path: string; readonly authorization: string | undefined; readonly accepted: boolean }>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  readonly confirmations: () => number
  /** How many times the certificate was fetched. */
  readonly certificateFetches: () => number
  readonly setMode: (mode: Mode) => Effect.Effect<void>
  readonly setAutoComplete: (ms: number | undefined) => Effect.Effect<void>
  readonly setSignatureVersion: (version: SignatureVersion) => Effect.Effect<void>
  readonly complete: (id: string, transactionHash?: string) => Effect.Effect<void>
  readonly fail: (id: string, errorCode: string) => Effect.Effect<void>
  /** Any status, even one Circle never documented. */
  readonly setStatus: (id: string, status: string) => Effect.Effect<void>
  readonly subscribe: (url: string) => Effect.Effect<void>
  readonly dropCallbacks: (drop: boolean) => Effect.Effect<void>
  /** An SNS message about `transfer` as the simulator signs it (the body text), without sending it. */
  readonly notificationBody: (id: string) => string
  /** The headers SNS sends with a message of `type`. */
  readonly snsHeaders: (body: string) => Record<string, string>
}

export interface Credentials {
  readonly apiKey: string
  readonly walletId: string
}


export const start = (
  credentials: Credentials,
  options: { readonly slowMs?: number | undefined } = {}
): Effect.Effect<CircleSimulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const transfers = new Map<string, SimulatedTransfer>()
    const calls: Array<{ method: string; path: string; authorization: string | undefined; accepted: boolean }> = []
    const signer = makeSigner()
    const memo = idempotencyMemo(error(409, 409, "Conflicts with another request."))
    const book = makeAddressBook({ uuidV4, addressFits, invalid, notFound: error(404, 404, "Not found.") })
    let mode: Mode = "ok"
    let autoCompleteMs: number | undefined
    let version: SignatureVersion = "2"
    let subscriber: string | undefined
    let dropping = false
    let confirmations = 0
    let certificateFetches = 0
    let post: (url: string, headers: Record<string, string>, body: string, drop: boolean) => Promise<void> = async () => {}

    const view = (t: SimulatedTransfer) => ({
      id: t.id,
      source: t.source,
      destination: t.destination,
      amount: t.amount,
      ...(t.transactionHash === undefined ? {} : { transactionHash: t.transactionHash }),
      status: t.status,
      ...(t.errorCode === undefined ? {} : { errorCode: t.errorCode }),
      ...(t.riskEvaluation === undefined ? {} : { riskEvaluation: t.riskEvaluation }),
      createDate: t.createDate
    })

    const snsHeaders = (body: string): Record<string, string> => {
      const parsed = JSON.parse(body) as Record<string, string>
      return {
        "content-type": "text/plain; charset=UTF-8",
        "x-amz-sns-message-type": parsed["Type"] ?? "",
        "x-amz-sns-message-id": parsed["MessageId"] ?? "",
        "x-amz-sns-topic-arn": parsed["TopicArn"] ?? ""
      }
    }

    const notificationBody = (id: string) => {
      const transfer = transfers.get(id)
      if (transfer === undefined) throw new Error(`simulator: no transfer '${id}'`)
      const message = JSON.stringify({ clientId, notificationType: "transfers", version: 1, transfer: view(transfer) })
      return JSON.stringify(signer.sign({
        Type: "Notification",
        MessageId: messageId(),
        TopicArn: topicArn,
        Message: message,
        Timestamp: new Date().toISOString(),
        UnsubscribeURL: `${snsUrl}/?Action=Unsubscribe&SubscriptionArn=${topicArn}:sim`
      }, version, `${snsUrl}${certPath}`))
    }

    const notify = async (id: string) => {
      if (subscriber === undefined) return
      const body = notificationBody(id)
      await post(subscriber, snsHeaders(body), body, dropping)
    }

    /** `POST /v1/transfers` (`business` false) or `POST /v1/businessAccount/transfers` (true). */
    const create = (raw: string, business: boolean): Answer => {
      let input: unknown
      try {
        input = JSON.parse(raw)
      } catch {
        return error(400, 2, "Invalid entity. The body is not JSON.")
      }
      if (!isRecord(input)) return error(400, 2, "Invalid entity.")
      const { amount, idempotencyKey } = input
      const { destination } = input
      let { source } = input
      if (typeof idempotencyKey !== "string" || !uuidV4.test(idempotencyKey)) {
        return invalid("idempotencyKey", "pattern_mismatch", "idempotencyKey must be a UUID v4")
      }
      // A business-account transfer comes from the account's wallet; `source` is optional there.
      if (business && source === undefined) source = { type: "wallet", id: credentials.walletId }
      if (!isRecord(source) || source["type"] !== "wallet" || typeof source["id"] !== "string") {
        return invalid("source", "required", "source must be { type: \"wallet\", id }")
      }
      if (source["id"] !== credentials.walletId) return invalid("source.id", "invalid_value", "source.id is not a wallet of this account")
      if (!isRecord(destination)) return invalid("destination", "required", "destination may not be null")
      let paid: Record<string, unknown> = destination
      if (business) {
        // Circle Mint pays only to an entry of the address book its administrator verified.
        if (destination["type"] !== "verified_blockchain" || typeof destination["addressId"] !== "string") {
          return invalid("destination.type", "invalid_value", "destination must be { type: \"verified_blockchain\", addressId }")
        }
        const recipient = book.recipients.get(destination["addressId"])
        if (recipient === undefined) return invalid("destination.addressId", "invalid_value", "destination.addressId is not a recipient address of this account")
        if (recipient.status !== "active") {
          return invalid("destination.addressId", "invalid_value", `the recipient address is not verified (${recipient.status})`)
        }
        paid = { type: "blockchain", address: recipient.address, chain: recipient.chain }
      } else if (destination["type"] === "blockchain") {
        const chain = destination["chain"]
        const address = destination["address"]
        if (typeof chain !== "string" || !(Wire.chains as ReadonlyArray<string>).includes(chain)) {
          return invalid("destination.chain", "invalid_value", `destination.chain must be one of ${Wire.chains.join(", ")}`)
        }
        if (typeof address !== "string" || !addressFits(chain, address)) {
          return invalid("destination.address", "pattern_mismatch", `destination.address is not a ${chain} address`)
        }
        // Circle Mint sends only to recipient addresses its administrator verified.
        if (![...book.recipients.values()].some((r) => r.chain === chain && r.address === address && r.status === "active")) {
          return invalid("destination.address", "invalid_value", "destination.address is not a verified recipient address of this account")
        }
      } else if (destination["type"] !== "wallet" || typeof destination["id"] !== "string") {
        return invalid("destination.type", "invalid_value", "destination.type must be blockchain or wallet")
      }
      if (!isRecord(amount) || typeof amount["amount"] !== "string" || !/^\d+(\.\d{1,2})?$/.test(amount["amount"])) {
        return invalid("amount.amount", "number_format", "amount.amount must be decimal text with at most two decimals")
      }
      if (!(Number(amount["amount"]) > 0)) return invalid("amount.amount", "min_value", "amount.amount must be greater than 0")
      if (amount["currency"] !== "USD" && amount["currency"] !== "EUR") {
        return invalid("amount.currency", "invalid_value", "amount.currency must be USD or EUR")
      }
      // The Travel Rule: 3,000 USD or more to a blockchain on a Travel Rule chain without the
      // originator's identity fails (a webhook with status failed, riskEvaluation denied, 3220).
      const denied = paid["type"] === "blockchain" && Wire.travelRuleChains.includes(String(paid["chain"])) &&
        Number(amount["amount"]) >= Wire.travelRuleThresholdUsd && !isIdentities(source["identities"])
      const transfer: SimulatedTransfer = {
        id: randomUUID(),
        idempotencyKey,
        source,
        destination: paid,
        amount: { amount: amount["amount"], currency: amount["currency"] },
        rawBody: raw,
        createDate: new Date().toISOString(),
        status: denied ? "failed" : "pending",
        transactionHash: undefined,
        errorCode: denied ? "transfer_denied" : undefined,
        riskEvaluation: denied ? { decision: "denied", reason: "3220" } : undefined
      }
      transfers.set(transfer.id, transfer)
      void notify(transfer.id)
      if (autoCompleteMs !== undefined && !denied) server.later(autoCompleteMs, () => void Effect.runPromise(complete(transfer.id)))
      return { status: 201, body: { data: view(transfer) } }
    }

    /** The request's `idempotencyKey`, when its body is JSON with one. */
    const keyOf = (body: string) => {
      try {
        const parsed = JSON.parse(body) as unknown
        return isRecord(parsed) && typeof parsed["idempotencyKey"] === "string" ? parsed["idempotencyKey"] : undefined
      } catch {
        return undefined
      }
    }
    const once = (space: string, req: SimulatorRequest, run: () => Answer): Answer & { readonly key?: string } => {
      const key = keyOf(req.body)
      return key === undefined ? run() : { ...memo(space, key, req.body, run), key }
    }
    const recipientPath = "/v1/businessAccount/wallets/addresses/recipient"

    const route = (req: SimulatorRequest): Answer & { readonly key?: string } => {
      if (req.method === "POST" && req.path === "/v1/transfers") return once("transfers", req, () => create(req.body, false))
      if (req.method === "POST" && req.path === "/v1/businessAccount/transfers") return once("businessTransfers", req, () => create(req.body, true))
      if (req.method === "POST" && req.path === recipientPath) {
        return once("recipients", req, () => {
          try {
            const input = JSON.parse(req.body) as unknown
            return isRecord(input) ? book.create(input) : error(400, 2, "Invalid entity.")
          } catch {
            return error(400, 2, "Invalid entity. The body is not JSON.")
          }
        })
      }
      if (req.method === "GET" && req.path === recipientPath) return book.list(req.query)
      if (req.method === "DELETE" && req.path.startsWith(`${recipientPath}/`)) return book.remove(decodeURIComponent(req.path.slice(recipientPath.length + 1)))
      if (req.method === "GET" && (req.path === "/v1/transfers" || req.path === "/v1/businessAccount/transfers")) {
        const wallet = req.query.get("walletId") ?? req.query.get("sourceWalletId")
        const list = [...transfers.values()].filter((t) => wallet === null || t.source["id"] === wallet).reverse()
        return { status: 200, body: { data: list.map(view) } }
      }
      const match = /^\/v1\/(?:businessAccount\/)?transfers\/([^/]+)$/.exec(req.path)
      if (req.method === "GET" && match !== null) {
        const found = transfers.get(decodeURIComponent(match[1]!))
        return found === undefined ? error(404, 404, "Not found.") : { status: 200, body: { data: view(found) } }
      }
      return error(404, 404, "Not found.")
    }

    // SNS is another host than Circle's API: its own small server (`SimulatorSns.ts`).
    const snsUrl = yield* serveSns(signer.certificatePem, certPath, {
      certificate: () => void certificateFetches++,
      confirmation: () => void confirmations++
    })

    const server = yield* serve((req) => {
      const authorization = req.headers["authorization"]
      const accepted = authorization === `Bearer ${credentials.apiKey}`
      calls.push({ method: req.method, path: req.path, authorization, accepted })
      if (!accepted) {
        return { authorized: false, answer: error(401, 401, `Malformed authorization. Got: ${authorization ?? "nothing"}`) }
      }
      if (mode === "unavailable") return { authorized: true, answer: error(503, -1, "Something went wrong") }
      const answer = route(req)
      return {
        authorized: true,
        idempotencyKey: answer.key,
        answer: { status: answer.status, body: answer.body },
        delayMs: mode === "slow" && req.method === "POST" ? options.slowMs ?? 1_500 : 0
      }
    })
    post = (url, headers, body, drop) => server.sendCallback(url, headers, body, { drop })

    const move = (id: string, f: (t: SimulatedTransfer) => void) =>
      Effect.promise(async () => {
        const transfer = transfers.get(id)
        if (transfer === undefined) throw new Error(`simulator: no transfer '${id}'`)
        f(transfer)
        await notify(id)
      })

    const complete = (id: string, transactionHash?: string) =>
      move(id, (t) => {
        t.status = "complete"
        t.transactionHash = transactionHash ?? `0x${randomBytes(32).toString("hex")}`
        t.errorCode = undefined
      })

    return {
      baseUrl: server.baseUrl,
      certUrlPrefix: `${snsUrl}/`,
      certificateFetches: () => certificateFetches,
      certificatePem: signer.certificatePem,
      transfers,
      recipients: book.recipients,
      approveAddress: (id) => Effect.sync(() => book.decide(id, "active")),
      denyAddress: (id) => Effect.sync(() => book.decide(id, "denied")),
      setAutoApprove: (auto) => Effect.sync(() => book.setAutoApprove(auto)),
      calls,
      callbacksSent: server.callbacksSent,
      confirmations: () => confirmations,
      setMode: (next) => Effect.sync(() => void (mode = next)),
      setAutoComplete: (ms) => Effect.sync(() => void (autoCompleteMs = ms)),
      setSignatureVersion: (next) => Effect.sync(() => void (version = next)),
      complete,
      fail: (id, errorCode) =>
        move(id, (t) => {
          t.status = "failed"
          t.errorCode = errorCode
        }),
      setStatus: (id, status) => move(id, (t) => void (t.status = status)),
      subscribe: (url) =>
        Effect.promise(async () => {
          subscriber = url
          const token = randomBytes(64).toString("hex")
          const body = JSON.stringify(signer.sign({
            Type: "SubscriptionConfirmation",
            MessageId: messageId(),
            Token: token,
            TopicArn: topicArn,
            Message: `You have chosen to subscribe to the topic ${topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
            SubscribeURL: `${snsUrl}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topicArn)}&Token=${token}`,
            Timestamp: new Date().toISOString()
          }, version, `${snsUrl}${certPath}`))
          await post(url, snsHeaders(body), body, dropping)
        }),
      dropCallbacks: (drop) => Effect.sync(() => void (dropping = drop)),
      notificationBody,
      snsHeaders
    } satisfies CircleSimulator
  })

export const CircleSimulator = { start, topicArn, clientId, certPath, addressFits }
