/**
 * What must hold after every step of a simulated history. Each check answers the violations it
 * found (empty: it holds); the simulator stops at the first step with any.
 *
 * Money (the ledger, read through the real `LedgerStore`):
 *   L1. Every journal entry balances: per currency, its postings sum to zero.
 *   L2. No guarded book (the merchant's books) is negative, recomputed from the postings.
 *   L3. The cached balances equal the sums of the postings (`LedgerStore.postingSums`), book by
 *       book and currency by currency (both stores keep cached balances).
 *
 * Exactly once (the clients' answers, the key bindings the store was asked for, the upstream):
 *   E1. Every Idempotency-Key maps to at most one payment record: all its successful answers
 *       name one payment, that payment is bound to it, and it is bound to at most one record
 *       that exists, but records that ended in an error (a failed cascade: errors are never
 *       stored, so a retry with the key starts afresh, as `docs/money.md`, "Exactly once", says).
 *   E2. Every payment record is bound to at most one key.
 *   E3. Every upstream key (`<transactionId>:<providerId>`) was charged at most once upstream.
 *   E4. An upstream is never charged for a record that was not committed: every upstream charge
 *       names a payment record the store holds.
 *   E5. A payment is charged at one provider at most: the cascade moves on only after an answer
 *       that left nothing behind (a decline, an outage that refused the call), never after a
 *       timeout or a lost answer, when the first provider may hold a live charge.
 *
 * Refunds:
 *   R1. Per payment, the refunds not rejected never exceed its local amount.
 *   R2. Upstream, the refunds of a charge never exceed what it captured (the double refuses and
 *       records it).
 *   R3. A refund approved was reported succeeded by its provider; a refund rejected was refused or
 *       reported failed.
 *
 * Outcomes (the engine never reports an outcome no provider gave):
 *   O1. A payment completed (or later refunded or charged back) was reported `completed` by a
 *       provider (charge answer, status poll or callback).
 *   O2. A payment failed was reported failed or declined, or no provider accepted it.
 *   O3. A chargeback claim exists only for a payment a provider reported charged back; one won or
 *       lost by the provider was reported with that outcome.
 *
 * Shares (as the ledger property test, after every step):
 *   S1. What a payment's own entries and its claims' entries did to `payin_pending` and
 *       `payin_reserve` (USD) equals its share on the record (`Shares.ts`), never negative, and
 *       each pooled book is the sum of the shares: no payment's money is spent by another.
 *
 * Payouts (a client Idempotency-Key per send; the payout upstream's own truth in `PayoutDouble`):
 *   P1. Every payout key maps to at most one payout record: all its successful answers name one
 *       payout, bound to it; it is bound to at most one record but those refused at dispatch (an
 *       error, not stored: a retry starts afresh); a payout is bound to at most one key. Upstream,
 *       one payout per engine key (the payout id), made once.
 *   P2. The engine never invents a payout outcome: a payout completed was reported `completed` by
 *       its provider (send answer, poll or callback), and the upstream did pay it; a failed one
 *       was refused or reported failed, and the upstream holds no paid payout for it. A provider
 *       reference on the record is the upstream's.
 *   P3. Money: a debited payout has exactly one `payout.debit` entry; a completed one exactly one
 *       `payout.completed` and no `payout.failed`; a failed one exactly one `payout.failed` (the
 *       reversal) and no `payout.completed`; a processing one neither. Per payout the entries net
 *       `payout_available` to -amount (processing, completed) or 0 (failed), and `payouts_in_flight`
 *       holds exactly the processing payouts' amounts.
 *   P4. The upstream never paid (or holds) a payout the store does not hold.
 *
 * Events and webhooks (the shop subscribes its endpoint, `WebhookReceiver`, to every event):
 *   V1. Every payment that completed has its `payment.completed` event; every failed or expired
 *       one its `payment.failed`.
 *   V2. Every completed payout has exactly one `payout.completed` event and no `payout.failed`;
 *       every failed one exactly one `payout.failed` and no `payout.completed`; a processing one
 *       neither.
 *   W2. Every event of the shop has exactly one delivery to the endpoint (fanned out in the
 *       event's transaction); every delivery the endpoint was sent is in the store, and one the
 *       engine records `succeeded` was answered 2xx by the endpoint; every body it got was an
 *       event's JSON whose signature verifies with the subscription's secret on the real clock
 *       (`verifySignature`, as `verifyWebhook`; the endpoint answers 401 otherwise). (After each step for the new events and the deliveries sent since
 *       the last check; once settled, over every delivery, with: none names an event the outbox
 *       does not hold, none is succeeded that the endpoint did not answer 2xx.)
 *   W1 (after the history settled, `checkDeliveries`): every event was delivered successfully at
 *       least once, or its delivery is dead-lettered with a reason (the endpoint's last answer).
 *
 * Jobs (after the history settled, in `Run.ts`):
 *   J1. Every job ran or is dead-lettered with a reason: none is left due.
 *
 * Not checked yet: conservation once everything settled (what a payment put in = settled +
 * released + taken by claims; needs a final drain to the last release); a payout whose
 * provider's word never reaches the engine (callback lost, poll rounds spent) stays `processing`
 * for the operator's `resolve` (the summary counts them, nothing asserts on them); webhooks: a
 * 410 that turns the subscription off, secret rotation (`v0`), replays, several subscriptions;
 * concurrent requests (steps run one at a time, but for the crash steps).
 */
import { BigDecimal, Effect, Option } from "effect"
import { isGuarded } from "../../core/ledger/Journal.ts"
import { imbalance } from "../../core/ledger/Ledger.ts"
import * as Shares from "../../core/payments/Shares.ts"
import * as Money from "../../core/Money.ts"
import { RefundStore } from "../../core/ports/RefundStore.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { PayoutStore } from "../../core/ports/PayoutStore.ts"
import { WebhookStore } from "../../core/ports/WebhookStore.ts"
import type { Payment } from "../../core/payments/Payment.ts"
import { allCharges, type World } from "./Operations.ts"
import type { UpstreamPayout } from "./PayoutDouble.ts"

const text = (x: BigDecimal.BigDecimal) => Money.toText(x)

export const checkInvariants = (world: World) =>
  Effect.gen(function*() {
    const violations: Array<string> = []
    const fail = (code: string, message: string) => violations.push(`${code}: ${message}`)
    const { environment, shop } = world.scope
    const ledger = yield* LedgerStore
    const paymentStore = yield* PaymentStore
    const claimStore = yield* RefundStore

    // L1-L3
    const { entries } = yield* ledger.entries(environment, shop.id, { limit: 1_000_000, offset: 0 })
    for (const entry of entries) {
      const off = imbalance(entry)
      if (off.length > 0) fail("L1", `entry ${entry.id} (${entry.kind} ${entry.reference}) does not balance: ${off.map(([c, a]) => `${c} ${text(a)}`).join(", ")}`)
    }
    const sums = yield* ledger.postingSums(environment, shop.id)
    const cached = yield* ledger.balances(environment, shop.id)
    for (const s of sums) {
      if (isGuarded(s.book) && BigDecimal.isNegative(s.balance)) fail("L2", `${s.book} ${s.currency} is ${text(s.balance)}`)
      const c = cached.find((x) => x.book === s.book && x.currency === s.currency)
      if (c === undefined ? !BigDecimal.isZero(s.balance) : !BigDecimal.equals(c.balance, s.balance)) {
        fail("L3", `${s.book} ${s.currency}: cached ${c === undefined ? "none" : text(c.balance)}, postings ${text(s.balance)}`)
      }
    }
    for (const c of cached) {
      if (!sums.some((s) => s.book === c.book && s.currency === c.currency) && !BigDecimal.isZero(c.balance)) {
        fail("L3", `${c.book} ${c.currency}: cached ${text(c.balance)}, no postings`)
      }
    }

    // E1, E2 (every record is the shop's: one read of them all)
    const { rows: payments } = yield* paymentStore.list(environment, shop.id, {}, { limit: 1_000_000, offset: 0 })
    const records = new Map(payments.map((p) => [p.id, p]))
    const record = (id: string) => Effect.succeed(Option.fromUndefinedOr(records.get(id)))
    const committed = (id: string) => Effect.map(record(id), Option.isSome)
    const keysOfRecord = new Map<string, Array<string>>()
    for (const [key, ids] of world.answers) {
      if (ids.size > 1) fail("E1", `key ${key} answered ${ids.size} payments: ${[...ids].join(", ")}`)
    }
    for (const [key, ids] of world.bindings) {
      const bound: Array<Payment> = []
      for (const id of ids) {
        const found = yield* record(id)
        if (Option.isSome(found)) bound.push(found.value)
      }
      // A create that ended in an error left its record failed and freed its key (errors are
      // never stored): a retry with the key starts afresh. Every other record counts.
      const live = bound.filter((p) => !(p.status === "failed" && !p.attempts.some((a) => a.outcome === "accepted")))
      if (live.length > 1) fail("E1", `key ${key} is bound to ${live.length} records: ${live.map((p) => `${p.id} (${p.status})`).join(", ")}`)
      for (const p of bound) keysOfRecord.set(p.id, [...keysOfRecord.get(p.id) ?? [], key])
      for (const answered of world.answers.get(key) ?? []) {
        if (!bound.some((p) => p.id === answered)) fail("E1", `key ${key} answered ${answered}, which it is not bound to`)
      }
    }
    for (const [id, keys] of keysOfRecord) {
      if (keys.length > 1) fail("E2", `payment ${id} is bound to keys ${keys.join(", ")}`)
    }

    // E3-E5
    const chargedAt = new Map<string, Array<string>>()
    for (const charge of allCharges(world)) {
      chargedAt.set(charge.transactionId, [...chargedAt.get(charge.transactionId) ?? [], charge.upstreamKey])
      if (charge.created > 1) fail("E3", `upstream key ${charge.upstreamKey} was charged ${charge.created} times`)
      if (!(yield* committed(charge.transactionId))) fail("E4", `upstream charged ${charge.upstreamKey} for ${charge.transactionId}, which the store does not hold`)
    }
    for (const [id, keys] of chargedAt) {
      if (keys.length > 1) fail("E5", `${id} was charged at ${keys.length} providers: ${keys.join(", ")}`)
    }

    // R1-R3, O1-O3, V1
    const { rows: allClaims } = yield* claimStore.listAll({ environment }, { limit: 1_000_000, offset: 0 })
    const claimsOf = new Map<string, Array<(typeof allClaims)[number]>>()
    for (const c of allClaims) claimsOf.set(c.transactionId, [...claimsOf.get(c.transactionId) ?? [], c])
    const events = yield* (yield* OutboxStore).list(environment, shop.id)
    // The events' types by the object they are about (one pass: the outbox grows with the history).
    const typesByTx = new Map<string, Array<string>>()
    const typesByRelated = new Map<string, Array<string>>()
    for (const e of events) {
      if (e.relatedTxId !== null) typesByTx.set(e.relatedTxId, [...typesByTx.get(e.relatedTxId) ?? [], e.type])
      if (e.relatedId !== null) typesByRelated.set(e.relatedId, [...typesByRelated.get(e.relatedId) ?? [], e.type])
    }
    const eventsOf = (id: string) => new Set(typesByTx.get(id) ?? [])
    const told = world.told
    for (const p of payments) {
      const claims = claimsOf.get(p.id) ?? []
      const refunds = claims.filter((c) => c.kind === "user_dispute")
      const counted = refunds.filter((c) => c.status !== "rejected").reduce((s, c) => BigDecimal.sum(s, c.amount), Money.zero)
      if (BigDecimal.isGreaterThan(counted, p.amountLocal)) fail("R1", `${p.id}: refunds ${text(counted)} exceed ${text(p.amountLocal)} ${p.currencyLocal}`)
      for (const r of refunds) {
        const said = told.refunds.get(r.id) ?? new Set()
        if (r.status === "approved" && !said.has("succeeded")) fail("R3", `refund ${r.id} of ${p.id} approved, its provider said ${[...said].join("/") || "nothing"}`)
        if (r.status === "rejected" && !said.has("failed") && !said.has("refused")) fail("R3", `refund ${r.id} of ${p.id} rejected, its provider said ${[...said].join("/") || "nothing"}`)
      }
      const wasCompleted = p.completedAt !== null || p.status === "completed" || p.status === "refunded" || p.status === "chargeback"
      const charged = ["chargeback", "chargeback_won", "chargeback_lost"].some((s) => told.said(p.id, s))
      if (wasCompleted && !told.said(p.id, "completed") && !charged) fail("O1", `${p.id} is ${p.status}, no provider reported it completed`)
      if (p.status === "failed" && !told.said(p.id, "failed") && !told.said(p.id, "declined") && p.attempts.some((a) => a.outcome === "accepted")) {
        fail("O2", `${p.id} is failed (${p.failureReason}), its provider accepted it and never said it failed`)
      }
      for (const c of claims.filter((c) => c.kind === "chargeback")) {
        if (!charged) fail("O3", `${p.id} has chargeback ${c.id}, no provider reported one`)
        if (c.resolvedBy === "provider" && (c.status === "won" || c.status === "lost") && !told.said(p.id, `chargeback_${c.status}`)) {
          fail("O3", `chargeback ${c.id} ${c.status} by the provider, which never said so`)
        }
      }
      const types = eventsOf(p.id)
      if (p.completedAt !== null && !types.has("payment.completed")) fail("V1", `${p.id} completed without payment.completed`)
      if ((p.status === "failed" || p.status === "expired") && !types.has("payment.failed")) fail("V1", `${p.id} ${p.status} without payment.failed`)
    }
    for (const d of world.doubles) for (const v of d.violations) fail("R2", v)

    // P1-P4, V2
    const { rows: payouts } = yield* (yield* PayoutStore).list(environment, shop.id, {}, { limit: 1_000_000, offset: 0 })
    const payoutRecords = new Map(payouts.map((p) => [p.id, p]))
    const upstream = world.payouts
    const upstreamOf = new Map<string, Array<UpstreamPayout>>()
    for (const u of upstream.made) upstreamOf.set(u.payoutId, [...upstreamOf.get(u.payoutId) ?? [], u])
    const refusedAtDispatch = (id: string) => upstream.said(id, "refused")
    for (const [key, ids] of world.payoutAnswers) {
      if (ids.size > 1) fail("P1", `payout key ${key} answered ${ids.size} payouts: ${[...ids].join(", ")}`)
    }
    const keysOfPayout = new Map<string, Array<string>>()
    for (const [key, ids] of world.bindings) {
      const bound = [...ids].flatMap((id) => payoutRecords.get(id) ?? [])
      if (bound.length === 0) continue
      const live = bound.filter((p) => !(p.status === "failed" && refusedAtDispatch(p.id)))
      if (live.length > 1) fail("P1", `payout key ${key} is bound to ${live.length} payouts: ${live.map((p) => `${p.id} (${p.status})`).join(", ")}`)
      for (const p of bound) keysOfPayout.set(p.id, [...keysOfPayout.get(p.id) ?? [], key])
      for (const answered of world.payoutAnswers.get(key) ?? []) {
        if (!bound.some((p) => p.id === answered)) fail("P1", `payout key ${key} answered ${answered}, which it is not bound to`)
      }
    }
    for (const [id, keys] of keysOfPayout) if (keys.length > 1) fail("P1", `payout ${id} is bound to keys ${keys.join(", ")}`)
    for (const [id, us] of upstreamOf) {
      if (us.length > 1) fail("P1", `${id} was paid out upstream ${us.length} times: ${us.map((u) => u.providerRef).join(", ")}`)
      for (const u of us) if (u.created > 1) fail("P1", `upstream key ${u.upstreamKey} made ${u.created} payouts`)
      if (!payoutRecords.has(id)) fail("P4", `the upstream ${us[0]!.truth === "completed" ? "paid" : "holds"} ${id} (${us.map((u) => u.providerRef).join(", ")}), which the store does not hold`)
    }
    const payoutEntries = new Map<string, Array<(typeof entries)[number]>>()
    for (const e of entries) if (payoutRecords.has(e.reference)) payoutEntries.set(e.reference, [...payoutEntries.get(e.reference) ?? [], e])
    let inFlight = Money.zero
    for (const p of payouts) {
      const us = upstreamOf.get(p.id) ?? []
      if (p.status === "completed") {
        if (!upstream.said(p.id, "completed")) fail("P2", `${p.id} is completed, its provider never said so (said ${[...upstream.told.get(p.id) ?? []].join("/") || "nothing"})`)
        if (!us.some((u) => u.truth === "completed")) fail("P2", `${p.id} is completed, the upstream did not pay it (${us.map((u) => u.truth).join("/") || "no payout upstream"})`)
      }
      if (p.status === "failed") {
        if (!upstream.said(p.id, "refused") && !upstream.said(p.id, "failed")) fail("P2", `${p.id} is failed (${p.failureReason}), its provider never refused it nor said it failed`)
        if (us.some((u) => u.truth === "completed")) fail("P2", `${p.id} is failed (debit reversed), the upstream paid it`)
      }
      if (p.providerRef !== null && !us.some((u) => u.providerRef === p.providerRef)) fail("P2", `${p.id} holds provider reference ${p.providerRef}, not the upstream's`)
      if (p.status === "processing") inFlight = BigDecimal.sum(inFlight, p.debited ? p.amount : Money.zero)
      if (p.debited) {
        const mine = payoutEntries.get(p.id) ?? []
        const count = (kind: string) => mine.filter((e) => e.kind === kind).length
        const want = { "payout.debit": 1, "payout.completed": p.status === "completed" ? 1 : 0, "payout.failed": p.status === "failed" ? 1 : 0 }
        for (const [kind, n] of Object.entries(want)) {
          if (count(kind) !== n) fail("P3", `${p.id} (${p.status}) has ${count(kind)} ${kind} entr${count(kind) === 1 ? "y" : "ies"}, expected ${n}`)
        }
        const available = mine.flatMap((e) => e.postings).filter((x) => x.book === "payout_available" && x.currency === p.currency).reduce((s, x) => BigDecimal.sum(s, x.amount), Money.zero)
        const expected = p.status === "failed" ? Money.zero : BigDecimal.negate(p.amount)
        if (!BigDecimal.equals(available, expected)) fail("P3", `${p.id} (${p.status}) took ${text(available)} ${p.currency} from payout_available, expected ${text(expected)}`)
      }
      const types = typesByRelated.get(p.id) ?? []
      const n = (type: string) => types.filter((t) => t === type).length
      const wantEvents = { "payout.completed": p.status === "completed" ? 1 : 0, "payout.failed": p.status === "failed" ? 1 : 0 }
      for (const [type, k] of Object.entries(wantEvents)) if (n(type) !== k) fail("V2", `${p.id} (${p.status}) has ${n(type)} ${type} event(s), expected ${k}`)
    }
    const flying = sums.find((x) => x.book === "payouts_in_flight" && x.currency === "MXN")?.balance ?? Money.zero
    if (!BigDecimal.equals(flying, inFlight)) fail("P3", `payouts_in_flight MXN is ${text(flying)}, the processing payouts sum to ${text(inFlight)}`)

    // W2, step by step: the fan-out of the events new since the last check, and the deliveries the
    // endpoint was sent since then (a SQL store's read of every delivery after every step would
    // cost the CI run more than the rest of the checks); all of them again once settled.
    const webhookStore = yield* WebhookStore
    for (const e of events) {
      if (world.checkedEvents.has(e.id)) continue
      world.checkedEvents.add(e.id)
      const k = (yield* webhookStore.deliveriesOfEvent(environment, shop.id, e.id)).filter((d) => d.webhookId === world.webhookId).length
      if (k !== 1) fail("W2", `event ${e.id} (${e.type}) has ${k} deliveries to the endpoint`)
    }
    for (const id of new Set(world.receiver.attempted.splice(0))) {
      const found = yield* webhookStore.findDelivery(world.webhookId, id)
      if (Option.isNone(found)) fail("W2", `the endpoint was sent delivery ${id}, which the store does not hold`)
      else if (found.value.status === "succeeded" && !world.receiver.acknowledged.has(id)) fail("W2", `delivery ${id} (${found.value.event}) is succeeded, the endpoint never answered it 2xx`)
    }
    for (const v of world.receiver.violations) fail("W2", v)

    // S1
    const paymentOf = new Map<string, string>(payments.map((p) => [p.id, p.id]))
    for (const c of allClaims) paymentOf.set(c.id, c.transactionId)
    const booked = new Map<string, { payin_pending: BigDecimal.BigDecimal; payin_reserve: BigDecimal.BigDecimal }>()
    for (const entry of entries) {
      const owner = paymentOf.get(entry.reference)
      if (owner === undefined) continue
      const b = booked.get(owner) ?? { payin_pending: Money.zero, payin_reserve: Money.zero }
      for (const posting of entry.postings) {
        if (posting.currency === "USD" && (posting.book === "payin_pending" || posting.book === "payin_reserve")) {
          b[posting.book] = BigDecimal.sum(b[posting.book], posting.amount)
        }
      }
      booked.set(owner, b)
    }
    const pools = { payin_pending: Money.zero, payin_reserve: Money.zero }
    for (const p of payments) {
      const b = booked.get(p.id) ?? { payin_pending: Money.zero, payin_reserve: Money.zero }
      for (const [book, share] of [["payin_pending", Shares.pendingShare(p)], ["payin_reserve", Shares.reserveShare(p)]] as const) {
        if (BigDecimal.isNegative(b[book])) fail("S1", `${p.id}: its entries took ${book} to ${text(b[book])}`)
        if (!BigDecimal.equals(b[book], share)) fail("S1", `${p.id}: ${book} booked ${text(b[book])}, its share on the record ${text(share)}`)
        pools[book] = BigDecimal.sum(pools[book], share)
      }
    }
    for (const book of ["payin_pending", "payin_reserve"] as const) {
      const pooled = sums.find((x) => x.book === book && x.currency === "USD")?.balance ?? Money.zero
      if (!BigDecimal.equals(pooled, pools[book])) fail("S1", `${book} USD is ${text(pooled)}, the payments' shares sum to ${text(pools[book])}`)
    }
    return violations
  })


const deliveriesOf = (world: World) =>
  Effect.gen(function*() {
    return (yield* (yield* WebhookStore).listDeliveries(world.webhookId, {}, { limit: 1_000_000, offset: 0 })).rows
  })

/**
 * After the history has settled: W2 over every delivery at once (one delivery per event, none for
 * an event the outbox does not hold, none succeeded that the endpoint did not answer 2xx), and W1:
 * every event of the shop was delivered to its endpoint at least once, or its delivery is
 * dead-lettered with a reason.
 */
export const checkDeliveries = (world: World) =>
  Effect.gen(function*() {
    const { environment, shop } = world.scope
    const events = yield* (yield* OutboxStore).list(environment, shop.id)
    const deliveries = yield* deliveriesOf(world)
    const violations: Array<string> = []
    const eventIds = new Set(events.map((e) => e.id))
    const perEvent = new Map<string, number>()
    for (const d of deliveries) {
      perEvent.set(d.eventId, (perEvent.get(d.eventId) ?? 0) + 1)
      if (!eventIds.has(d.eventId)) violations.push(`W2: delivery ${d.id} names event ${d.eventId}, which the outbox does not hold`)
      if (d.status === "succeeded" && !world.receiver.acknowledged.has(d.id)) violations.push(`W2: delivery ${d.id} (${d.event}) is succeeded, the endpoint never answered it 2xx`)
    }
    for (const e of events) {
      const k = perEvent.get(e.id) ?? 0
      if (k !== 1) violations.push(`W2: event ${e.id} (${e.type}) has ${k} deliveries to the endpoint`)
    }
    const byEvent = new Map(deliveries.map((d) => [d.eventId, d]))
    for (const e of events) {
      const d = byEvent.get(e.id)
      if (d === undefined) continue // W2's
      if (d.status === "succeeded") continue
      if (d.status === "dead_letter" && (d.lastError ?? "").trim() !== "") continue
      violations.push(`W1: event ${e.id} (${e.type}) is ${d.status} after ${d.attempts} attempt(s)${d.status === "dead_letter" ? " without a reason" : ""}`)
    }
    return violations
  })
