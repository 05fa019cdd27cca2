/**
 * SQL implementation of the webhook port; deliveries are claimed with FOR UPDATE SKIP LOCKED.
 * Signing secrets are stored sealed (`Sealing`, in context, else the process's own key): a row
 * read straight from the table holds no usable secret. Rows written before sealing existed are
 * read as they are and sealed in place when the store starts.
 */
import { Array as Arr, DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Environment } from "../../../core/Environment.ts"
import { Sealing } from "../../../core/ports/Sealing.ts"
import { type DeliveryOutcome, WebhookStore } from "../../../core/ports/WebhookStore.ts"
import { processSealing } from "../../auth/EnvelopeSealing.ts"
import type { Delivery, InboxMessage, Subscription } from "../../../core/webhooks/Webhook.ts"
import { date, dateOrNull, utc, utcOrNull } from "./Rows.ts"


interface SubscriptionRow extends Omit<Subscription, "previousSecretExpiresAt" | "createdAt" | "updatedAt"> {
  readonly previousSecretExpiresAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}
interface DeliveryRow extends Omit<Delivery, "nextAttemptAt" | "succeededAt" | "lockedUntil" | "createdAt"> {
  readonly nextAttemptAt: Date | null
  readonly succeededAt: Date | null
  readonly lockedUntil: Date | null
  readonly createdAt: Date
}
interface InboxRow extends Omit<InboxMessage, "receivedAt"> {
  readonly receivedAt: Date
}

const byDue = (a: Delivery, b: Delivery) =>
  DateTime.toEpochMillis(a.nextAttemptAt!) - DateTime.toEpochMillis(b.nextAttemptAt!) || a.id.localeCompare(b.id)

/** Keys as `recordAttempts` spells them in SQL (JSON is not renamed by the client). */
const outcomeRecord = ({ id, result: r }: DeliveryOutcome) => ({
  id,
  status: r.status,
  attempts: r.attempts,
  last_status_code: r.lastStatusCode,
  last_error: r.lastError,
  last_response_excerpt: r.lastResponseExcerpt ?? null,
  next_attempt_at: r.nextAttemptAt === null ? null : DateTime.formatIso(r.nextAttemptAt),
  succeeded_at: r.succeededAt === null ? null : DateTime.formatIso(r.succeededAt)
})

const toDelivery = (r: DeliveryRow): Delivery => ({
  ...r,
  nextAttemptAt: utcOrNull(r.nextAttemptAt),
  succeededAt: utcOrNull(r.succeededAt),
  lockedUntil: utcOrNull(r.lockedUntil),
  createdAt: utc(r.createdAt)
})

export const SqlWebhookStore = Layer.effect(
  WebhookStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const sealing = Option.getOrElse(yield* Effect.serviceOption(Sealing), processSealing)
    const secretContext = (id: string) => `webhook:${id}`
    const toSubscription = (r: SubscriptionRow): Effect.Effect<Subscription> =>
      Effect.map(
        Effect.all([
          sealing.unseal(r.secret, secretContext(r.id)),
          r.previousSecret === null ? Effect.succeed(null) : sealing.unseal(r.previousSecret, secretContext(r.id))
        ]),
        ([secret, previousSecret]) => ({
          ...r,
          secret,
          previousSecret,
          previousSecretExpiresAt: utcOrNull(r.previousSecretExpiresAt),
          createdAt: utc(r.createdAt),
          updatedAt: utc(r.updatedAt)
        })
      )
    const toSubscriptions = (rows: ReadonlyArray<SubscriptionRow>) => Effect.forEach(rows, toSubscription)
    const subscriptionRow = (s: Subscription) =>
      Effect.map(
        Effect.all([
          sealing.seal(s.secret, secretContext(s.id)),
          s.previousSecret === null ? Effect.succeed(null) : sealing.seal(s.previousSecret, secretContext(s.id))
        ]),
        ([secret, previousSecret]) => ({
          ...s,
          secret,
          previousSecret,
          events: JSON.stringify(s.events),
          previousSecretExpiresAt: dateOrNull(s.previousSecretExpiresAt),
          createdAt: date(s.createdAt),
          updatedAt: date(s.updatedAt)
        })
      )
    // Rows written before secrets were sealed (or by a replica still running the older code) are
    // sealed in place: one pass at start, each row guarded on the value it was read with.
    const plaintext = yield* sql<{ readonly id: string; readonly secret: string; readonly previousSecret: string | null }>`
      SELECT id, secret, previous_secret FROM webhooks
      WHERE secret NOT LIKE 'sealed.%' OR previous_secret NOT LIKE 'sealed.%'`.pipe(Effect.orDie)
    for (const row of plaintext) {
      const sealOne = (value: string) => sealing.isSealed(value) ? Effect.succeed(value) : sealing.seal(value, secretContext(row.id))
      const secret = yield* sealOne(row.secret)
      const previousSecret = row.previousSecret === null ? null : yield* sealOne(row.previousSecret)
      yield* sql`UPDATE webhooks SET secret = ${secret}, previous_secret = ${previousSecret}
        WHERE id = ${row.id} AND secret = ${row.secret}`.pipe(Effect.orDie)
    }
    const count = (rows: ReadonlyArray<{ readonly n: number }>) => rows[0]?.n ?? 0
    const findSubscription = (environment: Environment, shopId: string, id: string) =>
      sql<SubscriptionRow>`SELECT * FROM webhooks WHERE id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) => Effect.transposeOption(Option.map(Arr.head(rows), toSubscription)))
      )
    return WebhookStore.of({
      insertSubscription: (s) =>
        Effect.flatMap(subscriptionRow(s), (row) => sql`INSERT INTO webhooks ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)),
      updateSubscription: (s) =>
        Effect.flatMap(subscriptionRow(s), (row) => sql`UPDATE webhooks SET ${sql.update(row, ["id"])} WHERE id = ${s.id}`.pipe(Effect.asVoid, Effect.orDie)),
      deleteSubscription: (environment, shopId, id) =>
        sql<{ readonly id: string }>`
          DELETE FROM webhooks WHERE id = ${id} AND environment = ${environment} AND shop_id = ${shopId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      findSubscription,
      findSubscriptionById: (id) =>
        sql<SubscriptionRow>`SELECT * FROM webhooks WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => Effect.transposeOption(Option.map(Arr.head(rows), toSubscription)))
        ),
      listSubscriptions: (environment, shopId, { limit, offset }) =>
        Effect.all({
          rows: sql<SubscriptionRow>`
            SELECT * FROM webhooks WHERE environment = ${environment} AND shop_id = ${shopId}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.orDie, Effect.flatMap(toSubscriptions)),
          total: Effect.map(
            sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM webhooks WHERE environment = ${environment} AND shop_id = ${shopId}`,
            count
          )
        }).pipe(Effect.orDie),
      activeSubscriptions: (environment, merchantId, shopId) =>
        sql<SubscriptionRow>`SELECT * FROM webhooks
          WHERE environment = ${environment} AND active AND (shop_id = ${shopId} OR covers_merchant_id = ${merchantId})`.pipe(
          Effect.orDie,
          Effect.flatMap(toSubscriptions)
        ),
      insertDeliveries: (ds) => {
        const rows: ReadonlyArray<Record<string, unknown>> = ds.map((d) => ({
          ...d,
          traceParent: d.traceParent ?? null,
          nextAttemptAt: dateOrNull(d.nextAttemptAt),
          succeededAt: dateOrNull(d.succeededAt),
          lockedUntil: dateOrNull(d.lockedUntil),
          createdAt: date(d.createdAt)
        }))
        return Arr.isReadonlyArrayNonEmpty(rows)
          ? sql`INSERT INTO webhook_deliveries ${sql.insert(rows)} ON CONFLICT (webhook_id, event_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie)
          : Effect.void
      },
      findDelivery: (webhookId, id) =>
        sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE id = ${id} AND webhook_id = ${webhookId}`.pipe(
          Effect.map((rows) => Option.map(Arr.head(rows), toDelivery)),
          Effect.orDie
        ),
      // Through the (webhook_id, event_id) unique index: the environment's webhooks are few.
      deliveriesOfEvent: (environment, shopId, eventId) =>
        sql<DeliveryRow>`
          SELECT * FROM webhook_deliveries
          WHERE webhook_id IN (SELECT id FROM webhooks WHERE environment = ${environment}) AND event_id = ${eventId}
            AND environment = ${environment} AND shop_id = ${shopId}
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toDelivery)), Effect.orDie),
      listDeliveries: (webhookId, filter, { limit, offset }) => {
        const where = sql.and([
          sql`webhook_id = ${webhookId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
        ])
        return Effect.all({
          rows: sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(
            Effect.map((rows) => rows.map(toDelivery))
          ),
          total: Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${where}`, count)
        }).pipe(Effect.orDie)
      },
      // Due on the real clock (the index `webhook_deliveries_due`), then due only on a sandbox
      // shop's clock that runs ahead (`webhook_deliveries_sandbox_due`, per shop whose clock moved).
      claimDeliveries: (now, leaseMs, limit, sandboxShopId) =>
        Effect.gen(function*() {
          const at = date(now)
          const lease = sql`UPDATE webhook_deliveries SET locked_until = ${date(DateTime.add(now, { milliseconds: leaseMs }))}`
          const free = sql`status IN ('pending', 'failed') AND (locked_until IS NULL OR locked_until < ${at})`
          const onRealClock = yield* sql<DeliveryRow>`${lease} WHERE id IN (
              SELECT id FROM webhook_deliveries
              WHERE ${free} AND next_attempt_at <= ${at}
                AND ${sandboxShopId === undefined ? sql`TRUE` : sql`environment = 'sandbox' AND shop_id = ${sandboxShopId}`}
              ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
            ) RETURNING *`
          if (onRealClock.length >= limit) return onRealClock.map(toDelivery).sort(byDue)
          const onTestClock = yield* sql<DeliveryRow>`${lease} WHERE id IN (
              SELECT webhook_deliveries.id FROM sandbox_clocks
                JOIN webhook_deliveries ON webhook_deliveries.shop_id = sandbox_clocks.shop_id AND environment = 'sandbox'
              WHERE ${free} AND next_attempt_at > ${at}
                AND next_attempt_at <= CAST(${at} AS timestamptz) + sandbox_clocks.offset_ms * INTERVAL '1 millisecond'
                AND ${sandboxShopId === undefined ? sql`TRUE` : sql`sandbox_clocks.shop_id = ${sandboxShopId}`}
              ORDER BY next_attempt_at, webhook_deliveries.id LIMIT ${limit - onRealClock.length}
              FOR UPDATE OF webhook_deliveries SKIP LOCKED
            ) RETURNING *`
          return [...onRealClock.map(toDelivery).sort(byDue), ...onTestClock.map(toDelivery).sort(byDue)]
        }).pipe(Effect.orDie),
      countDue: (now, sandboxShopId) =>
        sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM webhook_deliveries LEFT JOIN sandbox_clocks ON sandbox_clocks.shop_id = webhook_deliveries.shop_id
          WHERE environment = 'sandbox' AND webhook_deliveries.shop_id = ${sandboxShopId} AND status IN ('pending', 'failed')
            AND next_attempt_at <= CAST(${date(now)} AS timestamptz) + COALESCE(offset_ms, 0) * INTERVAL '1 millisecond'`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      backlog: (now) =>
        sql<{ readonly due: number; readonly oldestDueAt: Date | null; readonly deadLetters: number }>`
          SELECT
            (SELECT count(*)::int FROM webhook_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= ${date(now)}) AS due,
            (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= ${date(now)}) AS oldest_due_at,
            (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'dead_letter') AS dead_letters`.pipe(
          Effect.map((rows) => ({ due: rows[0]?.due ?? 0, oldestDueAt: utcOrNull(rows[0]?.oldestDueAt ?? null), deadLetters: rows[0]?.deadLetters ?? 0 })),
          Effect.orDie
        ),
      // One statement for the batch: the outcomes travel as one JSON array of records.
      recordAttempts: (outcomes) =>
        outcomes.length === 0 ? Effect.void : sql`UPDATE webhook_deliveries SET
              status = o.status, attempts = o.attempts, last_status_code = o.last_status_code, last_error = o.last_error,
              last_response_excerpt = o.last_response_excerpt, next_attempt_at = o.next_attempt_at, succeeded_at = o.succeeded_at, locked_until = NULL
            FROM jsonb_to_recordset(${JSON.stringify(outcomes.map(outcomeRecord))}::jsonb) AS o(
              id text, status text, attempts integer, last_status_code integer, last_error text, last_response_excerpt text,
              next_attempt_at timestamptz, succeeded_at timestamptz)
            WHERE webhook_deliveries.id = o.id`.pipe(Effect.asVoid, Effect.orDie),
      requeue: (id, now) =>
        sql`UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${date(now)}, locked_until = NULL WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      insertInboxMessage: (m) =>
        sql`INSERT INTO webhook_inbox ${sql.insert({ ...m, receivedAt: date(m.receivedAt) })}`.pipe(Effect.asVoid, Effect.orDie),
      listInbox: (webhookId, { limit, offset }) =>
        Effect.all({
          rows: sql<InboxRow>`SELECT * FROM webhook_inbox WHERE webhook_id = ${webhookId}
                              ORDER BY received_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(
            Effect.map((rows) => rows.map((r) => ({ ...r, receivedAt: utc(r.receivedAt) })))
          ),
          total: Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM webhook_inbox WHERE webhook_id = ${webhookId}`, count)
        }).pipe(Effect.orDie)
    })
  })
)
