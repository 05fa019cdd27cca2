/**
 * A fault-injecting upstream behind the real `PaymentProvider` port. It keeps the provider's own
 * truth (its charges and refunds, deduplicated by the engine's upstream idempotency key as real
 * providers do) apart from what it *told* the engine (charge answers, status answers, callbacks
 * delivered), so the invariants can check that the engine never reports an outcome no provider
 * gave. Every fault is drawn from the simulator's PRNG (`random`, reseeded per step).
 *
 * Faults: declines; outages (retryable, nothing charged); lost answers (the charge or refund
 * happened, the answer is a timeout); duplicate, lost and out-of-order callbacks (a callback
 * outbox the simulator delivers from in any order, sometimes keeping a copy); callbacks with a
 * bad signature; callbacks for payments the engine does not know; refunds refused outright,
 * accepted pending then failed or succeeded; status polls failing; late chargebacks (opened on
 * a completed charge any time later, after refunds too) and their outcome.
 */
import { BigDecimal, Effect } from "effect"
import * as Money from "../../core/Money.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeUpdate,
  type PaymentProvider,
  ProviderError,
  type RefundOutcome,
  type RefundRequest,
  type RefundStatus
} from "../../core/ports/PaymentProvider.ts"
import { Random } from "./Random.ts"

export type Truth = "pending" | "completed" | "failed" | "expired" | "chargeback" | "chargeback_won" | "chargeback_lost"

export interface UpstreamCharge {
  readonly upstreamKey: string
  readonly transactionId: string
  readonly providerRef: string
  readonly amount: BigDecimal.BigDecimal
  truth: Truth
  /** How many charges the upstream made for this key (1 unless the double is planted broken). */
  created: number
  calls: number
}

export interface UpstreamRefund {
  readonly refundId: string
  readonly providerRef: string
  readonly chargeRef: string
  readonly transactionId: string
  readonly amount: BigDecimal.BigDecimal
  status: RefundStatus
}

export interface Callback {
  readonly providerId: string
  readonly body: string
  readonly signature: string
  readonly label: string
}

/** How often each fault happens, out of 1. */
export interface FaultRates {
  readonly decline: number
  readonly outage: number
  readonly lostAnswer: number
  readonly completedAtOnce: number
  readonly statusError: number
  readonly refundRefused: number
  readonly refundOutage: number
  readonly refundLost: number
  readonly refundPending: number
  /** A callback the provider never sends. */
  readonly callbackLost: number
  /** A callback delivered twice. */
  readonly callbackDuplicated: number
}

export const defaultFaults: FaultRates = {
  decline: 0.1,
  outage: 0.08,
  lostAnswer: 0.08,
  completedAtOnce: 0.15,
  statusError: 0.15,
  refundRefused: 0.08,
  refundOutage: 0.08,
  refundLost: 0.08,
  refundPending: 0.25,
  callbackLost: 0.2,
  callbackDuplicated: 0.25
}

const sign = (body: string) => `sim-${body.length}-${[...body].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7)}`

/** Everything the providers said to the engine, per transaction: the statuses it may act on. */
export class Told {
  readonly byTransaction = new Map<string, Set<string>>()
  readonly refunds = new Map<string, Set<RefundStatus | "refused">>()
  say(transactionId: string, status: string) {
    const s = this.byTransaction.get(transactionId) ?? new Set<string>()
    s.add(status)
    this.byTransaction.set(transactionId, s)
  }
  sayRefund(refundId: string, status: RefundStatus | "refused") {
    const s = this.refunds.get(refundId) ?? new Set()
    s.add(status)
    this.refunds.set(refundId, s)
  }
  said(transactionId: string, status: string) {
    return this.byTransaction.get(transactionId)?.has(status) ?? false
  }
}

export interface DoubleOptions {
  readonly faults?: FaultRates
  /** Planted bug: the upstream does not deduplicate charges by idempotency key. */
  readonly ignoresIdempotencyKey?: boolean
}

export class ProviderDouble {
  readonly charges = new Map<string, UpstreamCharge>()
  readonly byRef = new Map<string, UpstreamCharge>()
  readonly refunds = new Map<string, UpstreamRefund>()
  /** Problems the upstream itself saw (a refund larger than what it captured). */
  readonly violations: Array<string> = []
  random = new Random(1)
  /** How often each fault was injected (for the run's summary). */
  readonly injected = new Map<string, number>()
  private refs = 0
  readonly faults: FaultRates

  constructor(
    readonly id: string,
    readonly told: Told,
    readonly outbox: Array<Callback>,
    readonly options: DoubleOptions = {}
  ) {
    this.faults = options.faults ?? defaultFaults
  }

  private count(fault: string) {
    this.injected.set(fault, (this.injected.get(fault) ?? 0) + 1)
  }

  /** Reseeds the fault draws (once per step). */
  setSeed(seed: number) {
    this.random = new Random(seed)
  }

  /** A callback about a charge (or a refund of it) into the outbox: maybe lost, maybe twice. */
  notify(charge: UpstreamCharge, status: Truth, refunds?: ReadonlyArray<RefundOutcome>, label: string = status) {
    if (this.random.chance(this.faults.callbackLost)) return this.count("callback lost")
    const update = { ref: charge.providerRef, txn: charge.transactionId, status: status === "expired" ? "expired" : status, refunds }
    const body = JSON.stringify(update)
    const callback = { providerId: this.id, body, signature: sign(body), label: `${label} ${charge.transactionId}` }
    this.outbox.push(callback)
    if (this.random.chance(this.faults.callbackDuplicated)) {
      this.count("callback duplicated")
      this.outbox.push(callback)
    }
  }

  /** A signed callback about a payment this provider never charged. */
  unknownCallback(n: number) {
    const body = JSON.stringify({ ref: `${this.id}_ghost_${n}`, txn: `TXN-GHOST-${n}`, status: "completed" })
    this.outbox.push({ providerId: this.id, body, signature: sign(body), label: `unknown TXN-GHOST-${n}` })
  }

  /** A callback whose signature does not verify: 401, nothing changes. */
  forgedCallback(charge: UpstreamCharge) {
    const body = JSON.stringify({ ref: charge.providerRef, txn: charge.transactionId, status: "completed" })
    this.outbox.push({ providerId: this.id, body, signature: "forged", label: `forged ${charge.transactionId}` })
  }

  /** The provider decides a pending charge (the buyer paid, or did not). */
  decide(charge: UpstreamCharge) {
    charge.truth = this.random.weighted<Truth>([["completed", 7], ["failed", 2], ["expired", 1]])
    this.count(`charge ${charge.truth} upstream`)
    this.notify(charge, charge.truth)
  }

  /** A chargeback on a completed charge, or the decision of an open one. */
  chargeback(charge: UpstreamCharge) {
    if (charge.truth === "completed") charge.truth = "chargeback"
    else if (charge.truth === "chargeback") charge.truth = this.random.pick(["chargeback_won", "chargeback_lost"] as const)
    else return
    this.count(charge.truth)
    this.notify(charge, charge.truth)
  }

  /** A pending refund is paid back or rejected after acceptance, and the provider says so (maybe). */
  settleRefund(refund: UpstreamRefund) {
    if (refund.status !== "pending") return
    refund.status = this.random.chance(0.75) ? "succeeded" : "failed"
    const charge = this.byRef.get(refund.chargeRef)!
    this.notify(charge, charge.truth, [{ providerRef: refund.providerRef, status: refund.status }], `refund ${refund.status}`)
  }

  private answer(charge: UpstreamCharge): ChargeAccepted {
    const status = charge.truth === "completed" || charge.truth === "failed" || charge.truth === "expired" ? charge.truth : "pending"
    this.told.say(charge.transactionId, status)
    return { providerRef: charge.providerRef, status, paymentFormUrl: "", paymentData: {} }
  }

  /** A timeout is an answer about nothing (`OutcomeUnknown`); an outage refused the call (`Failed`). */
  private timeout() {
    return ProviderError.outcomeUnknown({ providerId: this.id, code: "timeout", message: "timeout" })
  }
  private unavailable() {
    return ProviderError.failed({ providerId: this.id, code: "unavailable", message: "unavailable" })
  }
  private declined(code: string) {
    return ProviderError.declined({ providerId: this.id, code, message: code })
  }

  private refundedOf(chargeRef: string) {
    return [...this.refunds.values()].filter((r) => r.chargeRef === chargeRef && r.status !== "failed").reduce((s, r) => BigDecimal.sum(s, r.amount), Money.zero)
  }

  private charge(request: ChargeRequest): Effect.Effect<ChargeAccepted, ProviderError> {
    return Effect.suspend(() => {
      const existing = this.charges.get(request.idempotencyKey)
      if (existing !== undefined && this.options.ignoresIdempotencyKey !== true) {
        existing.calls++
        this.count("charge asked again with its key")
        if (this.random.chance(this.faults.lostAnswer)) {
          this.count("charge answer lost")
          return Effect.fail(this.timeout())
        }
        return Effect.succeed(this.answer(existing))
      }
      const fault = this.random.weighted([
        ["decline", this.faults.decline],
        ["outage", this.faults.outage],
        ["lost", this.faults.lostAnswer],
        ["ok", 1 - this.faults.decline - this.faults.outage - this.faults.lostAnswer]
      ] as const)
      this.count(`charge ${fault}`)
      if (fault === "decline") {
        this.told.say(request.transactionId, "declined")
        return Effect.fail(this.declined("declined"))
      }
      if (fault === "outage") return Effect.fail(this.unavailable())
      const charge: UpstreamCharge = existing ?? {
        upstreamKey: request.idempotencyKey,
        transactionId: request.transactionId,
        providerRef: `${this.id}_ch_${++this.refs}`,
        amount: request.amount,
        truth: this.random.chance(this.faults.completedAtOnce) ? "completed" : "pending",
        created: 0,
        calls: 0
      }
      charge.created++
      charge.calls++
      this.charges.set(charge.upstreamKey, charge)
      this.byRef.set(charge.providerRef, charge)
      // A few scheduler turns inside the call: a crash may land between the charge and its answer.
      const turns = Effect.forEach(Array.from({ length: this.random.int(4) }), () => Effect.yieldNow, { discard: true })
      if (fault === "lost") return Effect.andThen(turns, Effect.fail(this.timeout()))
      return Effect.andThen(turns, Effect.sync(() => this.answer(charge)))
    })
  }

  private status(providerRef: string, transactionId: string): Effect.Effect<ChargeUpdate, ProviderError> {
    return Effect.suspend(() => {
      const charge = this.byRef.get(providerRef)
      if (charge === undefined || charge.transactionId !== transactionId) return Effect.fail(this.declined("unknown charge"))
      if (this.random.chance(this.faults.statusError)) {
        this.count("status poll failed")
        return Effect.fail(this.unavailable())
      }
      const refunds = [...this.refunds.values()].filter((r) => r.chargeRef === providerRef).map((r) => {
        this.told.sayRefund(r.refundId, r.status)
        return { providerRef: r.providerRef, status: r.status }
      })
      this.told.say(transactionId, charge.truth)
      return Effect.succeed({ providerRef, transactionId, status: charge.truth, refunds })
    })
  }

  private refund(request: RefundRequest): Effect.Effect<RefundOutcome, ProviderError> {
    return Effect.suspend(() => {
      const existing = this.refunds.get(request.refundId)
      if (existing !== undefined) {
        if (this.random.chance(this.faults.refundLost)) {
          this.count("refund answer lost")
          return Effect.fail(this.timeout())
        }
        this.told.sayRefund(existing.refundId, existing.status)
        return Effect.succeed({ providerRef: existing.providerRef, status: existing.status })
      }
      const charge = this.byRef.get(request.providerRef)
      if (charge === undefined || charge.transactionId !== request.transactionId) {
        this.told.sayRefund(request.refundId, "refused")
        return Effect.fail(this.declined("unknown charge"))
      }
      if (BigDecimal.isGreaterThan(BigDecimal.sum(this.refundedOf(charge.providerRef), request.amount), charge.amount)) {
        this.violations.push(`${this.id}: refund ${request.refundId} of ${Money.toText(request.amount)} exceeds what remains of ${charge.transactionId} (${Money.toText(charge.amount)} captured)`)
        this.told.sayRefund(request.refundId, "refused")
        return Effect.fail(this.declined("amount exceeds captured"))
      }
      const fault = this.random.weighted([
        ["refused", this.faults.refundRefused],
        ["outage", this.faults.refundOutage],
        ["lost", this.faults.refundLost],
        ["pending", this.faults.refundPending],
        ["ok", 1 - this.faults.refundRefused - this.faults.refundOutage - this.faults.refundLost - this.faults.refundPending]
      ] as const)
      this.count(`refund ${fault}`)
      if (fault === "refused") {
        this.told.sayRefund(request.refundId, "refused")
        return Effect.fail(this.declined("refund_refused"))
      }
      if (fault === "outage") return Effect.fail(this.unavailable())
      const refund: UpstreamRefund = {
        refundId: request.refundId,
        providerRef: `${this.id}_rf_${++this.refs}`,
        chargeRef: charge.providerRef,
        transactionId: charge.transactionId,
        amount: request.amount,
        status: fault === "pending" ? "pending" : "succeeded"
      }
      this.refunds.set(refund.refundId, refund)
      if (fault === "lost") return Effect.fail(this.timeout())
      this.told.sayRefund(refund.refundId, refund.status)
      return Effect.succeed({ providerRef: refund.providerRef, status: refund.status })
    })
  }

  private verifyCallback(headers: Readonly<Record<string, string | undefined>>, rawBody: string) {
    return Effect.suspend(() => {
      if (headers["x-sim-signature"] !== sign(rawBody)) return Effect.fail(new CallbackRejected({ reason: "bad signature" }))
      const parsed = JSON.parse(rawBody) as { ref: string; txn: string; status: ChargeUpdate["status"]; refunds?: Array<RefundOutcome> }
      // Delivered: from now on the engine has been told this.
      this.told.say(parsed.txn, parsed.status)
      for (const r of parsed.refunds ?? []) {
        const refund = [...this.refunds.values()].find((x) => x.providerRef === r.providerRef)
        if (refund !== undefined) this.told.sayRefund(refund.refundId, r.status)
      }
      return Effect.succeed([{ providerRef: parsed.ref, transactionId: parsed.txn, status: parsed.status, refunds: parsed.refunds }])
    })
  }

  /** The port, as the engine's `ProviderRegistry` holds it. */
  get provider(): PaymentProvider {
    return {
      id: this.id,
      displayName: this.id,
      environments: ["sandbox", "production"],
      supports: () => true,
      charge: (request) => this.charge(request),
      status: (ref, txn) => this.status(ref, txn),
      verifyCallback: (headers, rawBody) => this.verifyCallback(headers, rawBody),
      refund: (request) => this.refund(request)
    }
  }
}
