/**
 * Exactly-once creation as an embedder composes it (`Idempotency.run` around `Payments.create`,
 * like the HTTP handler), with time on TestClock: a cascade slower than the key's lease is never
 * executed twice, and a record whose execution died is continued by the recovery job with the
 * same upstream key; a provider that gives no answer about a charge is asked again, never skipped.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Clock, DateTime, type Duration, Effect, Exit, Fiber, Option } from "effect"
import { TestClock } from "effect/testing"
import { Idempotency } from "../../core/idempotency/Idempotency.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { type PayoutProvider, PayoutProviderUnavailable } from "../../core/ports/PayoutProvider.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { Payment } from "../../core/payments/Payment.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { readView } from "../../core/payments/PaymentView.ts"
import { EngineTest, EngineTestWith, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"

/** A provider whose charges answer after `delay` (or never, while `answering` is false). */
const scriptedProvider = (id: string, behaviour: { delay: Duration.Input; answering: boolean }) => {
  const calls: Array<ChargeRequest> = []
  const provider = stubProvider(id, {
    charge: (request) =>
      Effect.suspend(() => {
        calls.push(request)
        const answer = Effect.succeed({ providerRef: `${id}_${request.idempotencyKey}`, status: "pending" as const, paymentFormUrl: "", paymentData: {} })
        return behaviour.answering ? Effect.delay(answer, behaviour.delay) : Effect.never
      })
  })
  return { provider, calls }
}

const setup = (behaviour: { delay: Duration.Input; answering: boolean }, claimInWriteAhead: boolean) =>
  Effect.gen(function*() {
    const scope = yield* newScope()
    const upstream = scriptedProvider(`slow_${scope.shop.id}`, behaviour)
    yield* routeShopTo(scope, [upstream.provider])
    const payments = yield* Payments
    const idempotency = yield* Idempotency
    const create = idempotency.run(
      { scope: `sandbox:${scope.merchant.id}`, key: "order-1", fingerprint: "f1" },
      Payment,
      (key) => payments.createKeyed(scope, { id: key.resume, amount: Money.decimal("30"), paymentMethodId: "sbx_pix" }, key),
      { claimInWriteAhead }
    ).pipe(Effect.map((answered) => answered.value))
    return { scope, upstream, create }
  })

// The key claimed before the execution, or by the payment's write-ahead (as POST /payments does).
for (const claimInWriteAhead of [false, true]) describe(`exactly-once payment creation, ${claimInWriteAhead ? "key claimed in the write-ahead" : "key claimed first"}`, () => {
  it.effect("a cascade slower than the key's lease is never executed twice", () =>
    Effect.gen(function*() {
      // The provider answers after 29 s (within the cascade's 30 s), twice the key's 15 s lease.
      const { scope, upstream, create } = yield* setup({ delay: "29 seconds", answering: true }, claimInWriteAhead)
      const first = yield* Effect.forkChild(create)
      yield* TestClock.adjust("20 seconds")
      // The retry finds the key still held (the heartbeat renewed the lease), waits, and replays.
      const retry = yield* Effect.forkChild(create)
      yield* TestClock.adjust("15 seconds")
      const created = yield* Fiber.join(first)
      const retried = yield* Fiber.join(retry)
      assert.strictEqual(upstream.calls.length, 1, "one upstream charge for one key")
      assert.strictEqual(retried.id, created.id)
      // A retry while the first still runs past the wait answers 409, never a second execution.
      const slow = yield* setup({ delay: "29 seconds", answering: true }, claimInWriteAhead)
      const running = yield* Effect.forkChild(slow.create)
      yield* TestClock.adjust("1 second")
      const waiting = yield* Effect.forkChild(Effect.exit(slow.create))
      yield* TestClock.adjust("22 seconds")
      const refused = yield* Fiber.join(waiting)
      const refusal = Exit.isFailure(refused) ? refused.cause.reasons.find(Cause.isFailReason)?.error : undefined
      assert.strictEqual(refusal?.code, "idempotency_key_in_progress")
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(running)
      assert.strictEqual(slow.upstream.calls.length, 1)
      // Afterwards the key replays the same payment.
      const replayed = yield* create
      assert.strictEqual(replayed.id, created.id)
      assert.strictEqual(upstream.calls.length, 1)
      const { total } = yield* (yield* Payments).list(scope, {}, { limit: 10, offset: 0 })
      assert.strictEqual(total, 1)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a request interrupted while the provider has the charge is continued at once by its retry, with the same key", () =>
    Effect.gen(function*() {
      const behaviour: { delay: Duration.Input; answering: boolean } = { delay: "1 second", answering: false }
      const { upstream, create } = yield* setup(behaviour, claimInWriteAhead)
      const first = yield* Effect.forkChild(create)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(upstream.calls.length, 1)
      yield* Fiber.interrupt(first) // the client gave up and closed the connection
      behaviour.answering = true
      // The retry does not wait out the interrupted execution's 15 s lease: it asks the provider
      // again with the same key within the provider's own second.
      const retry = yield* Effect.forkChild(create)
      yield* TestClock.adjust("2 seconds")
      assert.strictEqual(upstream.calls.length, 2)
      assert.strictEqual(upstream.calls[1]!.idempotencyKey, upstream.calls[0]!.idempotencyKey)
      const retried = yield* Fiber.join(retry)
      assert.strictEqual(retried.status, "pending")
      assert.strictEqual(upstream.calls[0]!.transactionId, retried.id)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("an execution that died after calling the provider is continued by the recovery job with the same key", () =>
    Effect.gen(function*() {
      const behaviour: { delay: Duration.Input; answering: boolean } = { delay: "1 second", answering: false }
      const { scope, upstream, create } = yield* setup(behaviour, claimInWriteAhead)
      const first = yield* Effect.forkChild(create)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(upstream.calls.length, 1)
      yield* Fiber.interrupt(first) // the process died while the provider had the charge
      const { rows } = yield* (yield* Payments).list(scope, {}, { limit: 10, offset: 0 })
      assert.strictEqual(rows.length, 1)
      const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(rows[0]!.id))
      assert.strictEqual(stored.status, "initiated")
      assert.deepStrictEqual(stored.attempts.map((a) => a.outcome), ["in_flight"])
      // To the merchant it is a pending payment: listed under `pending`, shown as `pending`.
      const pending = yield* (yield* Payments).list(scope, { status: "pending" }, { limit: 10, offset: 0 })
      assert.deepStrictEqual(pending.rows.map((p) => p.id), [stored.id])
      assert.strictEqual(readView(stored).status, "pending")

      behaviour.answering = true
      yield* TestClock.adjust("5 minutes")
      const jobs = yield* Jobs
      const recovering = yield* Effect.forkChild(jobs.runDue)
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(recovering)
      assert.strictEqual(upstream.calls.length, 2)
      assert.strictEqual(upstream.calls[1]!.idempotencyKey, upstream.calls[0]!.idempotencyKey, "asked again with the same key")
      const recovered = Option.getOrThrow(yield* (yield* PaymentStore).findById(stored.id))
      assert.strictEqual(recovered.status, "pending")
      assert.deepStrictEqual(recovered.attempts.map((a) => a.outcome), ["accepted"])

      // The client's retry gets that same payment; nothing is charged again.
      const retried = yield* create
      assert.strictEqual(retried.id, stored.id)
      assert.strictEqual(upstream.calls.length, 2)
    }).pipe(Effect.provide(EngineTest)))
})

describe("a provider that gives no answer about the charge (it may hold it)", () => {
  it.effect("the request answers 503 provider_outcome_unknown, no other provider is tried, and the retry asks the same provider with the same key", () =>
    Effect.gen(function*() {
      const behaviour: { delay: Duration.Input; answering: boolean } = { delay: "1 second", answering: false }
      const { scope, upstream, create } = yield* setup(behaviour, true)
      const first = yield* Effect.forkChild(Effect.exit(create))
      yield* TestClock.adjust("31 seconds") // the cascade's 30 s: the charge's outcome is unknown
      const exit = yield* Fiber.join(first)
      const error = Exit.isFailure(exit) ? exit.cause.reasons.find(Cause.isFailReason)?.error : undefined
      assert.strictEqual(error?.code, "provider_outcome_unknown")
      assert.strictEqual(upstream.calls.length, 1)
      const id = error?.details["transactionId"] as string
      const held = Option.getOrThrow(yield* (yield* PaymentStore).findById(id))
      // The sandbox provider routed after it was never asked: it could have charged the buyer twice.
      assert.deepStrictEqual(held.attempts.map((a) => [a.provider, a.outcome, a.reason]), [[upstream.provider.id, "unknown", "timeout"]])
      assert.strictEqual(held.status, "initiated")
      assert.strictEqual(readView(held).status, "pending")

      behaviour.answering = true
      const retried = yield* Effect.forkChild(create)
      yield* TestClock.adjust("2 seconds")
      const payment = yield* Fiber.join(retried)
      assert.strictEqual(payment.id, id, "the retry continued the record")
      assert.strictEqual(payment.status, "pending")
      assert.strictEqual(upstream.calls.length, 2)
      assert.strictEqual(upstream.calls[1]!.idempotencyKey, upstream.calls[0]!.idempotencyKey, "asked again with the same upstream key")
      assert.deepStrictEqual(payment.attempts.map((a) => [a.provider, a.outcome]), [[upstream.provider.id, "unknown"], [upstream.provider.id, "accepted"]])
      const { total } = yield* (yield* Payments).list(scope, {}, { limit: 10, offset: 0 })
      assert.strictEqual(total, 1)
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a provider down after the unanswered call is asked again, never skipped: the recovery job keeps asking, and at expiry the payment fails", () =>
    Effect.gen(function*() {
      const behaviour: { delay: Duration.Input; answering: boolean } = { delay: "1 second", answering: false }
      const { upstream, create } = yield* setup(behaviour, true)
      const first = yield* Effect.forkChild(Effect.exit(create))
      yield* TestClock.adjust("31 seconds")
      const exit = yield* Fiber.join(first)
      const id = (Exit.isFailure(exit) ? exit.cause.reasons.find(Cause.isFailReason)?.error : undefined)?.details["transactionId"] as string
      const jobs = yield* Jobs
      const store = yield* PaymentStore
      // The recovery job asks again after 5 minutes: still no answer, the record stays open.
      yield* TestClock.adjust("5 minutes")
      const recovering = yield* Effect.forkChild(jobs.runDue)
      yield* TestClock.adjust("31 seconds")
      yield* Fiber.join(recovering)
      assert.strictEqual(upstream.calls.length, 2)
      const open = Option.getOrThrow(yield* store.findById(id))
      assert.strictEqual(open.status, "initiated")
      assert.deepStrictEqual(open.attempts.map((a) => a.outcome), ["unknown", "unknown"])
      assert.isTrue(open.attempts.every((a) => a.provider === upstream.provider.id), "no other provider was tried")
      // At its expiry it is asked once more, then the payment fails without an answer.
      const now = yield* Clock.currentTimeMillis
      yield* TestClock.adjust(`${DateTime.toEpochMillis(open.expiresAt) - now} millis`)
      for (let round = 0; round < 10 && Option.getOrThrow(yield* store.findById(id)).status === "initiated"; round++) {
        const running = yield* Effect.forkChild(jobs.runDue)
        yield* TestClock.adjust("2 minutes")
        yield* Fiber.join(running)
      }
      const ended = Option.getOrThrow(yield* store.findById(id))
      assert.strictEqual(ended.status, "failed")
      assert.match(ended.failureReason ?? "", /^provider_outcome_unknown: no answer from /)
      assert.isTrue(ended.attempts.every((a) => a.provider === upstream.provider.id && a.outcome === "unknown"))
      assert.isTrue(upstream.calls.every((c) => c.idempotencyKey === upstream.calls[0]!.idempotencyKey))
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a provider in flight that can no longer be asked (its plugin is gone): the payment fails, no other provider is tried", () =>
    Effect.gen(function*() {
      const { scope, upstream, create } = yield* setup({ delay: "1 second", answering: false }, true)
      const first = yield* Effect.forkChild(create)
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(first)
      const store = yield* PaymentStore
      const { rows } = yield* (yield* Payments).list(scope, {}, { limit: 1, offset: 0 })
      const stored = Option.getOrThrow(yield* store.findById(rows[0]!.id))
      // The plugin that held the attempt is no longer configured (renamed, removed).
      assert.isTrue(yield* store.update({
        ...stored,
        provider: "retired-plugin",
        attempts: [{ ...stored.attempts[0]!, provider: "retired-plugin" }],
        version: stored.version + 1
      }))
      yield* TestClock.adjust("5 minutes")
      const recovering = yield* Effect.forkChild((yield* Jobs).runDue)
      yield* TestClock.adjust("31 seconds")
      yield* Fiber.join(recovering)
      const recovered = Option.getOrThrow(yield* store.findById(stored.id))
      assert.strictEqual(recovered.status, "failed")
      assert.match(recovered.failureReason ?? "", /^provider_outcome_unknown: retired-plugin may hold the charge/)
      assert.deepStrictEqual(recovered.attempts.map((a) => [a.provider, a.outcome, a.reason]), [["retired-plugin", "unknown", "provider no longer configured"]])
      assert.strictEqual(upstream.calls.length, 1)
    }).pipe(Effect.provide(EngineTest)))
})

describe("exactly-once payout dispatch", () => {
  it.effect("a payout whose dispatch died is finished by the recovery job with the same upstream key, debited once", () => {
    const behaviour = { answering: false }
    const calls: Array<string> = []
    const provider: PayoutProvider = {
      id: "payout-upstream",
      environments: ["sandbox", "production"],
      supports: () => true,
      send: (request) =>
        Effect.suspend(() => {
          calls.push(request.idempotencyKey)
          return behaviour.answering ? Effect.succeed({ providerRef: `po_${request.idempotencyKey}`, status: "completed" as const }) : Effect.never
        }),
      status: (providerRef) => Effect.succeed({ providerRef, status: "processing" }),
      verifyCallback: () => Effect.succeed([])
    }
    const providers = Payouts.providers([provider])
    const engine = EngineTestWith(providers)
    return Effect.gen(function*() {
      const scope = yield* newScope()
      const payouts = yield* Payouts
      yield* payouts.fundSandbox(scope, "MXN", Money.decimal("1000"))
      const recipient = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }
      const sending = yield* Effect.forkChild(payouts.send(scope, { methodId: "po_mx_spei", amount: Money.decimal("200"), recipient }))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(sending) // died while the provider had the payout
      const { rows } = yield* payouts.list(scope, {}, { limit: 10, offset: 0 })
      assert.strictEqual(rows.length, 1)
      assert.deepInclude(rows[0]!, { status: "processing", providerRef: null, provider: "payout-upstream" })
      const mxn = () => Effect.map(payouts.balances(scope), (b) => Money.toText(b.balances.find((x) => x.currency === "MXN")!.available))
      assert.strictEqual(yield* mxn(), "800")

      behaviour.answering = true
      yield* TestClock.adjust("5 minutes")
      yield* (yield* Jobs).runDue
      assert.deepStrictEqual(calls, [rows[0]!.id, rows[0]!.id], "asked again with the same key")
      const done = yield* payouts.get(scope, rows[0]!.id)
      assert.deepInclude(done, { status: "completed", providerRef: `po_${rows[0]!.id}` })
      assert.strictEqual(yield* mxn(), "800")
      // A retry of the client's key continues the same payout and sends nothing again.
      const key = { scope: "retry", key: "retry", resume: rows[0]!.id, bind: () => Effect.void }
      const again = yield* payouts.send(scope, { methodId: "po_mx_spei", amount: Money.decimal("200"), recipient }, key)
      assert.strictEqual(again.payout.id, rows[0]!.id)
      assert.strictEqual(calls.length, 2)
    }).pipe(Effect.provide(engine))
  })

  it.effect("an unavailable provider is asked again every 5 minutes until it answers; the debit is never reversed on a maybe", () => {
    const behaviour = { upFromCall: 4 }
    const calls: Array<string> = []
    const provider: PayoutProvider = {
      id: "payout-upstream",
      environments: ["sandbox", "production"],
      supports: () => true,
      send: (request) =>
        Effect.suspend(() => {
          calls.push(request.idempotencyKey)
          return calls.length < behaviour.upFromCall
            ? Effect.fail(new PayoutProviderUnavailable({ reason: "upstream_unavailable" }))
            : Effect.succeed({ providerRef: `po_${request.idempotencyKey}`, status: "processing" as const })
        }),
      status: (providerRef) => Effect.succeed({ providerRef, status: "completed" }),
      verifyCallback: () => Effect.succeed([])
    }
    return Effect.gen(function*() {
      const scope = yield* newScope()
      const payouts = yield* Payouts
      const jobs = yield* Jobs
      yield* payouts.fundSandbox(scope, "MXN", Money.decimal("1000"))
      const recipient = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }
      const sent = yield* payouts.send(scope, { methodId: "po_mx_spei", amount: Money.decimal("200"), recipient })
      assert.deepInclude(sent.payout, { status: "processing", providerRef: null })
      const mxn = () => Effect.map(payouts.balances(scope), (b) => Money.toText(b.balances.find((x) => x.currency === "MXN")!.available))
      for (let round = 1; round <= 3; round++) {
        yield* TestClock.adjust("5 minutes")
        yield* jobs.runDue
      }
      assert.deepStrictEqual(calls, Array(4).fill(sent.payout.id), "asked at send and at each recovery round, with the same key")
      assert.deepInclude(yield* payouts.get(scope, sent.payout.id), { status: "processing", providerRef: `po_${sent.payout.id}` })
      assert.strictEqual(yield* mxn(), "800")
      yield* TestClock.adjust("5 minutes")
      yield* jobs.runDue // the status poll
      assert.deepInclude(yield* payouts.get(scope, sent.payout.id), { status: "completed" })
      assert.strictEqual(yield* mxn(), "800")
      assert.strictEqual(calls.length, 4)
    }).pipe(Effect.provide(EngineTestWith(Payouts.providers([provider]))))
  })
})
