/** SQL implementations of the pay-in ports: FX rates, ledger, payments, outbox, routes. */
import { BigDecimal, DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { SqlLedgerStore } from "./SqlLedgerStore.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import type { Environment } from "../../../core/Environment.ts"
import { FxRateStore } from "../../../core/ports/FxRateStore.ts"
import { type OutboxEvent, OutboxStore } from "../../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"
import { PaymentJson } from "../../../core/payments/Payment.ts"
import { CheckoutSessionJson } from "../../../core/checkout/CheckoutSession.ts"
import { ClaimJson } from "../../../core/claims/Claim.ts"
import { ClaimStore } from "../../../core/ports/ClaimStore.ts"
import { PayoutJson } from "../../../core/payouts/Payout.ts"
import { PayoutStore } from "../../../core/ports/PayoutStore.ts"
import { WithdrawalJson } from "../../../core/balances/Withdrawal.ts"
import { WithdrawalStore } from "../../../core/ports/WithdrawalStore.ts"
import { CheckoutSessionStore } from "../../../core/ports/CheckoutSessionStore.ts"
import * as Money from "../../../core/Money.ts"
import { date, utc } from "./Rows.ts"
import { write } from "./SqlTransactions.ts"


const encodePayment = Schema.encodeSync(PaymentJson)
const decodePayment = Schema.decodeUnknownSync(PaymentJson)

export const SqlFxRateStore = Layer.effect(
  FxRateStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    interface Row {
      readonly currency: string
      readonly perUsd: string
      readonly enabled: boolean
      readonly updatedAt: Date
    }
    const toRate = (r: Row) => ({ currency: r.currency, perUsd: Money.decimal(r.perUsd), enabled: r.enabled, updatedAt: utc(r.updatedAt) })
    const upsert = (r: { currency: string; perUsd: BigDecimal.BigDecimal; enabled: boolean; updatedAt: DateTime.Utc }, replace: boolean) =>
      sql`INSERT INTO fx_rates (currency, per_usd, enabled, updated_at)
          VALUES (${r.currency}, ${Money.toText(r.perUsd)}, ${r.enabled}, ${date(r.updatedAt)})
          ON CONFLICT (currency) DO ${
        replace ? sql`UPDATE SET per_usd = EXCLUDED.per_usd, enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at` : sql`NOTHING`
      }`
    return FxRateStore.of({
      get: (currency) =>
        sql<Row>`SELECT * FROM fx_rates WHERE currency = ${currency}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(toRate(rows[0]!))),
          Effect.orDie
        ),
      list: sql<Row>`SELECT * FROM fx_rates ORDER BY currency`.pipe(Effect.map((rows) => rows.map(toRate)), Effect.orDie),
      put: (rate) => upsert(rate, true).pipe(Effect.asVoid, Effect.orDie),
      seed: (rates) => Effect.forEach(rates, (r) => upsert(r, false), { discard: true }).pipe(Effect.orDie)
    })
  })
)

/** PostgreSQL's check_violation (23514): here, only the guard of `account_balances` can raise it. */
export const SqlPaymentStore = Layer.effect(
  PaymentStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rowsToPayments = (rows: ReadonlyArray<{ readonly data: unknown }>) => rows.map((r) => decodePayment(r.data))
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
            data: JSON.stringify(encodePayment(p))
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
      update: (p) =>
        sql<{ readonly id: string }>`
          UPDATE payments SET status = ${p.status}, version = ${p.version}, data = ${JSON.stringify(encodePayment(p))}
          WHERE id = ${p.id} AND version = ${p.version - 1} RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      list: (environment, shopId, filter, { limit, offset }) =>
        Effect.gen(function*() {
          const where = sql.and([
            sql`environment = ${environment}`,
            sql`shop_id = ${shopId}`,
            ...(filter.statuses === undefined ? [] : [sql.in("status", filter.statuses)]),
            ...(filter.paymentMethodId === undefined ? [] : [sql`payment_method_id = ${filter.paymentMethodId}`]),
            ...(filter.country === undefined ? [] : [sql`country = ${filter.country}`]),
            ...(filter.merchantOrderId === undefined ? [] : [sql`merchant_order_id = ${filter.merchantOrderId}`]),
            ...(filter.method === undefined ? [] : [sql`method = ${filter.method}`])
          ])
          const rows = yield* sql<{ readonly data: unknown }>`
            SELECT data FROM payments WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
          const total = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM payments WHERE ${where}`
          return { rows: rowsToPayments(rows), total: total[0]?.n ?? 0 }
        }).pipe(Effect.orDie),
      // A sandbox payment is on its shop's clock (`sandbox_clocks`; no row: offset 0).
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

export const SqlProviderRouteStore = Layer.effect(
  ProviderRouteStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    interface Row {
      readonly environment: Environment
      readonly shopId: string
      readonly providerId: string
      readonly priority: number
      readonly methodIds: ReadonlyArray<string> | null
      readonly enabled: boolean
    }
    return ProviderRouteStore.of({
      list: (environment, shopId) =>
        sql<Row>`SELECT * FROM provider_routes WHERE environment = ${environment} AND shop_id = ${shopId}
                 ORDER BY priority, provider_id`.pipe(Effect.orDie),
      put: (r) =>
        sql`INSERT INTO provider_routes (environment, shop_id, provider_id, priority, method_ids, enabled)
            VALUES (${r.environment}, ${r.shopId}, ${r.providerId}, ${r.priority},
                    ${r.methodIds === null ? null : JSON.stringify(r.methodIds)}, ${r.enabled})
            ON CONFLICT (environment, shop_id, provider_id) DO UPDATE SET
              priority = EXCLUDED.priority, method_ids = EXCLUDED.method_ids, enabled = EXCLUDED.enabled`.pipe(Effect.asVoid, Effect.orDie),
      remove: (environment, shopId, providerId) =>
        sql<{ readonly providerId: string }>`
          DELETE FROM provider_routes WHERE environment = ${environment} AND shop_id = ${shopId} AND provider_id = ${providerId}
          RETURNING provider_id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)
    })
  })
)

const encodeSession = Schema.encodeSync(CheckoutSessionJson)
const decodeSession = Schema.decodeUnknownSync(CheckoutSessionJson)

export const SqlCheckoutSessionStore = Layer.effect(
  CheckoutSessionStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return CheckoutSessionStore.of({
      insert: (s) =>
        sql`INSERT INTO checkout_sessions ${
          sql.insert({
            token: s.token,
            id: s.id,
            environment: s.environment,
            shopId: s.shopId,
            version: s.version,
            expiresAt: date(s.expiresAt),
            data: JSON.stringify(encodeSession(s))
          })
        }`.pipe(Effect.asVoid, Effect.orDie),
      findByToken: (token) =>
        sql<{ readonly data: unknown }>`SELECT data FROM checkout_sessions WHERE token = ${token}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(decodeSession(rows[0]!.data))),
          Effect.orDie
        ),
      update: (s) =>
        sql<{ readonly token: string }>`
          UPDATE checkout_sessions SET version = ${s.version}, data = ${JSON.stringify(encodeSession(s))}
          WHERE token = ${s.token} AND version = ${s.version - 1} RETURNING token`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)

export const SqlClaimStore = Layer.effect(
  ClaimStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const claims = jsonDocuments(sql, "claims", ClaimJson)
    return ClaimStore.of({
      insert: (c) =>
        claims.insert(c, { id: c.id, environment: c.environment, shopId: c.shopId, transactionId: c.transactionId, version: c.version, createdAt: date(c.createdAt) }),
      find: (environment, shopId, id) => claims.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => claims.first(sql`id = ${id}`),
      forPayment: (transactionId) => claims.select(sql`transaction_id = ${transactionId}`, sql`ORDER BY created_at, id`),
      update: (c) => claims.update(c, c.id, c.version)
    })
  })
)

export const SqlPayoutStore = Layer.effect(
  PayoutStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const payouts = jsonDocuments(sql, "payouts", PayoutJson)
    return PayoutStore.of({
      insert: (p) =>
        payouts.insert(p, {
          id: p.id,
          environment: p.environment,
          shopId: p.shopId,
          status: p.status,
          methodId: p.methodId,
          version: p.version,
          createdAt: date(p.createdAt)
        }),
      find: (environment, shopId, id) => payouts.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => payouts.first(sql`id = ${id}`),
      update: (p) => payouts.update(p, p.id, p.version, sql`, status = ${p.status}`),
      list: (environment, shopId, filter, page) =>
        payouts.page(
          sql.and([
            sql`environment = ${environment}`,
            sql`shop_id = ${shopId}`,
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
            ...(filter.methodId === undefined ? [] : [sql`method_id = ${filter.methodId}`])
          ]),
          page
        )
    })
  })
)

export const SqlWithdrawalStore = Layer.effect(
  WithdrawalStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const withdrawals = jsonDocuments(sql, "withdrawals", WithdrawalJson)
    return WithdrawalStore.of({
      insert: (w) =>
        withdrawals.insert(w, { id: w.id, environment: w.environment, shopId: w.shopId, status: w.status, version: w.version, createdAt: date(w.createdAt) }),
      find: (environment, shopId, id) => withdrawals.first(sql`id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`),
      findById: (id) => withdrawals.first(sql`id = ${id}`),
      update: (w) => withdrawals.update(w, w.id, w.version, sql`, status = ${w.status}`),
      list: (environment, shopId, filter, page) =>
        withdrawals.page(
          sql.and([
            sql`environment = ${environment}`,
            sql`shop_id = ${shopId}`,
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
          ]),
          page
        )
    })
  })
)

export const SqlPayinRepos = Layer.mergeAll(
  SqlFxRateStore,
  SqlLedgerStore,
  SqlPaymentStore,
  SqlOutboxStore,
  SqlProviderRouteStore,
  SqlCheckoutSessionStore,
  SqlClaimStore,
  SqlPayoutStore,
  SqlWithdrawalStore
)
