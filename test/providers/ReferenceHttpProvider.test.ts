/**
 * The reference HTTP provider against its upstream simulator over real loopback sockets: what is
 * specific to this plugin (idempotency across a timed-out retry, lost callbacks, the callback the
 * simulator really sends, error mapping, the Effect clock in signature checks, and secrets that
 * never leak). The shared kit runs from `providers/reference-http/reference-http.conformance.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { inspect } from "node:util"
import { withSecretScrub } from "../support/SecretScrub.ts"
import * as Money from "../../core/Money.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { apiKey, callbackSecret, Crypto, Live, optionsFor, pix, setup } from "../../providers/reference-http/ConformanceHarness.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import * as Wire from "../../providers/reference-http/Wire.ts"
import { view } from "./Verdict.ts"




const chargeOn = (provider: PaymentProvider, transactionId: string) =>
  provider.charge(defaultChargeRequest(provider, pix, transactionId))

const errorOf = <E>(exit: Exit.Exit<unknown, E>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

describe("ReferenceHttpProvider", () => {
  it.live("a timed-out charge is retryable; its retry carries the same Idempotency-Key and is one charge", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
      const request = defaultChargeRequest(provider, pix, "TXN-RETRY-1")
      yield* sim.setMode("slow")
      const timedOut = errorOf(yield* Effect.exit(provider.charge(request)))
      assert.strictEqual(timedOut?.reason, "timeout")
      assert.isTrue(timedOut?.retryable)
      assert.isTrue(timedOut?.outcomeUnknown, "a timeout says nothing of the charge the upstream made")

      yield* sim.setMode("ok")
      const accepted = yield* provider.charge(request)
      const posts = sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/charges")
      assert.deepStrictEqual(posts.map((r) => r.idempotencyKey), [request.idempotencyKey, request.idempotencyKey])
      const charges = [...sim.charges.values()].filter((c) => c.reference === "TXN-RETRY-1")
      assert.deepStrictEqual(charges.map((c) => c.id), [accepted.providerRef])
      assert.strictEqual(charges[0]?.idempotencyKey, "TXN-RETRY-1:reference")
    }))

  it.live("sends the wire body: decimal text amount, buyer data, callback URL, bearer key", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = { ...defaultChargeRequest(provider, pix, "TXN-WIRE-1"), simulate: "paid" as const }
      const accepted = yield* provider.charge(request)
      const charge = sim.charges.get(accepted.providerRef)!
      assert.deepStrictEqual(charge.body, {
        reference: "TXN-WIRE-1",
        amount: "10",
        currency: "BRL",
        country: "BR",
        method: "pix",
        method_id: "1001",
        customer: { name: "Ana Souza", email: "ana@example.com", document: "52998224725", phone: "+5511987654321", ip: "203.0.113.7" },
        expires_at: request.expiresAt.toISOString(),
        callback_url: request.callbackUrl,
        simulate: "paid"
      })
      assert.isTrue(sim.requests.every((r) => r.authorized))
    }))

  it.live("a callback the simulator really sends is verified (node:crypto signer, effect/crypto verifier)", () =>
    Effect.gen(function*() {
      const { provider, receiver, sim } = yield* setup()
      const accepted = yield* chargeOn(provider, "TXN-CB-1")
      yield* sim.complete(accepted.providerRef)
      assert.deepStrictEqual(sim.callbacksSent.map((c) => c.outcome), [204])
      assert.deepStrictEqual(receiver.updates, [
        { providerRef: accepted.providerRef, transactionId: "TXN-CB-1", status: "completed", detail: undefined }
      ])
    }))

  it.live("a lost callback: nothing arrives, and the status poll still tells the truth", () =>
    Effect.gen(function*() {
      const { provider, receiver, sim } = yield* setup()
      const accepted = yield* chargeOn(provider, "TXN-LOST-1")
      yield* sim.dropCallbacks(true)
      yield* sim.complete(accepted.providerRef)
      assert.deepStrictEqual(sim.callbacksSent.map((c) => c.outcome), ["dropped"])
      assert.strictEqual(receiver.updates.length, 0)
      const polled = yield* provider.status(accepted.providerRef, "TXN-LOST-1")
      assert.strictEqual(polled.status, "completed")
    }))

  it.live("the status poll maps upstream statuses, unknown ones to pending", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const { providerRef } = yield* chargeOn(provider, "TXN-POLL-1")
      yield* sim.dropCallbacks(true)
      const polled = (status: string) =>
        Effect.flatMap(sim.setStatus(providerRef, status, "why"), () => provider.status(providerRef, "TXN-POLL-1"))
      assert.strictEqual((yield* polled("under_review_v2")).status, "pending")
      assert.strictEqual((yield* polled("disputed")).status, "chargeback")
      assert.strictEqual((yield* polled("dispute_won")).status, "chargeback_won")
      assert.strictEqual((yield* polled("dispute_lost")).status, "chargeback_lost")
      assert.strictEqual((yield* polled("expired")).status, "expired")
      const failed = yield* polled("canceled")
      assert.deepStrictEqual([failed.status, failed.detail], ["failed", "why"])
    }))

  it.live("a batch callback yields one update per event", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const body = JSON.stringify([
        { id: "ch_1", reference: "TXN-A", status: "paid" },
        { id: "ch_2", reference: "TXN-B", status: "chargeback", reason: "fraud" }
      ])
      const updates = yield* provider.verifyCallback({ [Wire.signatureHeader]: yield* sim.sign(body) }, body)
      assert.deepStrictEqual(updates.map((u) => [u.providerRef, u.transactionId, u.status, u.detail]), [
        ["ch_1", "TXN-A", "completed", undefined],
        ["ch_2", "TXN-B", "chargeback", "fraud"]
      ])
    }))

  it.live("error mapping: invalid document, refused key, unknown charge, refund beyond the charge", () =>
    Effect.gen(function*() {
      const { options, provider, sim } = yield* setup()
      const invalid = defaultChargeRequest(provider, pix, "TXN-DOC-1")
      const document = errorOf(yield* Effect.exit(provider.charge({
        ...invalid,
        customer: { ...invalid.customer, documentId: Redacted.make(UpstreamSimulator.invalidDocument) }
      })))
      assert.deepStrictEqual([document?.reason, document?.retryable], ["invalid_document", false])

      const wrongKey = yield* ReferenceHttpProvider.make({ ...options, apiKey: Redacted.make("sk_nope") }).pipe(Effect.provide(Live))
      const refused = errorOf(yield* Effect.exit(chargeOn(wrongKey, "TXN-KEY-1")))
      assert.deepStrictEqual([refused?.reason, refused?.retryable], ["invalid_credentials", true])

      const unknown = errorOf(yield* Effect.exit(provider.status("ch_nope", "TXN-NOPE")))
      assert.deepStrictEqual([unknown?.reason, unknown?.retryable], ["charge_not_found", false])

      const accepted = yield* chargeOn(provider, "TXN-REF-1")
      yield* sim.complete(accepted.providerRef)
      const tooMuch = errorOf(yield* Effect.exit(provider.refund({
        transactionId: "TXN-REF-1",
        providerRef: accepted.providerRef,
        refundId: "RFD-1",
        idempotencyKey: "RFD-1:reference",
        amount: Money.decimal("10.01"),
        currency: "BRL"
      })))
      assert.deepStrictEqual([tooMuch?.reason, tooMuch?.retryable], ["amount_exceeds_charge", false])
    }))

  it.live("error mapping: retryable, and whether the outcome is unknown (the charge may exist) or nothing was done", () =>
    Effect.gen(function*() {
      // A refused connection sent nothing: the next provider may be tried.
      const closed = yield* Effect.scoped(Effect.map(UpstreamSimulator.start({ apiKey, callbackSecret }), (s) => s.baseUrl))
      const unreachable = yield* ReferenceHttpProvider.make(optionsFor(closed)).pipe(Effect.provide(Live))
      const network = errorOf(yield* Effect.exit(chargeOn(unreachable, "TXN-NET-1")))
      assert.deepStrictEqual([network?.reason, network?.retryable, network?.outcomeUnknown], ["network_error", true, false])
      assert.include(network?.message, "ECONNREFUSED")

      // A connection reset after the request reached the upstream: it may have charged.
      const resetting = yield* Effect.acquireRelease(
        Effect.promise(() =>
          new Promise<Server>((resolve) => {
            const server = createServer((request) => request.on("data", () => request.socket.destroy()))
            server.listen(0, "127.0.0.1", () => resolve(server))
          })
        ),
        (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
      )
      const resetUrl = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`
      const reset = errorOf(yield* Effect.exit(chargeOn(yield* ReferenceHttpProvider.make(optionsFor(resetUrl)).pipe(Effect.provide(Live)), "TXN-RESET-1")))
      assert.deepStrictEqual([reset?.reason, reset?.retryable, reset?.outcomeUnknown], ["network_error", true, true])

      for (const [status, body, reason, unknown] of [
        [201, "{\"id\":\"ch_1\",\"status\":\"pending\",\"form_url\":\"javascript:alert(1)\"}", "malformed_response", true],
        [201, "<html>ok</html>", "malformed_response", true],
        [302, "", "malformed_response", true],
        [429, "{\"error\":\"slow_down\"}", "rate_limited", false],
        [500, "internal error", "upstream_unavailable", true],
        [502, "bad gateway", "upstream_unavailable", true],
        [503, "down for maintenance", "upstream_unavailable", false],
        [504, "gateway timeout", "upstream_unavailable", true],
        [401, "{\"error\":\"unauthorized\"}", "invalid_credentials", false]
      ] as const) {
        const provider = yield* ReferenceHttpProvider.make(optionsFor("http://upstream.invalid")).pipe(
          Effect.provide(Layer.merge(cannedHttp(status, body), Crypto))
        )
        const error = errorOf(yield* Effect.exit(chargeOn(provider, "TXN-CANNED-1")))
        assert.deepStrictEqual([error?.reason, error?.retryable, error?.outcomeUnknown], [reason, true, unknown], `${status} ${body}`)
      }
    }))

  it.effect("the callback timestamp is checked against the Effect clock", () =>
    Effect.gen(function*() {
      const provider = yield* ReferenceHttpProvider.make(optionsFor("http://upstream.invalid")).pipe(Effect.provide(Live))
      const body = JSON.stringify({ id: "ch_1", reference: "TXN-1", status: "paid" })
      const headers = { [Wire.signatureHeader]: UpstreamSimulator.signatureOf(callbackSecret, body, 1_000) }
      yield* TestClock.setTime(1_000_000)
      assert.strictEqual((yield* provider.verifyCallback(headers, body))[0]?.status, "completed")
      yield* TestClock.adjust("300 seconds")
      assert.strictEqual((yield* provider.verifyCallback(headers, body)).length, 1)
      yield* TestClock.adjust("1 second")
      const stale = errorOf(yield* Effect.exit(provider.verifyCallback(headers, body)))
      assert.strictEqual(stale?._tag, "CallbackRejected")
    }))

  it.live("secrets never appear in errors, thrown messages, log lines or the provider itself", () =>
    withSecretScrub([apiKey, callbackSecret], (scrub) =>
      Effect.gen(function*() {
        const { options, provider, sim } = yield* setup({ timeoutMs: 300 }, 1_000)
        scrub.text(inspect(provider, { depth: 10 }), inspect(options, { depth: 10 }), JSON.stringify(options))
        for (const mode of ["slow", "unavailable", "decline"] as const) {
          yield* sim.setMode(mode)
          yield* scrub.failed(yield* Effect.exit(chargeOn(provider, `TXN-LEAK-${mode}`)))
        }
        yield* sim.setMode("ok")
        yield* scrub.failed(yield* Effect.exit(provider.status("ch_missing", "TXN-LEAK")))
        const body = JSON.stringify({ id: "ch_1", reference: "TXN-1", status: "paid" })
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ [Wire.signatureHeader]: `t=1,v1=${callbackSecret}` }, body)))
        yield* scrub.failed(yield* Effect.exit(provider.verifyCallback({ [Wire.signatureHeader]: yield* sim.sign(callbackSecret) }, callbackSecret)))

        // An upstream that echoes the request, Authorization header included, into its error.
        const echo = yield* ReferenceHttpProvider.make(optionsFor("http://upstream.invalid")).pipe(
          Effect.provide(Layer.merge(echoingHttp, Crypto))
        )
        yield* scrub.failed(yield* Effect.exit(chargeOn(echo, "TXN-LEAK-ECHO")))

        // What a caller that runs the effect as a promise sees thrown.
        const thrown = yield* Effect.promise(() =>
          Effect.runPromise(chargeOn(echo, "TXN-LEAK-THROWN")).then(() => "resolved", (e: Error) => `${e.message}\n${e.stack}`)
        )
        scrub.text(thrown)
        assert.include(thrown, "[redacted]")
      })))
})

/** An HttpClient that answers every request with `status` and `body`. */
const cannedHttp = (status: number, body: string) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body || null, { status }))))
  )

/** An HttpClient whose upstream answers 400 with the request's Authorization header in its error. */
const echoingHttp = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) =>
    Effect.succeed(HttpClientResponse.fromWeb(
      request,
      new Response(
        JSON.stringify({ error: `bad_header ${request.headers["authorization"]}`, message: `rejected ${request.headers["authorization"]}` }),
        { status: 400 }
      )
    ))
  )
)
