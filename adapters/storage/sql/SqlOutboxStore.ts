/** The outbox store on SQL: events written in the transaction of their change. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Environment } from "../../../core/Environment.ts"
import { date, utc } from "./Rows.ts"
import { type OutboxEvent, OutboxStore } from "../../../core/ports/OutboxStore.ts"

export const SqlOutboxStore = Layer.effect(
  OutboxStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    interface Row {
      readonly id: string
      readonly environment: Environment
      readonly shopId: string
      readonly type: string
      readonly data: Record<string, unknown>
      readonly relatedTxId: string | null
      readonly relatedId: string | null
      readonly createdAt: Date
    }
    const toEvent = (r: Row): OutboxEvent => ({ ...r, createdAt: utc(r.createdAt) })
    return OutboxStore.of({
      append: (e) =>
        sql`INSERT INTO outbox ${
          sql.insert({
            id: e.id,
            environment: e.environment,
            shopId: e.shopId,
            type: e.type,
            data: JSON.stringify(e.data),
            relatedTxId: e.relatedTxId,
            relatedId: e.relatedId,
            createdAt: date(e.createdAt)
          })
        }`.pipe(Effect.asVoid, Effect.orDie),
      list: (environment, shopId) =>
        sql<Row>`SELECT * FROM outbox WHERE environment = ${environment} AND shop_id = ${shopId} ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          Effect.orDie
        ),
      page: (environment, shopId, filter, page) => {
        const where = sql.and([
          sql`environment = ${environment}`,
          sql`shop_id = ${shopId}`,
          ...(filter.types === undefined ? [] : [sql`type IN ${sql.in(filter.types)}`]),
          ...(filter.relatedId === undefined ? [] : [sql`related_id = ${filter.relatedId}`])
        ])
        return Effect.all({
          rows: sql<Row>`SELECT * FROM outbox WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          count: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM outbox WHERE ${where}`
        }).pipe(
          Effect.map(({ count, rows }) => ({ rows: rows.map(toEvent), total: count[0]?.n ?? 0 })),
          Effect.orDie
        )
      },
      find: (environment, id) =>
        sql<Row>`SELECT * FROM outbox WHERE environment = ${environment} AND id = ${id}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(toEvent(rows[0]!))),
          Effect.orDie
        )
    })
  })
)
