/**
 * What routing reads for a payment (`RoutingStore.snapshot`: the shop's configuration, its routes
 * and the health of the providers serving the rail), kept by this engine for `keepMs` per shop,
 * environment and rail. Reading it for every payment was a statement, and the most expensive one,
 * of each create.
 *
 * What this engine learns is never stale here: every outcome it records (`record`) counts at once,
 * added to a kept snapshot. A change this engine makes to a shop's routing (`forget`) applies at
 * once. What other replicas record or change counts within `keepMs`.
 */
import { Effect } from "effect"
import type { Environment } from "../Environment.ts"
import { familyOf, latestPerProvider, type RoutingOutcome, type RoutingSnapshot, type RoutingStore } from "../ports/RoutingStore.ts"

/** Shops whose snapshots an engine keeps at most; past that it starts over. */
const maxShops = 10_000

interface Kept {
  readonly snapshot: RoutingSnapshot
  /** The providers its health was read for. */
  readonly providerIds: string
  /** Real epoch ms until which it answers. */
  readonly until: number
  /** The local outcomes recorded before it was read (those after are added to it). */
  readonly seen: number
}

/** An outcome this engine recorded, numbered in the order it did. */
interface Local {
  readonly seq: number
  readonly outcome: RoutingOutcome
}

export interface SnapshotKey {
  readonly environment: Environment
  readonly shopId: string
  readonly methodId: string
}

export const makeSnapshots = (store: RoutingStore["Service"], keepMs: number) => {
  const shops = new Map<string, Map<string, Kept>>()
  const shopKey = (environment: Environment, shopId: string) => `${environment}|${shopId}`

  // The health outcomes this engine recorded in at least the last `2 * keepMs` per environment and
  // rail (a kept snapshot is younger than `keepMs`, so that covers every outcome one may lack),
  // oldest first.
  const local = new Map<string, Array<Local>>()
  const railKey = (environment: Environment, methodId: string) => `${environment}|${methodId}`
  let recorded = 0

  /** Records an outcome in the store (for every replica) and here (for this engine's kept snapshots). */
  const record = (outcome: RoutingOutcome) =>
    Effect.andThen(store.record(outcome), Effect.sync(() => {
      if (familyOf(outcome.kind) !== "health") return
      const rail = railKey(outcome.environment, outcome.methodId)
      let list = local.get(rail) ?? []
      // Pruned in one go once the oldest is `4 * keepMs` old, to the last `2 * keepMs`: a copy every
      // few seconds, not one per outcome (a busy rail records hundreds a second).
      if (list.length > 0 && list[0]!.outcome.at < outcome.at - 4 * keepMs) {
        let drop = 0
        while (drop < list.length && list[drop]!.outcome.at < outcome.at - 2 * keepMs) drop++
        list = list.slice(drop)
      }
      list.push({ seq: ++recorded, outcome })
      local.set(rail, list)
    }))

  /**
   * A kept snapshot with the outcomes recorded here since it was read. Only the last `limit` of
   * each provider count, so the walk from the newest stops once every provider has that many: a
   * read costs the same after one outcome or a thousand.
   */
  const withLocal = (kept: Kept, key: SnapshotKey, providerIds: ReadonlyArray<string>, limit: number): RoutingSnapshot => {
    const list = local.get(railKey(key.environment, key.methodId)) ?? []
    const since: Array<RoutingOutcome> = []
    const counted = new Map<string, number>()
    let full = 0
    for (let i = list.length - 1; i >= 0 && list[i]!.seq > kept.seen && full < providerIds.length; i--) {
      const { outcome } = list[i]!
      if (!providerIds.includes(outcome.providerId)) continue
      const count = counted.get(outcome.providerId) ?? 0
      if (count === limit) continue
      counted.set(outcome.providerId, count + 1)
      if (count + 1 === limit) full++
      since.push(outcome)
    }
    return since.length === 0 ? kept.snapshot : { ...kept.snapshot, health: latestPerProvider([...kept.snapshot.health, ...since.reverse()], limit) }
  }

  /** Reads the store, and keeps what it answered. */
  const fresh = (key: SnapshotKey, providerIds: ReadonlyArray<string>, limit: number, now: number) =>
    Effect.suspend(() => {
      // Outcomes recorded while the read runs are added to it later: one may count twice, none is missed.
      const seen = recorded
      return Effect.tap(store.snapshot(key, providerIds, limit), (snapshot) =>
        Effect.sync(() => {
          const shop = shopKey(key.environment, key.shopId)
          let rails = shops.get(shop)
          if (rails === undefined) {
            if (shops.size >= maxShops) shops.clear()
            rails = new Map()
            shops.set(shop, rails)
          }
          rails.set(key.methodId, { snapshot, providerIds: providerIds.join(","), until: now + keepMs, seen })
        }))
    }).pipe(Effect.withSpan("Routing.snapshot"))

  return {
    record,
    fresh,
    /** The kept snapshot while it is young enough (and was read for the same providers), else a fresh one. */
    read: (key: SnapshotKey, providerIds: ReadonlyArray<string>, limit: number, now: number) =>
      Effect.suspend(() => {
        const kept = shops.get(shopKey(key.environment, key.shopId))?.get(key.methodId)
        return kept !== undefined && kept.until > now && kept.providerIds === providerIds.join(",")
          ? Effect.succeed({ snapshot: withLocal(kept, key, providerIds, limit), kept: true })
          : Effect.map(fresh(key, providerIds, limit, now), (snapshot) => ({ snapshot, kept: false }))
      }),
    /** Drops what is kept for a shop: a change to its routing made here applies at once. */
    forget: (environment: Environment, shopId: string) => Effect.sync(() => void shops.delete(shopKey(environment, shopId)))
  }
}
