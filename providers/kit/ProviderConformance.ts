/**
 * The provider conformance kit: one suite every `PaymentProvider` plugin runs against its own
 * upstream (a local simulator or the provider's sandbox), in the manner of ActiveMerchant's
 * remote tests. A provider team implements a {@link ConformanceHarness} and calls
 *
 * ```ts
 * providerConformance("acme", makeAcmeHarness) // registers the @effect/vitest tests
 * ```
 *
 * `makeHarness` is built afresh for every test, in that test's `Scope` (start a simulator there,
 * or just build the object when the sandbox is remote); its services must already be provided.
 * Tests run live (real clock, real sockets), each with its own transaction ids.
 *
 * What conforming means:
 * - a charge is accepted as `pending` or `completed`, with a provider reference and an
 *   `http(s)` payment form URL;
 * - the same idempotency key twice is one upstream charge (and one refund);
 * - a decline is a `ProviderError` of reason `Declined`, with the provider's code; an unavailable
 *   upstream is `Failed` or `OutcomeUnknown`, and refused credentials `Misconfigured` or `Failed`
 *   (the cascade's question "may the next provider try this charge?": a decline would be
 *   declined there too; an outage or this provider's bad key says nothing about the charge); a
 *   `Failed` or `Misconfigured` error left no charge upstream (the cascade then tries the next
 *   provider, so a charge there would be a second);
 * - the status poll reflects a completion and a failure made upstream;
 * - a callback about a charge moved upstream is accepted and mapped to the upstream's status;
 *   an unreadable one is `CallbackRejected`, never a defect. Two schemes are known:
 *   - `signed` (the default): the upstream signs each notification. An unsigned, badly signed
 *     (other secret, garbage headers), tampered (one charge's signature on another's body), stale
 *     or future (over 300 s) one is rejected;
 *   - `notify-then-query`: the upstream signs nothing, so the plugin asks the upstream about the
 *     charge the notification names. A notification about a charge the upstream does not know is
 *     rejected, and one can never move a charge the upstream has not moved;
 *   - `signed-notify-then-query`: both (the upstream signs a notification that carries no
 *     status, and the plugin asks for it): every check of the two schemes applies;
 * - an upstream status the plugin does not know maps to `pending`, in the poll and in callbacks;
 * - a full refund and partial refunds of a completed charge succeed; a refund left pending
 *   upstream, then settled upstream, is reported by the callback that follows
 *   (`RefundConformance.ts`).
 */
import { assert, describe, it } from "@effect/vitest"
import { absurd, BigDecimal, Clock, Effect, Exit, Option, type Scope } from "effect"
import { Money, type PaymentMethodDef } from "../../core/ports/index.ts"
import {
  CallbackRejected,
  type ChargeRequest,
  chargeCustomer,
  type PaymentProvider,
  ProviderError
} from "../../core/ports/PaymentProvider.ts"
import type { ChargeRef, ConformanceHarness, ConformanceOptions } from "./ConformanceHarness.ts"
import type { ConnectorConformance } from "./ConnectorConformance.ts"
import { refundChecks } from "./RefundConformance.ts"

export type { ChargeRef, ConformanceHarness, ConformanceOptions, RefundControls, SentNotification } from "./ConformanceHarness.ts"
export { notificationsDuring } from "./RefundConformance.ts"

/** A plain charge request on `method` in its first currency at its minimum amount (at least 10). */
export const defaultChargeRequest = (
  provider: Pick<PaymentProvider, "id">,
  method: PaymentMethodDef,
  transactionId: string
): ChargeRequest => {
  const currency = method.currencies[0] ?? "USD"
  const min = method.currencyLimits.find((limit) => limit.currency === currency)?.min ?? "10"
  const amount = BigDecimal.max(Money.decimal(min), Money.decimal("10"))
  return {
    transactionId,
    idempotencyKey: `${transactionId}:${provider.id}`,
    environment: "sandbox",
    method,
    amount: Money.round(amount, currency),
    currency,
    country: method.country,
    customer: chargeCustomer({ name: "Ana Souza", email: "ana@example.com", documentId: "52998224725", phone: "+5511987654321", ip: "203.0.113.7" }),
    expiresAt: new Date(Date.now() + method.expiresInMinutes * 60_000),
    callbackUrl: `https://engine.example/providers/${encodeURIComponent(provider.id)}/callbacks`
  }
}

let counter = 0
const freshTransactionId = Effect.map(
  Clock.currentTimeMillis,
  (ms) => `TXN-CONF-${ms.toString(36).toUpperCase()}-${(++counter).toString(36).toUpperCase()}`
)

/** The typed error of a failed call; undefined when it succeeded or died. */
const errorOf = (exit: Exit.Exit<unknown, unknown>): unknown => Option.getOrUndefined(Exit.findErrorOption(exit))

const expectProviderError = (exit: Exit.Exit<unknown, unknown>, providerId: string): ProviderError => {
  assert.isTrue(Exit.isFailure(exit), "expected the call to fail")
  const error = errorOf(exit)
  assert.instanceOf(error, ProviderError, "expected a ProviderError (not a defect)")
  const providerError = error as ProviderError
  assert.strictEqual(providerError.providerId, providerId)
  return providerError
}

/**
 * Whether the error lets the cascade try the next provider, and so must have left nothing
 * upstream; `undefined` for an unknown outcome, which keeps the cascade on this provider.
 */
const cascades = (error: ProviderError): boolean | undefined => {
  switch (error.reason._tag) {
    case "Declined":
      return false
    case "Failed":
    case "Misconfigured":
      return true
    case "OutcomeUnknown":
      return undefined
    default:
      return absurd<never>(error.reason)
  }
}

const expectRejected = (exit: Exit.Exit<unknown, unknown>) => {
  assert.isTrue(Exit.isFailure(exit), "expected the callback to be rejected")
  assert.instanceOf(errorOf(exit), CallbackRejected, "expected CallbackRejected (not a defect)")
}

/**
 * Registers the suites against a connector's harness: the one `defineConnector(...).conformance`
 * gives (`providerConformance(AcmeConformance)`), or one written by hand with its name and options.
 */
export function providerConformance(conformance: ConnectorConformance): void
export function providerConformance<E>(name: string, makeHarness: Effect.Effect<ConformanceHarness, E, Scope.Scope>, options?: ConformanceOptions): void
export function providerConformance<E>(
  named: string | ConnectorConformance,
  makeHarness?: Effect.Effect<ConformanceHarness, E, Scope.Scope>,
  options: ConformanceOptions = {}
): void {
  if (typeof named === "string") suites(named, makeHarness!, options)
  else suites(named.name, named.harness, named.options)
}

const suites = <E>(
  name: string,
  makeHarness: Effect.Effect<ConformanceHarness, E, Scope.Scope>,
  options: ConformanceOptions
) =>
  describe(`${name}: provider conformance`, () => {
    const scheme = options.callbacks ?? "signed"
    const maxAgeSeconds = options.callbackMaxAgeSeconds ?? 300
    const timestamped = options.timestamped ?? true
    if (!timestamped && scheme !== "signed-notify-then-query") {
      throw new Error(`${name}: a signature without a timestamp needs the query after it (callbacks: "signed-notify-then-query")`)
    }
    const signed = scheme !== "notify-then-query"
    const queried = scheme !== "signed"
    const test = (title: string, body: (h: ConformanceHarness) => Effect.Effect<void, unknown, Scope.Scope>) =>
      it.live(title, () => Effect.flatMap(makeHarness, body))

    /** A fresh charge accepted upstream. */
    const charged = (h: ConformanceHarness) =>
      Effect.gen(function*() {
        const request = h.chargeRequest(yield* freshTransactionId)
        const accepted = yield* h.provider.charge(request)
        return { request, accepted, ref: { providerRef: accepted.providerRef, transactionId: request.transactionId } }
      })

    /** A fresh charge, completed upstream. */
    const completed = (h: ConformanceHarness) =>
      Effect.gen(function*() {
        const charge = yield* charged(h)
        yield* h.completeUpstream(charge.accepted.providerRef)
        return charge
      })

    test("supports its own test rail", (h) =>
      Effect.sync(() => assert.isTrue(h.provider.supports(h.method))))

    test("charge: accepted as pending or completed, with a reference and a payment form URL", (h) =>
      Effect.gen(function*() {
        const { accepted, request } = yield* charged(h)
        assert.include(["pending", "completed"], accepted.status)
        assert.isAbove(accepted.providerRef.length, 0)
        assert.match(accepted.paymentFormUrl, /^https?:\/\/\S+$/)
        assert.isObject(accepted.paymentData)
        assert.strictEqual(yield* h.upstreamCharges(request.transactionId), 1)
      }))

    test("charge: the same idempotency key twice is one upstream charge", (h) =>
      Effect.gen(function*() {
        const { accepted, request } = yield* charged(h)
        const again = yield* h.provider.charge(request)
        assert.strictEqual(again.providerRef, accepted.providerRef)
        assert.strictEqual(yield* h.upstreamCharges(request.transactionId), 1)
      }))

    test("charge: a decline is a ProviderError of reason Declined", (h) =>
      Effect.gen(function*() {
        const request = yield* h.arrangeDecline(h.chargeRequest(yield* freshTransactionId))
        const error = expectProviderError(yield* Effect.exit(h.provider.charge(request)), h.provider.id)
        assert.strictEqual(error.reason._tag, "Declined")
        assert.isAbove(error.code.length, 0)
      }))

    test("charge: an unavailable upstream is a ProviderError that is not a decline", (h) =>
      Effect.gen(function*() {
        const request = yield* h.arrangeUnavailable(h.chargeRequest(yield* freshTransactionId))
        const error = expectProviderError(yield* Effect.exit(h.provider.charge(request)), h.provider.id)
        assert.notStrictEqual(error.reason._tag, "Declined", "an outage says nothing about the charge")
        // Unless the outcome is unknown the cascade tries the next provider: the upstream must hold nothing.
        if (cascades(error) === true) assert.strictEqual(yield* h.upstreamCharges(request.transactionId), 0, "a definite failure left a charge")
      }))

    test("charge: refused credentials are a ProviderError the next provider may serve", (h) =>
      Effect.gen(function*() {
        const request = h.chargeRequest(yield* freshTransactionId)
        const provider = h.providerWithInvalidCredentials
        const error = expectProviderError(yield* Effect.exit(provider.charge(request)), provider.id)
        assert.notStrictEqual(error.reason._tag, "Declined", "a bad key says nothing about the charge")
        assert.strictEqual(yield* h.upstreamCharges(request.transactionId), 0)
      }))

    test("status: the poll reflects a completion made upstream", (h) =>
      Effect.gen(function*() {
        const { accepted, ref } = yield* charged(h)
        const before = yield* h.provider.status(ref.providerRef, ref.transactionId)
        assert.strictEqual(before.status, accepted.status)
        yield* h.completeUpstream(ref.providerRef)
        const after = yield* h.provider.status(ref.providerRef, ref.transactionId)
        assert.strictEqual(after.status, "completed")
        assert.strictEqual(after.providerRef, ref.providerRef)
      }))

    test("status: the poll reflects a failure made upstream", (h) =>
      Effect.gen(function*() {
        const { ref } = yield* charged(h)
        yield* h.failUpstream(ref.providerRef, "buyer abandoned")
        const after = yield* h.provider.status(ref.providerRef, ref.transactionId)
        assert.strictEqual(after.status, "failed")
      }))

    test("status: an unknown upstream status maps to pending", (h) =>
      Effect.gen(function*() {
        const { ref } = yield* charged(h)
        yield* h.unknownUpstream(ref.providerRef)
        const after = yield* h.provider.status(ref.providerRef, ref.transactionId)
        assert.strictEqual(after.status, "pending")
      }))

    /** The callback the upstream sends about `ref`, verified by the plugin. */
    const delivered = (h: ConformanceHarness, ref: ChargeRef, status: "completed" | "failed" | "unknown") =>
      Effect.gen(function*() {
        const body = h.callbackBody(ref, status)
        return yield* h.provider.verifyCallback(yield* h.signCallback(body), body)
      })

    test("callback: a callback about a completion or a failure is accepted and mapped", (h) =>
      Effect.gen(function*() {
        const { ref } = yield* completed(h)
        assert.deepStrictEqual(
          (yield* delivered(h, ref, "completed")).map((u) => [u.providerRef, u.transactionId ?? ref.transactionId, u.status]),
          [[ref.providerRef, ref.transactionId, "completed"]]
        )
        const other = yield* charged(h)
        yield* h.failUpstream(other.ref.providerRef, "buyer abandoned")
        assert.deepStrictEqual((yield* delivered(h, other.ref, "failed")).map((u) => u.status), ["failed"])
      }))

    test("callback: an unknown upstream status maps to pending", (h) =>
      Effect.gen(function*() {
        const { ref } = yield* charged(h)
        yield* h.unknownUpstream(ref.providerRef)
        assert.deepStrictEqual((yield* delivered(h, ref, "unknown")).map((u) => u.status), ["pending"])
      }))

    test("callback: an unreadable body is rejected, not a defect", (h) =>
      Effect.gen(function*() {
        for (const body of ["", "not json", "{}", "[1,2]", "{\"id\":1}", "null", "operation=payment_status_change"]) {
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body), body)))
        }
      }))

    if (signed) {
      test("callback: unsigned and garbage-signed callbacks are rejected", (h) =>
        Effect.gen(function*() {
          const { ref } = yield* completed(h)
          const body = h.callbackBody(ref, "completed")
          const headers = yield* h.signCallback(body)
          expectRejected(yield* Effect.exit(h.provider.verifyCallback({}, body)))
          for (const value of ["", "garbage", "t=,v1=", "v1=00", "t=abc,v1=zz", `t=1,v1=${"0".repeat(64)}`]) {
            const garbage = Object.fromEntries(Object.keys(headers).map((k) => [k, value]))
            expectRejected(yield* Effect.exit(h.provider.verifyCallback(garbage, body)))
          }
        }))

      test("callback: signed with another secret is rejected", (h) =>
        Effect.gen(function*() {
          const { ref } = yield* completed(h)
          const body = h.callbackBody(ref, "completed")
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body, { wrongSecret: true }), body)))
        }))

      test("callback: one charge's signature on another charge's body is rejected (tampered)", (h) =>
        Effect.gen(function*() {
          const first = yield* completed(h)
          const second = yield* completed(h)
          const headers = yield* h.signCallback(h.callbackBody(first.ref, "completed"))
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(headers, h.callbackBody(second.ref, "completed"))))
        }))

      if (timestamped) test(`callback: a timestamp older than ${maxAgeSeconds} s or over 300 s ahead is rejected`, (h) =>
        Effect.gen(function*() {
          const { ref } = yield* completed(h)
          const body = h.callbackBody(ref, "completed")
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          // 5 s more: a second may tick between signing here and checking there.
          for (const timestampSeconds of [now - maxAgeSeconds - 5, now + 305, now - Math.max(86_400, 2 * maxAgeSeconds)]) {
            expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body, { timestampSeconds }), body)))
          }
          // Within the tolerance it is fine, a retry near its end too.
          for (const timestampSeconds of [now - 120, now - maxAgeSeconds + 60]) {
            yield* h.provider.verifyCallback(yield* h.signCallback(body, { timestampSeconds }), body)
          }
        }))
    }

    if (queried) {
      test("callback: a notification about a charge the upstream does not know is rejected (forged)", (h) =>
        Effect.gen(function*() {
          const forged = { providerRef: "forged-0000000000000000", transactionId: "TXN-FORGED" }
          const body = h.callbackBody(forged, "completed")
          expectRejected(yield* Effect.exit(h.provider.verifyCallback(yield* h.signCallback(body), body)))
        }))

      test("callback: a notification never moves a charge the upstream has not moved (tampered, replayed)", (h) =>
        Effect.gen(function*() {
          const { ref } = yield* charged(h)
          assert.deepStrictEqual((yield* delivered(h, ref, "completed")).map((u) => u.status), ["pending"])
          yield* h.failUpstream(ref.providerRef, "expired")
          // A replay of an old "paid" notification reports what the upstream says now.
          assert.deepStrictEqual((yield* delivered(h, ref, "completed")).map((u) => u.status), ["failed"])
        }))
    }

    refundChecks(test, completed, { refundNotifications: options.refundNotifications ?? true })
  })
