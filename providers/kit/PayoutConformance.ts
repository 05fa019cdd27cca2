/**
 * The payout half of the conformance kit: one suite every `PayoutProvider` plugin runs against
 * its upstream (a simulator beside it, or the provider's sandbox), like `providerConformance` for
 * pay-ins. A provider team implements a {@link PayoutHarness} and calls
 *
 * ```ts
 * payoutConformance("acme payouts", makeAcmePayoutHarness)
 * ```
 *
 * What conforming means, in the engine's terms (a payout's debit is reversed only on an explicit
 * failure, so the plugin must never call a lost answer a refusal):
 * - a payout is accepted `processing` or `completed`, with a provider reference;
 * - the same idempotency key twice is one upstream payout with the same reference;
 * - a beneficiary the upstream refuses is `PayoutRejected` with a reason;
 * - an unavailable upstream and refused credentials are `PayoutProviderUnavailable` (the engine
 *   asks again later with the same key; nothing may be reversed on a maybe);
 * - the status poll reflects a payment and a failure made upstream, and an unknown upstream
 *   status maps to `processing`;
 * - a signed callback is accepted and mapped, echoing the payout id; an unsigned, garbage-signed,
 *   other-secret, tampered (one payout's signature on another's body), stale or future (over
 *   300 s) or unreadable one is `CallbackRejected`, never a defect.
 */
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Exit, Option, type Scope } from "effect"
import type { PayoutMethodDef } from "../../core/ports/index.ts"
import { CallbackRejected } from "../../core/ports/PaymentProvider.ts"
import {
  type PayoutProvider,
  PayoutProviderUnavailable,
  PayoutRejected
} from "../../core/ports/PayoutProvider.ts"

export type SendRequest = Parameters<PayoutProvider["send"]>[0]

/** A payout the kit sent, as the harness needs it to build a callback about it. */
export interface PayoutRef {
  readonly providerRef: string
  readonly payoutId: string
}

export interface PayoutHarness {
  readonly provider: PayoutProvider
  /** The same plugin and upstream, with credentials the upstream refuses. */
  readonly providerWithInvalidCredentials: PayoutProvider
  /** A rail the provider supports. */
  readonly method: PayoutMethodDef
  /** A payout the upstream accepts, for a fresh payout id. */
  readonly sendRequest: (payoutId: string) => SendRequest
  readonly completeUpstream: (providerRef: string) => Effect.Effect<void>
  readonly failUpstream: (providerRef: string, reason: string) => Effect.Effect<void>
  /** Puts the payout upstream in a status the plugin has never seen. */
  readonly unknownUpstream: (providerRef: string) => Effect.Effect<void>
  /** Arranges for the upstream to refuse this payout's beneficiary; may rewrite the request. */
  readonly arrangeReject: (request: SendRequest) => Effect.Effect<SendRequest>
  readonly arrangeUnavailable: (request: SendRequest) => Effect.Effect<SendRequest>
  /** How many payouts the upstream holds for this payout id. */
  readonly upstreamPayouts: (payoutId: string) => Effect.Effect<number>
  /** The raw body of the upstream's callback about the payout after the kit moved it upstream. */
  readonly callbackBody: (payout: PayoutRef, status: "completed" | "failed" | "unknown") => string
  /** The (lowercase) headers signing `rawBody` as the upstream does (see `ConformanceHarness`). */
  readonly signCallback: (
    rawBody: string,
    options?: { readonly timestampSeconds?: number; readonly wrongSecret?: boolean }
  ) => Effect.Effect<Readonly<Record<string, string>>>
}

let counter = 0
const freshPayoutId = Effect.map(
  Clock.currentTimeMillis,
  (ms) => `payout_conf${ms.toString(36)}${(++counter).toString(36)}`
)

const errorOf = (exit: Exit.Exit<unknown, unknown>): unknown => Option.getOrUndefined(Exit.findErrorOption(exit))

const expectRejected = (exit: Exit.Exit<unknown, unknown>) => {
  assert.isTrue(Exit.isFailure(exit), "expected the callback to be rejected")
  assert.instanceOf(errorOf(exit), CallbackRejected, "expected CallbackRejected (not a defect)")
}

export interface PayoutConformanceOptions {
  /**
   * How old a signed callback may be and still be accepted: the provider's documented retry
   * horizon. Default 300 s. One from more than 300 s in the future is always refused.
   */
  readonly callbackMaxAgeSeconds?: number | undefined
}

export const payoutConformance = <E>(
  name: string,
  makeHarness: Effect.Effect<PayoutHarness, E, Scope.Scope>,
  options: PayoutConformanceOptions = {}
) =>
  describe(`${name}: payout provider conformance`, () => {
    const maxAgeSeconds = options.callbackMaxAgeSeconds ?? 300
    const test = (title: string, body: (h: PayoutHarness) => Effect.Effect<void, unknown, Scope.Scope>) =>
      it.live(title, () => Effect.flatMap(makeHarness, body))

    const sent = (h: PayoutHarness) =>
      Effect.gen(function*() {
        const request = h.sendRequest(yield* freshPayoutId)
        const accepted = yield* h.provider.send(request)
        return { request, accepted, ref: { providerRef: accepted.providerRef, payoutId: request.payoutId } }
      })

    const moved = (h: PayoutHarness, status: "completed" | "failed" | "unknown") =>
      Effect.gen(function*() {
        const payout = yield* sent(h)
        if (status === "completed") yield* h.completeUpstream(payout.ref.providerRef)
        else if (status === "failed") yield* h.failUpstream(payout.ref.providerRef, "account closed")
        else yield* h.unknownUpstream(payout.ref.providerRef)
        return payout
      })

    const delivered = (h: PayoutHarness, ref: PayoutRef, status: "completed" | "failed" | "unknown") =>
      Effect.gen(function*() {
        const body = h.callbackBody(ref, status)
        return yield* h.provider.verifyCallback(yield* h.signCallback(body), body)
      })

    test("supports its own test rail", (h) => Effect.sync(() => assert.isTrue(h.provider.supports(h.method))))

    test("send: accepted processing or completed, with a reference, once upstream", (h) =>
      Effect.gen(function*() {
        const { accepted, request } = yield* sent(h)
        assert.include(["processing", "completed"], accepted.status)
        assert.isAbove(accepted.providerRef.length, 0)
        assert.strictEqual(yield* h.upstreamPayouts(request.payoutId), 1)
      }))

    test("send: the same idempotency key twice is one upstream payout", (h) =>
      Effect.gen(function*() {
        const { accepted, request } = yield* sent(h)
        const again = yield* h.provider.send(request)
        assert.strictEqual(again.providerRef, accepted.providerRef)
        assert.strictEqual(yield* h.upstreamPayouts(request.payoutId), 1)
      }))

    test("send: a refused beneficiary is PayoutRejected with a reason", (h) =>
      Effect.gen(function*() {
        const request = yield* h.arrangeReject(h.sendRequest(yield* freshPayoutId))
        const exit = yield* Effect.exit(h.provider.send(request))
        const error = errorOf(exit)
        assert.instanceOf(error, PayoutRejected)
        assert.isAbove((error as PayoutRejected).failureReason.length, 0)
      }))

    test("send: an unavailable upstream is PayoutProviderUnavailable, never a refusal", (h) =>
      Effect.gen(function*() {
        const request = yield* h.arrangeUnavailable(h.sendRequest(yield* freshPayoutId))
        assert.instanceOf(errorOf(yield* Effect.exit(h.provider.send(request))), PayoutProviderUnavailable)
      }))

    test("send: refused credentials are PayoutProviderUnavailable, and nothing is sent", (h) =>
      Effect.gen(function*() {
        const request = h.sendRequest(yield* freshPayoutId)
        assert.instanceOf(errorOf(yield* Effect.exit(h.providerWithInvalidCredentials.send(request))), PayoutProviderUnavailable)
        assert.strictEqual(yield* h.upstreamPayouts(request.payoutId), 0)
      }))

    test("status: the poll reflects a payment, a failure and an unknown status (processing)", (h) =>
      Effect.gen(function*() {
        for (const [status, expected] of [["completed", "completed"], ["failed", "failed"], ["unknown", "processing"]] as const) {
          const { ref } = yield* moved(h, status)
          const update = yield* h.provider.status(ref.providerRef, ref.payoutId)
          assert.strictEqual(update.status, expected)
          assert.strictEqual(update.providerRef, ref.providerRef)
        }
      }))

    test("callback: a callback about a payment, a failure or an unknown status is accepted and mapped", (h) =>
      Effect.gen(function*() {
        for (const [status, expected] of [["completed", "completed"], ["failed", "failed"], ["unknown", "processing"]] as const) {
          const { ref } = yield* moved(h, status)
          assert.deepStrictEqual(
            (yield* delivered(h, ref, status)).map((u) => [u.providerRef, u.payoutId, u.status]),
            [[ref.providerRef, ref.payoutId, expected]]
          )
        }
      }))

    test("callback: unsigned, garbage-signed and other-secret callbacks are rejected", (h) =>
      Effect.gen(function*() {
        const { ref } = yield* moved(h, "completed")
        const body = h.callbackBody(ref, "completed")
        const headers = yield* h.signCallback(body)
        expectRejected(yield* Effect.exit(h.provider.verifyCallback({}, body)))
        for (const value of ["", "garbage", "t=,v1=", `t=1,v1=${"0".repeat(64)}`]) {
          const garbage = Object.fromEntries(Object.keys(headers).map((k) => [k, value]))
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(garbage, body)))
        }
        expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body, { wrongSecret: true }), body)))
      }))

    test("callback: one payout's signature on another payout's body is rejected (tampered)", (h) =>
      Effect.gen(function*() {
        const first = yield* moved(h, "failed")
        const second = yield* moved(h, "failed")
        const headers = yield* h.signCallback(h.callbackBody(first.ref, "failed"))
        expectRejected(yield* Effect.exit(h.provider.verifyCallback(headers, h.callbackBody(second.ref, "failed"))))
      }))

    test(`callback: a timestamp older than ${maxAgeSeconds} s or over 300 s ahead is rejected`, (h) =>
      Effect.gen(function*() {
        const { ref } = yield* moved(h, "completed")
        const body = h.callbackBody(ref, "completed")
        const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        // 5 s more: a second may tick between signing here and checking there.
        for (const timestampSeconds of [now - maxAgeSeconds - 5, now + 305]) {
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body, { timestampSeconds }), body)))
        }
        for (const timestampSeconds of [now - 120, now - maxAgeSeconds + 60]) {
          yield* h.provider.verifyCallback(yield* h.signCallback(body, { timestampSeconds }), body)
        }
      }))

    test("callback: a signed but unreadable body is rejected, not a defect", (h) =>
      Effect.gen(function*() {
        for (const body of ["", "not json", "{}", "[1,2]", "{\"id\":1}", "null"]) {
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body), body)))
        }
      }))
  })
