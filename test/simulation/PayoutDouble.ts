/**
 * A fault-injecting payout upstream behind the real `PayoutProvider` port. Like `ProviderDouble`,
 * it keeps its own truth (the payouts it made, deduplicated by the engine's idempotency key as a
 * real provider does) apart from what it *told* the engine (send answers, status answers,
 * callbacks delivered), so the invariants can check that the engine never reports a payout
 * outcome its provider did not give. Every fault is drawn from `random`, reseeded per step.
 *
 * Faults: refused outright (`PayoutRejected`, nothing sent); unavailable
 * (`PayoutProviderUnavailable`, nothing sent); lost answer (the payout is made, the answer is
 * `PayoutProviderUnavailable` "timeout"); accepted `processing`, then completed or failed later
 * ("rejected after acceptance"), reported by a signed callback (lost, duplicated, delivered in any
 * order) or by the status poll (which fails at times).
 */
import { BigDecimal, Effect } from "effect"
import { CallbackRejected } from "../../core/ports/PaymentProvider.ts"
import { type PayoutProvider, PayoutProviderUnavailable, PayoutRejected, type PayoutUpdate } from "../../core/ports/PayoutProvider.ts"
import * as Money from "../../core/Money.ts"
import type { Callback } from "./ProviderDouble.ts"
import { Random } from "./Random.ts"

export type PayoutTruth = "processing" | "completed" | "failed"

export interface UpstreamPayout {
  readonly upstreamKey: string
  readonly payoutId: string
  readonly providerRef: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  truth: PayoutTruth
  /** How many payouts the upstream made for this key (1 unless planted broken). */
  created: number
  calls: number
}

export interface PayoutFaultRates {
  readonly refused: number
  readonly unavailable: number
  readonly lostAnswer: number
  /** Paid at once (the send answers `completed`). */
  readonly completedAtOnce: number
  readonly statusError: number
  readonly callbackLost: number
  readonly callbackDuplicated: number
}

export const defaultPayoutFaults: PayoutFaultRates = {
  refused: 0.1,
  unavailable: 0.1,
  lostAnswer: 0.1,
  completedAtOnce: 0.2,
  statusError: 0.2,
  callbackLost: 0.25,
  callbackDuplicated: 0.25
}

const sign = (body: string) => `simpo-${body.length}-${[...body].reduce((h, c) => (h * 33 + c.charCodeAt(0)) | 0, 5)}`

export type PayoutWord = PayoutTruth | "refused"

export interface PayoutDoubleOptions {
  readonly faults?: PayoutFaultRates
  /** Planted bug: the upstream does not deduplicate payouts by idempotency key (pays again). */
  readonly ignoresIdempotencyKey?: boolean
}

export class PayoutDouble {
  readonly payouts = new Map<string, UpstreamPayout>()
  readonly byRef = new Map<string, UpstreamPayout>()
  /** Per payout id, every status the engine was told (send answers, polls, callbacks delivered). */
  readonly told = new Map<string, Set<PayoutWord>>()
  readonly injected = new Map<string, number>()
  random = new Random(1)
  private refs = 0

  readonly faults: PayoutFaultRates
  /** Every payout the upstream made, in order (a planted upstream may make two for one key). */
  readonly made: Array<UpstreamPayout> = []

  constructor(
    readonly id: string,
    readonly outbox: Array<Callback>,
    readonly options: PayoutDoubleOptions = {}
  ) {
    this.faults = options.faults ?? defaultPayoutFaults
  }

  private count(fault: string) {
    this.injected.set(fault, (this.injected.get(fault) ?? 0) + 1)
  }

  private say(payoutId: string, word: PayoutWord) {
    const s = this.told.get(payoutId) ?? new Set<PayoutWord>()
    s.add(word)
    this.told.set(payoutId, s)
  }

  said(payoutId: string, word: PayoutWord) {
    return this.told.get(payoutId)?.has(word) ?? false
  }

  setSeed(seed: number) {
    this.random = new Random(seed)
  }

  private notify(payout: UpstreamPayout) {
    if (this.random.chance(this.faults.callbackLost)) return this.count("payout callback lost")
    const body = JSON.stringify({ ref: payout.providerRef, payoutId: payout.payoutId, status: payout.truth, detail: payout.truth === "failed" ? "rejected after acceptance" : undefined })
    const callback: Callback = { providerId: this.id, body, signature: sign(body), label: `payout ${payout.truth} ${payout.payoutId}` }
    this.outbox.push(callback)
    if (this.random.chance(this.faults.callbackDuplicated)) {
      this.count("payout callback duplicated")
      this.outbox.push(callback)
    }
  }

  /** The upstream decides a payout it is processing: paid, or rejected after acceptance. */
  decide(payout: UpstreamPayout) {
    if (payout.truth !== "processing") return
    payout.truth = this.random.chance(0.75) ? "completed" : "failed"
    this.count(`payout ${payout.truth} upstream`)
    this.notify(payout)
  }

  private send(request: Parameters<PayoutProvider["send"]>[0]) {
    return Effect.suspend((): Effect.Effect<{ readonly providerRef: string; readonly status: "processing" | "completed" }, PayoutRejected | PayoutProviderUnavailable> => {
      const existing = this.payouts.get(request.idempotencyKey)
      if (existing !== undefined && this.options.ignoresIdempotencyKey !== true) {
        existing.calls++
        this.count("payout asked again with its key")
        if (this.random.chance(this.faults.lostAnswer)) {
          this.count("payout answer lost")
          return Effect.fail(new PayoutProviderUnavailable({ reason: "timeout" }))
        }
        // Asked again: the payout as it is (a failed one is reported by the poll).
        const status: "completed" | "processing" = existing.truth === "completed" ? "completed" : "processing"
        this.say(existing.payoutId, status)
        return Effect.succeed({ providerRef: existing.providerRef, status })
      }
      const fault = this.random.weighted([
        ["refused", this.faults.refused],
        ["unavailable", this.faults.unavailable],
        ["lost", this.faults.lostAnswer],
        ["ok", 1 - this.faults.refused - this.faults.unavailable - this.faults.lostAnswer]
      ] as const)
      this.count(`payout ${fault}`)
      if (fault === "refused") {
        this.say(request.payoutId, "refused")
        return Effect.fail(new PayoutRejected({ failureReason: "simulated: the beneficiary's bank refused the account" }))
      }
      if (fault === "unavailable") return Effect.fail(new PayoutProviderUnavailable({ reason: "unavailable" }))
      const payout: UpstreamPayout = {
        upstreamKey: request.idempotencyKey,
        payoutId: request.payoutId,
        providerRef: `${this.id}_po_${++this.refs}`,
        amount: Money.decimal(request.amount),
        currency: request.currency,
        truth: this.random.chance(this.faults.completedAtOnce) ? "completed" : "processing",
        created: 1,
        calls: 1
      }
      if (existing !== undefined) existing.created++
      this.payouts.set(payout.upstreamKey, payout)
      this.made.push(payout)
      this.byRef.set(payout.providerRef, payout)
      // A few scheduler turns inside the call: a crash may land between the payout and its answer.
      const turns = Effect.forEach(Array.from({ length: this.random.int(4) }), () => Effect.yieldNow, { discard: true })
      if (fault === "lost") return Effect.andThen(turns, Effect.fail(new PayoutProviderUnavailable({ reason: "timeout" })))
      const status: "completed" | "processing" = payout.truth === "completed" ? "completed" : "processing"
      return Effect.andThen(turns, Effect.sync(() => {
        this.say(payout.payoutId, status)
        return { providerRef: payout.providerRef, status }
      }))
    })
  }

  private status(providerRef: string, payoutId: string) {
    return Effect.suspend((): Effect.Effect<PayoutUpdate, PayoutProviderUnavailable> => {
      const payout = this.byRef.get(providerRef)
      if (payout === undefined || payout.payoutId !== payoutId) return Effect.fail(new PayoutProviderUnavailable({ reason: "unknown payout" }))
      if (this.random.chance(this.faults.statusError)) {
        this.count("payout status poll failed")
        return Effect.fail(new PayoutProviderUnavailable({ reason: "unavailable" }))
      }
      this.say(payoutId, payout.truth)
      return Effect.succeed({ providerRef, payoutId, status: payout.truth, detail: payout.truth === "failed" ? "rejected after acceptance" : undefined })
    })
  }

  private verifyCallback(headers: Readonly<Record<string, string | undefined>>, rawBody: string) {
    return Effect.suspend((): Effect.Effect<ReadonlyArray<PayoutUpdate>, CallbackRejected> => {
      if (headers["x-sim-signature"] !== sign(rawBody)) return Effect.fail(new CallbackRejected({ reason: "bad signature" }))
      const parsed = JSON.parse(rawBody) as { ref: string; payoutId: string; status: PayoutTruth; detail?: string }
      this.say(parsed.payoutId, parsed.status)
      return Effect.succeed([{ providerRef: parsed.ref, payoutId: parsed.payoutId, status: parsed.status, detail: parsed.detail }])
    })
  }

  get provider(): PayoutProvider {
    return {
      id: this.id,
      environments: ["sandbox", "production"],
      supports: () => true,
      send: (request) => this.send(request),
      status: (ref, payoutId) => this.status(ref, payoutId),
      verifyCallback: (headers, rawBody) => this.verifyCallback(headers, rawBody)
    }
  }
}
