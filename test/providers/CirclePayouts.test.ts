/**
 * The Circle settlement payout connector against its simulator over real sockets: the transfer
 * Circle receives, retries after a lost answer, the status map, refusals, secrets that never leak
 * and SNS notification verification.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Cause, Effect, Exit, Redacted, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { inspect } from "node:util"
import { X509Certificate } from "node:crypto"
import type { SettlementPayoutRequest } from "../../core/ports/SettlementPayoutProvider.ts"
import { type CircleOptions, idempotencyKeyOf, make, originatorOf, settlementConnector, travelRuleApplies } from "../../providers/circle/CirclePayouts.ts"
import { CircleSimulator } from "../../providers/circle/CircleSimulator.ts"
import * as Wire from "../../providers/circle/Wire.ts"
import { withSecretScrub } from "../support/SecretScrub.ts"
import * as Docs from "./fixtures/circle/docs.ts"

const credentials = { apiKey: "SAND_API_KEY:7f3c9a1b2d4e:5c8e1f0a9b7d6c3e", walletId: "12345" }
const address = "0x8381470ED67C3802402dbbFa0058E8871F017A6F"

const optionsFor = (sim: { readonly baseUrl: string; readonly certUrlPrefix: string }, overrides: Partial<CircleOptions> = {}): CircleOptions => ({
  id: "circle",
  environment: "sandbox",
  baseUrl: sim.baseUrl,
  apiKey: Redacted.make(credentials.apiKey),
  walletId: credentials.walletId,
  snsCertUrlPrefix: sim.certUrlPrefix,
  timeoutMs: 2_000,
  ...overrides
})

const batch = (batchId: string, overrides: Partial<SettlementPayoutRequest> = {}): SettlementPayoutRequest => ({
  batchId,
  idempotencyKey: `${batchId}:circle`,
  environment: "sandbox",
  amountUsd: BigDecimal.fromStringUnsafe("1234.5"),
  destination: { chain: "ETH", address },
  ...overrides
})

const errorOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined) as { _tag?: string; reason?: string }

/** A connector on a simulator whose address book holds `address` on ETH, approved; `calls` start empty. */
const setup = (overrides: Partial<CircleOptions> = {}, simOptions: { readonly slowMs?: number } = {}) =>
  Effect.gen(function*() {
    const sim = yield* CircleSimulator.start(credentials, simOptions)
    const provider = yield* make(optionsFor(sim, overrides))
    yield* sim.setAutoApprove(true)
    yield* provider.destination!("sandbox", { chain: "ETH", address })
    yield* sim.setAutoApprove(false)
    ;(sim.calls as Array<unknown>).length = 0
    return { sim, provider }
  })

const entryOf = (sim: CircleSimulator, chain: string, addr: string) => [...sim.recipients.values()].find((r) => r.chain === chain && r.address === addr)

describe("Circle settlement payout connector", () => {
  it.live("sends a USD business-account transfer to the address book entry of the address: decimal text with two decimals, a UUID v4 key derived from the engine's key", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const sent = yield* provider.send(batch("STL-1"))
      assert.deepStrictEqual(sent, { providerRef: sent.providerRef, batchId: "STL-1", status: "pending", transactionHash: undefined, detail: undefined })
      const upstream = sim.transfers.get(sent.providerRef)!
      const body = JSON.parse(upstream.rawBody)
      assert.deepStrictEqual(body, {
        idempotencyKey: yield* idempotencyKeyOf("STL-1:circle"),
        source: { type: "wallet", id: "12345" },
        destination: { type: "verified_blockchain", addressId: entryOf(sim, "ETH", address)!.id },
        amount: { amount: "1234.50", currency: "USD" }
      })
      assert.deepStrictEqual(sim.calls.map((c) => `${c.method} ${c.path}`).slice(0, 2), [
        "GET /v1/businessAccount/wallets/addresses/recipient",
        "POST /v1/businessAccount/transfers"
      ])
      assert.match(body.idempotencyKey, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      assert.notStrictEqual(yield* idempotencyKeyOf("STL-2:circle"), body.idempotencyKey)
      assert.isTrue(sim.calls.every((c) => c.authorization === `Bearer ${credentials.apiKey}`))
      assert.deepStrictEqual(provider.chains, Wire.chains)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("a retry after a lost answer is the same transfer, reported as it stands now", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, { slowMs: 1_000 })
      yield* sim.setMode("slow")
      const lost = yield* Effect.exit(provider.send(batch("STL-lost")))
      assert.strictEqual(errorOf(lost)._tag, "SettlementPayoutUnavailable")
      assert.include(errorOf(lost).reason, "timeout")
      assert.strictEqual(sim.transfers.size, 1)
      const [created] = [...sim.transfers.values()]
      yield* sim.setMode("ok")
      yield* sim.complete(created!.id, "0xabc123")
      const again = yield* provider.send(batch("STL-lost"))
      assert.strictEqual(sim.transfers.size, 1)
      assert.deepStrictEqual([again.providerRef, again.status, again.transactionHash], [created!.id, "complete", "0xabc123"])
      const posts = sim.calls.filter((c) => c.method === "POST" && c.path === "/v1/businessAccount/transfers")
      assert.strictEqual(posts.length, 2)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("status: complete with its hash, failed with Circle's errorCode, anything else pending", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const a = yield* provider.send(batch("STL-a"))
      const b = yield* provider.send(batch("STL-b"))
      const c = yield* provider.send(batch("STL-c"))
      yield* sim.complete(a.providerRef, "0x4cebf8f90c9243a23c77e4ae20df691469e4b933b295a73376292843968f7a63")
      yield* sim.fail(b.providerRef, "insufficient_funds")
      yield* sim.setStatus(c.providerRef, "under_review")
      assert.deepStrictEqual(yield* provider.status(a.providerRef), {
        providerRef: a.providerRef,
        batchId: undefined,
        status: "complete",
        transactionHash: "0x4cebf8f90c9243a23c77e4ae20df691469e4b933b295a73376292843968f7a63",
        detail: undefined
      })
      const failed = yield* provider.status(b.providerRef)
      assert.deepStrictEqual([failed.status, failed.detail], ["failed", "insufficient_funds"])
      assert.strictEqual((yield* provider.status(c.providerRef)).status, "pending")
      const missing = yield* Effect.exit(provider.status("5a1a5d4e-0000-4000-8000-000000000000"))
      assert.strictEqual(errorOf(missing)._tag, "SettlementPayoutUnavailable")
      assert.deepStrictEqual(
        ["pending", "complete", "failed", "COMPLETE", "running", ""].map(Wire.toStatus),
        ["pending", "complete", "failed", "pending", "pending", "pending"]
      )
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("refusals: an unknown chain or a third decimal before any call, an address Circle refuses for its address book; a maybe is never a refusal", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const chain = yield* Effect.exit(provider.send(batch("STL-r1", { destination: { chain: "MATIC", address } })))
      const cents = yield* Effect.exit(provider.send(batch("STL-r2", { amountUsd: BigDecimal.fromStringUnsafe("10.005") })))
      const zero = yield* Effect.exit(provider.send(batch("STL-r3", { amountUsd: BigDecimal.fromStringUnsafe("0") })))
      assert.strictEqual(sim.calls.length, 0)
      const badAddress = yield* Effect.exit(provider.destination!("sandbox", { chain: "ETH", address: "0x1234" }))
      for (const exit of [chain, cents, zero, badAddress]) assert.strictEqual(errorOf(exit)._tag, "SettlementPayoutRejected")
      assert.include(errorOf(badAddress).reason, "address")
      // An address that is no approved entry: nothing is sent, and it is not a refusal (an
      // earlier ask may have sent it).
      const notEntered = yield* Effect.exit(provider.send(batch("STL-r4", { destination: { chain: "ETH", address: "0x0000000000000000000000000000000000000001" } })))
      assert.strictEqual(errorOf(notEntered)._tag, "SettlementPayoutUnavailable")
      assert.include(errorOf(notEntered).reason, "destination_not_approved")
      assert.strictEqual(sim.transfers.size, 0)

      // The same batch key with another body: Circle's 409. A transfer may exist: never a refusal.
      yield* provider.send(batch("STL-r5"))
      const conflict = yield* Effect.exit(provider.send(batch("STL-r5", { amountUsd: BigDecimal.fromStringUnsafe("1") })))
      assert.strictEqual(errorOf(conflict)._tag, "SettlementPayoutUnavailable")
      assert.include(errorOf(conflict).reason, "idempotency_conflict")

      yield* sim.setMode("unavailable")
      assert.strictEqual(errorOf(yield* Effect.exit(provider.send(batch("STL-r6"))))._tag, "SettlementPayoutUnavailable")
      yield* sim.setMode("ok")
      const wrongKey = yield* make(optionsFor(sim, { apiKey: Redacted.make("SAND_API_KEY:wrong:wrong") }))
      const refused = yield* Effect.exit(wrongKey.send(batch("STL-r7")))
      assert.strictEqual(errorOf(refused)._tag, "SettlementPayoutUnavailable")
      assert.include(errorOf(refused).reason, "invalid_credentials")
      assert.strictEqual(sim.transfers.size, 1)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("the API key never appears in errors, log lines or the provider, even when Circle echoes it", () =>
    withSecretScrub([credentials.apiKey, "5c8e1f0a9b7d6c3e"], (scrub) =>
      Effect.gen(function*() {
        const sim = yield* CircleSimulator.start(credentials, { slowMs: 1_000 })
        const options = optionsFor(sim, { timeoutMs: 300 })
        const provider = yield* make(options)
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
        // A key Circle refuses: the 401 echoes the header it got, which holds the key.
        const stale = yield* make({ ...options, apiKey: Redacted.make(credentials.apiKey + "-old") })
        yield* scrub.failed(yield* Effect.exit(stale.send(batch("STL-leak-0"))))
        yield* scrub.failed(yield* Effect.exit(stale.status("x")))
        for (const mode of ["slow", "unavailable"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(provider.send(batch(`STL-leak-${mode}`))))
        }
        yield* sim.setMode("ok")
        yield* scrub.failed(yield* Effect.exit(provider.send(batch("STL-leak-addr", { destination: { chain: "ETH", address: credentials.apiKey } }))))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ authorization: credentials.apiKey }, "{}")))
      })).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("the simulator's certificate is a real X.509 certificate of its signing key", () =>
    Effect.gen(function*() {
      const sim = yield* CircleSimulator.start(credentials)
      const certificate = new X509Certificate(sim.certificatePem)
      assert.isTrue(certificate.verify(certificate.publicKey))
      assert.strictEqual(certificate.publicKey.asymmetricKeyType, "rsa")
    }))
})

describe("Circle notifications (AWS SNS)", () => {
  it.live("a signed transfer notification (SignatureVersion 2 and 1) reports the transfer as Circle has it now; the certificate is fetched once", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const sent = yield* provider.send(batch("STL-n1"))
      const pendingBody = sim.notificationBody(sent.providerRef)
      yield* sim.dropCallbacks(true)
      yield* sim.complete(sent.providerRef, "0xfeed")
      const headers = sim.snsHeaders(pendingBody)
      // The notification said pending; Circle now says complete: the connector reports now.
      const [update] = yield* provider.verifyCallback(headers, pendingBody)
      assert.deepStrictEqual(update, { providerRef: sent.providerRef, batchId: undefined, status: "complete", transactionHash: "0xfeed", detail: undefined })
      yield* sim.setSignatureVersion("1")
      const v1 = sim.notificationBody(sent.providerRef)
      assert.strictEqual(JSON.parse(v1).SignatureVersion, "1")
      assert.strictEqual((yield* provider.verifyCallback(sim.snsHeaders(v1), v1))[0]?.status, "complete")
      assert.strictEqual(sim.certificateFetches(), 1)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("tampered, unsigned, of another version, or with a certificate URL that is not trusted: rejected, nothing fetched from there", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const sent = yield* provider.send(batch("STL-n2"))
      const body = sim.notificationBody(sent.providerRef)
      const envelope = JSON.parse(body) as Record<string, string>
      const headers = sim.snsHeaders(body)
      const message = JSON.parse(envelope["Message"]!)
      const rejected = (text: string) =>
        Effect.exit(provider.verifyCallback(headers, text)).pipe(Effect.map((exit) => [errorOf(exit)._tag, errorOf(exit).reason]))

      const tampered = JSON.stringify({ ...envelope, Message: JSON.stringify({ ...message, transfer: { ...message.transfer, id: "another" } }) })
      assert.deepStrictEqual(yield* rejected(tampered), ["CallbackRejected", "bad signature"])
      const { Signature: _s, ...unsigned } = envelope
      assert.deepStrictEqual(yield* rejected(JSON.stringify(unsigned)), ["CallbackRejected", "not an SNS message"])
      assert.deepStrictEqual(yield* rejected(JSON.stringify({ ...envelope, Signature: "" })), ["CallbackRejected", "unreadable Signature"])
      assert.deepStrictEqual(yield* rejected(JSON.stringify({ ...envelope, SignatureVersion: "3" })), ["CallbackRejected", "unsupported SignatureVersion"])
      // SignatureVersion 1 on a message signed with SHA-256: the hash is part of the signature.
      assert.deepStrictEqual(yield* rejected(JSON.stringify({ ...envelope, SignatureVersion: "1" })), ["CallbackRejected", "bad signature"])
      const fetchesBefore = sim.certificateFetches()
      const elsewhere = "http://127.0.0.1:9/SimpleNotificationService-simulator.pem"
      assert.deepStrictEqual(yield* rejected(JSON.stringify({ ...envelope, SigningCertURL: elsewhere })), ["CallbackRejected", "untrusted SigningCertURL"])
      assert.strictEqual(sim.certificateFetches(), fetchesBefore)

      // A prefix is matched by origin and path, not as text: `http://127.0.0.1` does not trust
      // `http://127.0.0.1.evil.invalid`.
      const loose = yield* make(optionsFor(sim, { snsCertUrlPrefix: "http://127.0.0.1" }))
      const lookalike = JSON.stringify({ ...envelope, SigningCertURL: "http://127.0.0.1.evil.invalid/SimpleNotificationService.pem" })
      const looseExit = yield* Effect.exit(loose.verifyCallback(headers, lookalike))
      assert.deepStrictEqual([errorOf(looseExit)._tag, errorOf(looseExit).reason], ["CallbackRejected", "untrusted SigningCertURL"])
      // Without the simulator's prefix, only https://sns.<region>.amazonaws.com/...pem is trusted.
      const strict = yield* make(optionsFor(sim, { snsCertUrlPrefix: undefined }))
      const strictExit = yield* Effect.exit(strict.verifyCallback(headers, body))
      assert.deepStrictEqual([errorOf(strictExit)._tag, errorOf(strictExit).reason], ["CallbackRejected", "untrusted SigningCertURL"])
      // A topic other than the one configured.
      const topic = yield* make(optionsFor(sim, { snsTopicArn: "arn:aws:sns:us-east-1:111111111111:other" }))
      const topicExit = yield* Effect.exit(topic.verifyCallback(headers, body))
      assert.deepStrictEqual([errorOf(topicExit)._tag, errorOf(topicExit).reason], ["CallbackRejected", "unexpected TopicArn"])
      assert.deepStrictEqual(yield* provider.verifyCallback(headers, body).pipe(Effect.map((u) => u.map((x) => x.providerRef))), [sent.providerRef])
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("a signed subscription confirmation is confirmed by visiting its SubscribeURL; a forged one is not", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      yield* sim.subscribe("https://engine.example/api/v1/providers/circle/settlement-callbacks")
      const sent = sim.callbacksSent[0]!
      assert.strictEqual(sent.headers["x-amz-sns-message-type"], "SubscriptionConfirmation")
      const forged = JSON.stringify({ ...JSON.parse(sent.body), SubscribeURL: "https://attacker.example/?Action=ConfirmSubscription" })
      assert.strictEqual(errorOf(yield* Effect.exit(provider.verifyCallback(sent.headers, forged)))._tag, "CallbackRejected")
      assert.strictEqual(sim.confirmations(), 0)
      assert.deepStrictEqual(yield* provider.verifyCallback(sent.headers, sent.body), [])
      assert.strictEqual(sim.confirmations(), 1)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("the documentation's transfer examples are read by the connector's schemas; a documented notification message is read", () =>
    Effect.gen(function*() {
      const decode = Schema.decodeUnknownSync(Wire.TransferAnswer)
      for (const example of [Docs.createTransferResponse, Docs.getTransferResponse, Docs.getTransferResponseTravelRule]) {
        const { data } = decode(example)
        assert.deepStrictEqual([data.id, data.status, Wire.toStatus(data.status), data.amount.amount], [
          "b8627ae8-732b-4d25-b947-1df8f4007a29",
          "pending",
          "pending",
          example.data.amount.amount
        ])
      }
      const message = Schema.decodeUnknownSync(Wire.Notification)(Docs.transferNotificationMessage)
      assert.strictEqual(message.transfer?.id, "b8627ae8-732b-4d25-b947-1df8f4007a29")
      assert.deepStrictEqual(Schema.decodeUnknownSync(Wire.TransferBody)(Docs.createTransferRequest).destination.chain, "ETH")
    }))

  it.live("the connector a host configures: API_KEY secret, WALLET_ID and SNS settings", () =>
    Effect.gen(function*() {
      const sim = yield* CircleSimulator.start(credentials)
      const provider = yield* settlementConnector.settlementPayoutProvider({
        id: "circle",
        environment: "sandbox",
        baseUrl: sim.baseUrl,
        timeoutMs: 2_000,
        secrets: { API_KEY: Redacted.make(credentials.apiKey) },
        values: { WALLET_ID: credentials.walletId, CHAINS: "ETH, SOL", SNS_CERT_URL_PREFIX: sim.certUrlPrefix }
      })
      assert.deepStrictEqual(provider.chains, ["ETH", "SOL"])
      yield* sim.setAutoApprove(true)
      const sol = { chain: "SOL", address: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV" }
      assert.strictEqual((yield* provider.destination!("sandbox", sol)).status, "approved")
      const sent = yield* provider.send(batch("STL-host", { destination: sol }))
      assert.strictEqual(sent.status, "pending")
      const base = yield* Effect.exit(provider.send(batch("STL-host-2", { destination: { chain: "BASE", address } })))
      assert.strictEqual(errorOf(base)._tag, "SettlementPayoutRejected")
      assert.deepStrictEqual([settlementConnector.kind, settlementConnector.secrets], ["circle", ["API_KEY"]])
      assert.include(settlementConnector.settings, "ORIGINATOR_IDENTITY")
    }).pipe(Effect.provide(FetchHttpClient.layer)))
  it.live("the address book: a destination is entered once, pending until the administrator approves it; pending or denied, nothing is sent", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const other = { chain: "ETH", address: "0x1111111111111111111111111111111111111111" }
      const first = yield* provider.destination!("sandbox", other)
      assert.deepInclude(first, { status: "pending", detail: "pending_verification" })
      const again = yield* provider.destination!("sandbox", other)
      assert.deepStrictEqual(again, first, "the same entry: Circle's idempotency key is derived from chain and address")
      assert.strictEqual([...sim.recipients.values()].filter((r) => r.address === other.address).length, 1)
      const creates = sim.calls.filter((c) => c.method === "POST" && c.path === "/v1/businessAccount/wallets/addresses/recipient")
      assert.strictEqual(creates.length, 2, "asked twice, answered once (same key, same body)")
      const pending = yield* Effect.exit(provider.send(batch("STL-ab1", { destination: other })))
      assert.strictEqual(errorOf(pending)._tag, "SettlementPayoutUnavailable")
      assert.include(errorOf(pending).reason, "destination_not_approved")
      assert.isFalse(sim.calls.some((c) => c.path === "/v1/businessAccount/transfers"), "nothing sent")
      yield* sim.approveAddress(first.reference!)
      assert.deepStrictEqual(yield* provider.destination!("sandbox", other), { status: "approved", reference: first.reference, detail: "active" })
      const paid = yield* provider.send(batch("STL-ab1", { destination: other }))
      assert.strictEqual(JSON.parse(sim.transfers.get(paid.providerRef)!.rawBody).destination.addressId, first.reference)
      yield* sim.denyAddress(first.reference!)
      assert.strictEqual((yield* provider.destination!("sandbox", other)).status, "pending", "Circle no longer lists it; its create answers as first")
      assert.strictEqual(errorOf(yield* Effect.exit(provider.send(batch("STL-ab2", { destination: other }))))._tag, "SettlementPayoutUnavailable")
      assert.strictEqual(sim.transfers.size, 1)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("an entry past the list's first pages is found: the connector reads page after page (the simulator's pages hold 10)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.setAutoApprove(true)
      const many = Array.from({ length: 24 }, (_, i) => ({ chain: "ETH", address: `0x${(i + 1).toString(16).padStart(40, "0")}` }))
      for (const d of many) yield* provider.destination!("sandbox", d)
      const last = many.at(-1)!
      const calls = sim.calls.length
      assert.strictEqual((yield* provider.destination!("sandbox", last)).status, "approved")
      const lists = sim.calls.slice(calls).filter((c) => c.method === "GET")
      assert.strictEqual(lists.length, 3, "25 entries in pages of 10")
      assert.isFalse(sim.calls.slice(calls).some((c) => c.method === "POST"), "found listed: not entered again")
      const sent = yield* provider.send(batch("STL-page", { destination: last }))
      assert.strictEqual(JSON.parse(sim.transfers.get(sent.providerRef)!.rawBody).destination.addressId, entryOf(sim, last.chain, last.address)!.id)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("the simulator refuses what Circle Mint refuses: an unknown or unverified addressId, a raw address outside the address book", () =>
    Effect.gen(function*() {
      const { sim } = yield* setup()
      const post = (path: string, body: unknown) =>
        Effect.promise(() =>
          fetch(`${sim.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${credentials.apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) })
            .then(async (r) => ({ status: r.status, body: await r.json() as any }))
        )
      const unknown = yield* post("/v1/businessAccount/transfers", { ...Docs.createBusinessTransferRequest, source: { type: "wallet", id: "12345" } })
      assert.deepInclude(unknown, { status: 400 })
      assert.strictEqual(unknown.body.errors[0].location, "destination.addressId")
      const entered = yield* post("/v1/businessAccount/wallets/addresses/recipient", {
        idempotencyKey: "0f6a1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b",
        address: "0x2222222222222222222222222222222222222222",
        chain: "ETH",
        description: "unverified"
      })
      assert.strictEqual(entered.body.data.status, "pending_verification")
      const unverified = yield* post("/v1/businessAccount/transfers", {
        ...Docs.createBusinessTransferRequest,
        source: { type: "wallet", id: "12345" },
        destination: { type: "verified_blockchain", addressId: entered.body.data.id }
      })
      assert.deepInclude(unverified, { status: 400 })
      assert.include(unverified.body.message, "not verified")
      const raw = yield* post("/v1/transfers", { ...Docs.createTransferRequest, destination: { type: "blockchain", address: "0x2222222222222222222222222222222222222222", chain: "ETH" } })
      assert.deepInclude(raw, { status: 400 })
      assert.include(raw.body.message, "verified recipient")
      assert.strictEqual(sim.transfers.size, 0)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("Travel Rule: 3,000 USD or more on ETH carries ORIGINATOR_IDENTITY as source.identities; without one nothing is sent; the simulator denies such a transfer as Circle documents", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ originator: Docs.originatorIdentity })
      assert.isTrue(travelRuleApplies("ETH", BigDecimal.fromStringUnsafe("3000")))
      assert.isFalse(travelRuleApplies("ETH", BigDecimal.fromStringUnsafe("2999.99")))
      assert.isFalse(travelRuleApplies("ALGO", BigDecimal.fromStringUnsafe("5000")))
      const big = yield* provider.send(batch("STL-tr1", { amountUsd: BigDecimal.fromStringUnsafe("3000") }))
      assert.strictEqual(big.status, "pending")
      assert.deepStrictEqual(JSON.parse(sim.transfers.get(big.providerRef)!.rawBody).source, { type: "wallet", id: "12345", identities: [Docs.originatorIdentity] })
      const small = yield* provider.send(batch("STL-tr2", { amountUsd: BigDecimal.fromStringUnsafe("2999.99") }))
      assert.deepStrictEqual(JSON.parse(sim.transfers.get(small.providerRef)!.rawBody).source, { type: "wallet", id: "12345" })

      // Without an originator (unset or unreadable): not sent, and not a refusal.
      for (const originator of [undefined, originatorOf("{\"type\":\"business\"}")]) {
        const bare = yield* make(optionsFor(sim, { originator }))
        const before = sim.transfers.size
        const waiting = yield* Effect.exit(bare.send(batch("STL-tr3", { amountUsd: BigDecimal.fromStringUnsafe("3000") })))
        assert.strictEqual(errorOf(waiting)._tag, "SettlementPayoutUnavailable")
        assert.include(errorOf(waiting).reason, "ORIGINATOR_IDENTITY")
        assert.strictEqual(sim.transfers.size, before, "nothing sent")
      }
      assert.deepStrictEqual(originatorOf(JSON.stringify(Docs.originatorIdentity)), Docs.originatorIdentity)

      // What Circle does with such a transfer without identities: failed, risk denied (3220).
      const entry = entryOf(sim, "ETH", address)!
      const denied = yield* Effect.promise(() =>
        fetch(`${sim.baseUrl}/v1/businessAccount/transfers`, {
          method: "POST",
          headers: { authorization: `Bearer ${credentials.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ idempotencyKey: "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b", destination: { type: "verified_blockchain", addressId: entry.id }, amount: { amount: "3000.00", currency: "USD" } })
        }).then((r) => r.json() as Promise<any>)
      )
      assert.deepInclude(denied.data, { status: "failed", errorCode: "transfer_denied", riskEvaluation: { decision: "denied", reason: "3220" } })
      assert.deepStrictEqual(yield* provider.status(denied.data.id), { providerRef: denied.data.id, batchId: undefined, status: "failed", transactionHash: undefined, detail: "transfer_denied" })
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.live("the documentation's address book and business transfer examples are read by the connector's schemas", () =>
    Effect.gen(function*() {
      const recipient = Schema.decodeUnknownSync(Wire.RecipientAnswer)(Docs.createRecipientResponse).data
      assert.deepStrictEqual([recipient.id, recipient.status, Wire.approvalOf(recipient.status)], ["b8627ae8-732b-4d25-b947-1df8f4007a29", "active", "approved"])
      assert.strictEqual(Schema.decodeUnknownSync(Wire.RecipientList)(Docs.listRecipientsResponse).data.length, 1)
      const body = Schema.decodeUnknownSync(Wire.BusinessTransferBody)(Docs.createBusinessTransferRequest)
      assert.deepStrictEqual(body.destination, { type: "verified_blockchain", addressId: "f1f36b85-cafe-484e-a46b-02340bfdb927" })
      const { data } = Schema.decodeUnknownSync(Wire.TransferAnswer)(Docs.createBusinessTransferResponse)
      assert.deepStrictEqual([data.destination.chain, Wire.toStatus(data.status)], ["ALGO", "pending"])
      assert.deepStrictEqual(["pending_verification", "verification_succeeded", "denied", "inactive", undefined].map(Wire.approvalOf), ["pending", "pending", "denied", "denied", "pending"])
    }))
})
