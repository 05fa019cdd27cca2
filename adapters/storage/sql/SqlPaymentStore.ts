/** The payment store on SQL: the payment as a JSON document beside the columns its lists filter on. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { date } from "./Rows.ts"
import { completeKeyStatement } from "./IdempotencyKeySql.ts"
import { write } from "./SqlTransactions.ts"
import * as Money from "../../../core/Money.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { encodePaymentJson, type Payment, PaymentJson } from "../../../core/payments/Payment.ts"

const decodePayment = Schema.decodeUnknownSync(PaymentJson)

export const SqlPaymentStore = Layer.effect(
  PaymentStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rowsToPayments = (rows: ReadonlyArray<{ readonly data: unknown }>) => rows.map((r) => decodePayment(r.data))
    /** Writes `p` over the version before it: its id back, or no row when another writer got there first. */
    const updated = (p: Payment) =>
      sql<{ readonly id: string }>`
        UPDATE payments SET status = ${p.status}, version = ${p.version}, data = ${JSON.stringify(encodePaymentJson(p))}
        WHERE id = ${p.id} AND version = ${p.version - 1} RETURNING id`
    return PaymentStore.of({
      insert: (p) =>
        write(sql`INSERT INTO payments ${
          sql.insert({
            id: p.id,
            environment: p.environment,
            shopId: p.shopId,
            status: p.status,
            paymentMethodId: p.paymentMethodId,
            method: p.method,
            country: p.country,
            merchantOrderId: p.merchantOrderId,
            version: p.version,
            createdAt: date(p.createdAt),
            data: JSON.stringify(encodePaymentJson(p))
          })
        }`).pipe(Effect.orDie),
      find: (environment, shopId, id) =>
        sql<{ readonly data: unknown }>`SELECT data FROM payments WHERE id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`
          .pipe(Effect.map((rows) => Option.fromNullishOr(rowsToPayments(rows)[0])), Effect.orDie),
      findById: (id) =>
        sql<{ readonly data: unknown }>`SELECT data FROM payments WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullishOr(rowsToPayments(rows)[0])),
          Effect.orDie
        ),
      update: (p) => updated(p).pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      // The key's response rides the payment's statement, conditioned on the payment's write.
      updateCompletingKey: (p, completion) =>
        sql<{ readonly id: string }>`
          WITH written AS (${updated(p)}),
          completed AS (${completeKeyStatement(sql, completion)} AND EXISTS (SELECT 1 FROM written))
          SELECT id FROM written`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      list: (environment, shopId, filter, { limit, offset }) =>
        Effect.gen(function*() {
          const where = sql.and([
            sql`environment = ${environment}`,
            sql`shop_id = ${shopId}`,
            ...(filter.statuses === undefined ? [] : [sql.in("status", filter.statuses)]),
            ...(filter.paymentMethodId === undefined ? [] : [sql`payment_method_id = ${filter.paymentMethodId}`]),
            ...(filter.country === undefined ? [] : [sql`country = ${filter.country}`]),
            ...(filter.merchantOrderId === undefined ? [] : [sql`merchant_order_id = ${filter.merchantOrderId}`]),
            ...(filter.id === undefined ? [] : [sql`id = ${filter.id}`]),
            // The buyer's email is in the document only: a shop's rows, compared without case.
            ...(filter.userEmail === undefined ? [] : [sql`lower(data->>'userEmail') = lower(${filter.userEmail})`]),
            ...(filter.method === undefined ? [] : [sql`method = ${filter.method}`]),
            ...(filter.createdFrom === undefined ? [] : [sql`created_at >= ${date(filter.createdFrom)}`]),
            ...(filter.createdBefore === undefined ? [] : [sql`created_at < ${date(filter.createdBefore)}`]),
            // The USD headline is in the document (decimal text): compared exactly, as numeric.
            ...(filter.amountMin === undefined ? [] : [sql`CAST(data->>'amount' AS numeric) >= CAST(${Money.toText(filter.amountMin)} AS numeric)`]),
            ...(filter.amountMax === undefined ? [] : [sql`CAST(data->>'amount' AS numeric) <= CAST(${Money.toText(filter.amountMax)} AS numeric)`])
          ])
          const after = filter.after
          const page = after === undefined ? where : sql.and([where, sql`(created_at, id) < (${date(after.createdAt)}, ${after.id})`])
          const rows = yield* sql<{ readonly data: unknown }>`
            SELECT data FROM payments WHERE ${page} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
          const total = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM payments WHERE ${where}`
          return { rows: rowsToPayments(rows), total: total[0]?.n ?? 0 }
        }).pipe(Effect.orDie),
      // A sandbox payment is on its shop's clock (`sandbox_clocks`; no row: offset 0).
      countOpenOnProvider: (providerId) =>
        sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM payments
          WHERE status IN ('initiated', 'pending', 'authorized') AND data->>'provider' = ${providerId}`.pipe(Effect.map((rows) => rows[0]?.n ?? 0), Effect.orDie),
      pendingCreatedBefore: (createdBefore, limit, sandboxShopId) =>
        sql<{ readonly data: unknown }>`
          SELECT data FROM payments LEFT JOIN sandbox_clocks
            ON payments.environment = 'sandbox' AND sandbox_clocks.shop_id = payments.shop_id
          WHERE status = 'pending'
            AND created_at < CAST(${date(createdBefore)} AS timestamptz) + COALESCE(offset_ms, 0) * INTERVAL '1 millisecond'
            AND ${sandboxShopId === undefined ? sql`TRUE` : sql`environment = 'sandbox' AND payments.shop_id = ${sandboxShopId}`}
          ORDER BY created_at, id LIMIT ${limit}`.pipe(Effect.map(rowsToPayments), Effect.orDie)
    })
  })
)
