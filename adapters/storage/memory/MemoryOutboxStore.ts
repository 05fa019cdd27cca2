/** The outbox store in memory: events written in the transaction of their change. */
import { Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import type { Environment } from "../../../core/Environment.ts"
import { type OutboxEvent, OutboxStore } from "../../../core/ports/OutboxStore.ts"
import { newestFirst } from "./MemoryRows.ts"

/**
 * Events with an index per shop and per related object: the ids in the order they were appended
 * (which is their order in time: appends run one at a time under the store's lock). The indexes
 * live outside the journaled tables, so an event a rolled-back transaction appended stays listed
 * there but is not found in the table, and is skipped.
 */
export const MemoryOutboxStore = Layer.effect(
  OutboxStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const events = db.table<OutboxEvent>("outbox")
    const byShop = new Map<string, Array<string>>()
    const byRelated = new Map<string, Array<string>>()
    const shopKey = (environment: Environment, shopId: string) => `${environment}|${shopId}`
    const push = (index: Map<string, Array<string>>, key: string, id: string) => {
      const ids = index.get(key)
      if (ids === undefined) index.set(key, [id])
      else ids.push(id)
    }
    /** A shop's events (or those about one object), oldest first. */
    const ofShop = (environment: Environment, shopId: string, relatedId?: string) => {
      const ids = relatedId === undefined
        ? byShop.get(shopKey(environment, shopId))
        : byRelated.get(`${shopKey(environment, shopId)}|${relatedId}`)
      return (ids ?? []).flatMap((id) => {
        const event = events.get(id)
        return event === undefined ? [] : [event]
      }).sort((a, b) => -newestFirst(a, b))
    }
    return OutboxStore.of({
      append: (event) =>
        db.run(Effect.sync(() => {
          if (events.has(event.id)) return
          events.set(event.id, event)
          push(byShop, shopKey(event.environment, event.shopId), event.id)
          if (event.relatedId !== null) push(byRelated, `${shopKey(event.environment, event.shopId)}|${event.relatedId}`, event.id)
        })),
      list: (environment, shopId) => db.run(Effect.sync(() => ofShop(environment, shopId))),
      page: (environment, shopId, filter, page) =>
        db.run(Effect.sync(() => {
          const matching = ofShop(environment, shopId, filter.relatedId)
            .filter((e) => filter.types === undefined || filter.types.includes(e.type))
            .reverse()
          return { rows: matching.slice(page.offset, page.offset + page.limit), total: matching.length }
        })),
      find: (environment, id) =>
        db.run(Effect.sync(() => Option.filter(Option.fromNullishOr(events.get(id)), (e) => e.environment === environment)))
    })
  })
)
