/**
 * What a run did, for its report: the payments', claims' and payouts' final states (and the
 * payout upstream's truth), the webhook deliveries by status and what the endpoint received, the
 * faults the upstreams and the endpoint injected, and observations that are not invariants but worth knowing (upstream
 * charges whose answer was lost: those the engine still asks about, and those of payments that
 * ended without one, abandoned at expiry; payouts the upstream decided that stay processing).
 */
import { DateTime, Effect } from "effect"
import { JobStore } from "../../core/ports/JobStore.ts"
import { RefundStore } from "../../core/ports/RefundStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { PayoutStore } from "../../core/ports/PayoutStore.ts"
import { WebhookStore } from "../../core/ports/WebhookStore.ts"
import { allCharges, type World } from "./Operations.ts"

const tally = (xs: Iterable<string>) => {
  const counts = new Map<string, number>()
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(", ")
}

export const summarize = (world: World) =>
  Effect.gen(function*() {
    const store = yield* PaymentStore
    const { rows } = yield* store.list(world.scope.environment, world.scope.shop.id, {}, { limit: 1_000_000, offset: 0 })
    const claimStore = yield* RefundStore
    const claims = (yield* Effect.forEach(rows, (p) => claimStore.forPayment(p.id))).flat()
    const injected = new Map<string, number>()
    for (const d of world.doubles) for (const [k, n] of d.injected) injected.set(k, (injected.get(k) ?? 0) + n)
    const byId = new Map(rows.map((p) => [p.id, p]))
    const unanswered = allCharges(world).filter((c) => {
      const p = byId.get(c.transactionId)
      return p !== undefined && c.providerRef !== p.providerRef
    })
    const asking = unanswered.filter((c) => byId.get(c.transactionId)!.status === "initiated").length
    const abandoned = unanswered.length - asking
    const backlog = yield* (yield* JobStore).backlog(yield* DateTime.now)
    const { rows: payouts } = yield* (yield* PayoutStore).list(world.scope.environment, world.scope.shop.id, {}, { limit: 1_000_000, offset: 0 })
    const { rows: deliveries } = yield* (yield* WebhookStore).listDeliveries(world.webhookId, {}, { limit: 1_000_000, offset: 0 })
    const counts = (m: ReadonlyMap<string, number>) => [...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(", ")
    const received = [...world.receiver.received.values()]
    const truthOf = new Map([...world.payouts.payouts.values()].map((u) => [u.payoutId, u.truth]))
    const stuck = payouts.filter((p) => p.status === "processing" && (truthOf.get(p.id) ?? "processing") !== "processing").map((p) => `${p.id} (${truthOf.get(p.id)} upstream)`)
    return [
      `payments: ${tally(rows.map((p) => p.status))}`,
      `claims: ${tally(claims.map((c) => `${c.kind}:${c.status}`))}`,
      `faults injected: ${[...injected].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(", ")}`,
      `steps: ${tally(world.log.map((l) => /^\s*\d+\s+(\S+)/.exec(l)?.[1] ?? "?"))}`,
      `payouts: ${tally(payouts.map((p) => `${p.status}${p.providerRef === null && p.status === "processing" ? " (no provider reference)" : ""}`))}; upstream: ${tally([...world.payouts.payouts.values()].map((u) => u.truth))}`,
      `payout faults injected: ${counts(world.payouts.injected)}`,
      `webhook deliveries: ${tally(deliveries.map((d) => d.status))}; attempts ${deliveries.reduce((s, d) => s + d.attempts, 0)}; events received ${received.length} (${received.filter((n) => n > 1).length} more than once)`,
      `endpoint faults injected: ${counts(world.receiver.injected)}`,
      `jobs left due: ${backlog.filter((b) => b.due > 0).map((b) => `${b.kind} ${b.due}`).join(", ") || "none"}; dead: ${backlog.filter((b) => b.dead > 0).map((b) => `${b.kind} ${b.dead}`).join(", ") || "none"}`,
      `observed: ${asking} upstream charge(s) whose answer was lost, still asked about; ${abandoned} of payments that ended without an answer from it`,
      `observed: ${stuck.length} payout(s) still processing whose upstream decided (no word reached the engine within its poll window: the operator's)${stuck.length > 0 ? `: ${stuck.join(", ")}` : ""}`
    ]
  })
