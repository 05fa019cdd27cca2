/** The operator's lists: merchants with their shops, and every shop's payouts, claims and withdrawals by status. */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { withdrawalView } from "../../../../core/balances/Withdrawals.ts"
import { claimView } from "../../../../core/refunds/ClaimView.ts"
import { payoutView } from "../../../../core/payouts/Payouts.ts"
import { RefundStore } from "../../../../core/ports/RefundStore.ts"
import { PayoutStore } from "../../../../core/ports/PayoutStore.ts"
import { RoutingStore } from "../../../../core/ports/RoutingStore.ts"
import { circuitOf } from "../../../../core/routing/Health.ts"
import { healthReport } from "../../../../core/routing/HealthReport.ts"
import { TenancyStore } from "../../../../core/ports/TenancyStore.ts"
import { WithdrawalStore } from "../../../../core/ports/WithdrawalStore.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clampPage, pagination } from "../support/Paging.ts"

export const OperatorAdminHandlers = HttpApiBuilder.group(Api, "operatorAdmin", (handlers) =>
  Effect.gen(function*() {
    const tenancy = yield* TenancyStore
    const payouts = yield* PayoutStore
    const claims = yield* RefundStore
    const withdrawals = yield* WithdrawalStore
    const routing = yield* RoutingStore
    const iso = (ms: number) => DateTime.formatIso(DateTime.makeUnsafe(ms))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      listMerchants: ({ query }) =>
        documented("operatorAdmin.listMerchants", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* tenancy.listMerchants(page)
          const data = yield* Effect.forEach(rows, (m) =>
            Effect.map(tenancy.listShops(m.id), (shops) => ({
              id: m.id,
              name: m.name,
              email: m.email,
              industry: m.industry,
              tier: m.tier,
              createdAt: DateTime.formatIso(m.createdAt),
              shops: shops.map((s) => ({ id: s.id, name: s.name }))
            })))
          return { data, pagination: pagination(total, page) }
        })),
      providerHealth: ({ query }) =>
        documented("operatorAdmin.providerHealth", Effect.gen(function*() {
          const hours = query.hours ?? 24
          const now = DateTime.toEpochMillis(yield* DateTime.now)
          const since = (Math.floor(now / 3_600_000) - (hours - 1)) * 3_600_000
          const outcomes = yield* routing.since(query.environment, since, 200_000)
          const pairs = [...new Set(outcomes.map((o) => `${o.providerId}\u0000${o.methodId}`))]
          // The circuit from the latest health outcomes, as routing reads them (the window routing uses).
          const circuits = new Map(yield* Effect.forEach(pairs, (pair) => {
            const [providerId, methodId] = pair.split("\u0000") as [string, string]
            return Effect.map(routing.recent({ environment: query.environment, providerId, methodId }, "health", 50), (recent) =>
              [pair, circuitOf(recent.map((o) => ({ at: o.at, kind: o.kind === "bad" || o.kind === "probe" ? o.kind : "ok" as const, latencyMs: o.latencyMs })), now)] as const)
          }))
          const rails = healthReport(outcomes, (p, m) => circuits.get(`${p}\u0000${m}`)!, now, hours)
          return {
            environment: query.environment,
            hours,
            rails: rails.map((r) => ({
              ...r,
              circuit: { state: r.circuit.state, consecutiveBad: r.circuit.consecutiveBad, openedAt: r.circuit.openedAt === null ? null : iso(r.circuit.openedAt) },
              hours: r.hours.map((h) => ({ ...h, hour: iso(h.hour) }))
            }))
          }
        })),
      listPayouts: ({ query }) =>
        documented("operatorAdmin.listPayouts", Effect.gen(function*() {
          const page = clampPage(query)
          const now = yield* DateTime.now
          const createdBefore = query.olderThanMinutes === undefined ? undefined : DateTime.subtract(now, { minutes: query.olderThanMinutes })
          const { rows, total } = yield* payouts.listAll({ environment: query.environment, status: query.status, createdBefore }, page)
          return { data: rows.map((p) => ({ ...payoutView(p), shopId: p.shopId, environment: p.environment })), pagination: pagination(total, page) }
        })),
      listClaims: ({ query }) =>
        documented("operatorAdmin.listClaims", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* claims.listAll({ environment: query.environment, kind: query.kind, status: query.status }, page)
          return { data: rows.map((c) => ({ ...claimView(c), shopId: c.shopId, environment: c.environment })), pagination: pagination(total, page) }
        })),
      listWithdrawals: ({ query }) =>
        documented("operatorAdmin.listWithdrawals", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* withdrawals.listAll({ environment: query.environment, status: query.status }, page)
          return { data: rows.map((w) => ({ ...withdrawalView(w), shopId: w.shopId })), pagination: pagination(total, page) }
        }))
    })
  }))
