/** The baseline's data: the same statements on node-postgres or PGlite, or the same work on Maps. */
import { PGlite } from "@electric-sql/pglite"
import { randomUUID } from "node:crypto"
import pg from "pg"

export interface Seed {
  readonly schema: string
  readonly databaseUrl: string
  readonly credential: { readonly id: string; readonly merchantId: string; readonly version: number }
  readonly merchant: { readonly id: string; readonly name: string; readonly email: string }
  readonly shop: { readonly id: string; readonly name: string }
}

type Row = Record<string, any>

export interface Db {
  readonly credential: (id: string) => Promise<Row | undefined>
  readonly familyRevoked: (familyId: string) => Promise<boolean>
  readonly merchant: (id: string) => Promise<Row>
  readonly firstShop: (merchantId: string) => Promise<Row>
  readonly fxRate: (currency: string) => Promise<Row>
  readonly routes: (environment: string, shopId: string) => Promise<ReadonlyArray<Row>>
  readonly claimKey: (scope: string, key: string) => Promise<boolean>
  readonly insertPayment: (p: { readonly id: string; readonly shopId: string; readonly now: Date; readonly data: unknown }) => Promise<void>
  readonly completeKey: (scope: string, key: string, status: number, body: string) => Promise<void>
  readonly seedDeliveries: (n: number, url: string) => Promise<void>
  readonly claimDeliveries: (limit: number) => Promise<ReadonlyArray<{ readonly id: string; readonly url: string; readonly body: string }>>
  readonly recordDeliveries: (outcomes: ReadonlyArray<{ readonly id: string; readonly ok: boolean }>) => Promise<void>
  readonly close: () => Promise<void>
}

/** The tables the baseline reads and writes, with the project's column shapes. */
const schema = [
  `CREATE TABLE merchants (id text PRIMARY KEY, name text NOT NULL, email text NOT NULL, industry text NOT NULL, tier text NOT NULL, trust_score integer NOT NULL, created_at timestamptz NOT NULL)`,
  `CREATE TABLE shops (id text PRIMARY KEY, merchant_id text NOT NULL, name text NOT NULL, created_at timestamptz NOT NULL)`,
  `CREATE INDEX shops_by_merchant ON shops (merchant_id, created_at)`,
  `CREATE TABLE credentials (id text PRIMARY KEY, merchant_id text NOT NULL, shop_id text, environment text NOT NULL, publishable_key text NOT NULL UNIQUE, secret_hash text NOT NULL UNIQUE, secret_last4 text NOT NULL, version integer NOT NULL, revoked_at timestamptz, created_at timestamptz NOT NULL)`,
  `CREATE TABLE refresh_tokens (id text PRIMARY KEY, token_hash text NOT NULL UNIQUE, family_id text NOT NULL, revoked_at timestamptz)`,
  `CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id)`,
  `CREATE TABLE fx_rates (currency text PRIMARY KEY, per_usd numeric NOT NULL, enabled boolean NOT NULL, updated_at timestamptz NOT NULL)`,
  `CREATE TABLE provider_routes (environment text NOT NULL, shop_id text NOT NULL, provider_id text NOT NULL, priority integer NOT NULL, method_ids jsonb, enabled boolean NOT NULL, PRIMARY KEY (environment, shop_id, provider_id))`,
  `CREATE TABLE idempotency_keys (scope text NOT NULL, key text NOT NULL, request_hash text NOT NULL, state text NOT NULL, response_status integer, response_body text, resource_id text, locked_until timestamptz NOT NULL, created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, PRIMARY KEY (scope, key))`,
  `CREATE TABLE payments (id text PRIMARY KEY, environment text NOT NULL, shop_id text NOT NULL, status text NOT NULL, payment_method_id text NOT NULL, method text NOT NULL, country text NOT NULL, merchant_order_id text, version integer NOT NULL, created_at timestamptz NOT NULL, data jsonb NOT NULL)`,
  `CREATE INDEX payments_by_shop ON payments (environment, shop_id, created_at DESC, id DESC)`,
  `CREATE TABLE jobs (id text PRIMARY KEY, kind text NOT NULL, payload jsonb NOT NULL, run_at timestamptz NOT NULL, attempts integer NOT NULL DEFAULT 0, status text NOT NULL, locked_until timestamptz, last_error text, dedupe_key text UNIQUE, clock_scope text, created_at timestamptz NOT NULL)`,
  `CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'pending'`,
  `CREATE TABLE webhook_deliveries (id text PRIMARY KEY, url text NOT NULL, body text NOT NULL, status text NOT NULL, attempts integer NOT NULL, next_attempt_at timestamptz, locked_until timestamptz)`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'failed')`
]

interface Sql {
  readonly query: (text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Row>>
  readonly transaction: (f: (query: Sql["query"]) => Promise<void>) => Promise<void>
  readonly close: () => Promise<void>
}

const seedTables = async (sql: Sql, seed: Seed) => {
  for (const statement of schema) await sql.query(statement)
  const now = new Date()
  await sql.query(`INSERT INTO merchants VALUES ($1, $2, $3, 'retail', 'starter', 500, $4)`, [seed.merchant.id, seed.merchant.name, seed.merchant.email, now])
  await sql.query(`INSERT INTO shops VALUES ($1, $2, $3, $4)`, [seed.shop.id, seed.merchant.id, seed.shop.name, now])
  await sql.query(`INSERT INTO credentials VALUES ($1, $2, NULL, 'sandbox', $3, $4, 'abcd', $5, NULL, $6)`, [
    seed.credential.id, seed.merchant.id, `pk_${seed.credential.id}`, `hash_${seed.credential.id}`, seed.credential.version, now
  ])
  await sql.query(`INSERT INTO fx_rates VALUES ('BRL', 5.40, true, $1)`, [now])
}

const onSql = async (sql: Sql, seed: Seed, attach: boolean): Promise<Db> => {
  // A second baseline process on the same schema (the fan-out's other replica) creates nothing.
  if (!attach) await seedTables(sql, seed)
  const one = async (text: string, params: ReadonlyArray<unknown>) => (await sql.query(text, params))[0]
  return {
    credential: (id) => one(`SELECT * FROM credentials WHERE id = $1`, [id]),
    familyRevoked: async (familyId) =>
      (await one(`SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL) AS revoked`, [familyId]))!["revoked"] === true,
    merchant: async (id) => (await one(`SELECT * FROM merchants WHERE id = $1`, [id]))!,
    firstShop: async (merchantId) => (await one(`SELECT * FROM shops WHERE merchant_id = $1 ORDER BY created_at, id LIMIT 1`, [merchantId]))!,
    fxRate: async (currency) => (await one(`SELECT * FROM fx_rates WHERE currency = $1`, [currency]))!,
    routes: (environment, shopId) => sql.query(`SELECT * FROM provider_routes WHERE environment = $1 AND shop_id = $2 ORDER BY priority, provider_id`, [environment, shopId]),
    claimKey: async (scope, key) => {
      const now = new Date()
      const rows = await sql.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, state, locked_until, created_at, expires_at) VALUES ($1, $2, 'h', 'in_progress', $3, $4, $5)
         ON CONFLICT DO NOTHING RETURNING scope`,
        [scope, key, new Date(now.getTime() + 60_000), now, new Date(now.getTime() + 86_400_000)]
      )
      return rows.length === 1
    },
    insertPayment: (p) =>
      sql.transaction(async (query) => {
        await query(
          `INSERT INTO payments (id, environment, shop_id, status, payment_method_id, method, country, merchant_order_id, version, created_at, data)
           VALUES ($1, 'sandbox', $2, 'pending', '1001', 'pix', 'BRA', NULL, 1, $3, $4)`,
          [p.id, p.shopId, p.now, JSON.stringify(p.data)]
        )
        await query(
          `INSERT INTO jobs (id, kind, payload, run_at, status, dedupe_key, clock_scope, created_at) VALUES ($1, 'payment.expire', $2, $3, 'pending', $4, $5, $6)`,
          [`job_${randomUUID()}`, JSON.stringify({ paymentId: p.id }), new Date(p.now.getTime() + 1_800_000), `payment.expire:${p.id}`, p.shopId, p.now]
        )
      }),
    completeKey: async (scope, key, status, body) => {
      await sql.query(`UPDATE idempotency_keys SET state = 'completed', response_status = $1, response_body = $2 WHERE scope = $3 AND key = $4`, [status, body, scope, key])
    },
    seedDeliveries: async (n, url) => {
      await sql.query(
        `INSERT INTO webhook_deliveries SELECT 'dlv_' || i, $1, '{"type":"payment.completed","data":{"n":' || i || '}}', 'pending', 0, now(), NULL FROM generate_series(1, $2::int) AS i`,
        [url, n]
      )
    },
    claimDeliveries: async (limit) =>
      (await sql.query(
        `UPDATE webhook_deliveries SET locked_until = now() + interval '1 minute' WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= now()
             AND (locked_until IS NULL OR locked_until < now())
           ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING id, url, body`,
        [limit]
      )) as ReadonlyArray<{ id: string; url: string; body: string }>,
    recordDeliveries: async (outcomes) => {
      await sql.query(
        `UPDATE webhook_deliveries AS d SET status = CASE WHEN r.ok THEN 'succeeded' ELSE 'failed' END, attempts = d.attempts + 1, locked_until = NULL
         FROM json_to_recordset($1::json) AS r (id text, ok boolean) WHERE d.id = r.id`,
        [JSON.stringify(outcomes)]
      )
    },
    close: sql.close
  }
}

const postgres = async (seed: Seed): Promise<Sql> => {
  const admin = new pg.Client({ connectionString: seed.databaseUrl })
  await admin.connect()
  await admin.query(`CREATE SCHEMA IF NOT EXISTS "${seed.schema}"`)
  await admin.end()
  const pool = new pg.Pool({ connectionString: seed.databaseUrl, max: 10, options: `-c search_path=${seed.schema}` })
  return {
    query: async (text, params) => (await pool.query(text, params as Array<unknown>)).rows,
    transaction: async (f) => {
      const client = await pool.connect()
      try {
        await client.query("BEGIN")
        await f(async (text, params) => (await client.query(text, params as Array<unknown>)).rows)
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK")
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end()
  }
}

const pglite = async (): Promise<Sql> => {
  const db = await PGlite.create()
  return {
    query: async (text, params) => (await db.query<Row>(text, params as Array<unknown>)).rows,
    transaction: (f) => db.transaction(async (tx) => void await f(async (text, params) => (await tx.query<Row>(text, params as Array<unknown>)).rows)),
    close: () => db.close()
  }
}

/** The same work on Maps: what the memory store does at best. */
const memory = (seed: Seed): Db => {
  const now = new Date()
  const credentials = new Map<string, Row>([[seed.credential.id, { id: seed.credential.id, merchant_id: seed.merchant.id, version: seed.credential.version }]])
  const merchants = new Map<string, Row>([[seed.merchant.id, { ...seed.merchant, industry: "retail", tier: "starter", trust_score: 500, created_at: now }]])
  const shops = new Map<string, Row>([[seed.merchant.id, { ...seed.shop, merchant_id: seed.merchant.id, created_at: now }]])
  const keys = new Map<string, Row>()
  const payments = new Map<string, Row>()
  const jobs = new Map<string, Row>()
  const deliveries = new Map<string, { id: string; url: string; body: string; status: string; lockedUntil: number }>()
  const pending = new Set<string>()
  return {
    credential: async (id) => credentials.get(id),
    familyRevoked: async () => false,
    merchant: async (id) => merchants.get(id)!,
    firstShop: async (merchantId) => shops.get(merchantId)!,
    fxRate: async () => ({ per_usd: "5.40" }),
    routes: async () => [],
    claimKey: async (scope, key) => {
      if (keys.has(`${scope}|${key}`)) return false
      keys.set(`${scope}|${key}`, { state: "in_progress" })
      return true
    },
    insertPayment: async (p) => {
      payments.set(p.id, { ...p, data: JSON.stringify(p.data) })
      jobs.set(`payment.expire:${p.id}`, { kind: "payment.expire", paymentId: p.id })
    },
    completeKey: async (scope, key, status, body) => void keys.set(`${scope}|${key}`, { state: "completed", status, body }),
    seedDeliveries: async (n, url) => {
      for (let i = 1; i <= n; i++) {
        deliveries.set(`dlv_${i}`, { id: `dlv_${i}`, url, body: `{"type":"payment.completed","data":{"n":${i}}}`, status: "pending", lockedUntil: 0 })
        pending.add(`dlv_${i}`)
      }
    },
    claimDeliveries: async (limit) => {
      const batch = []
      for (const id of pending) {
        if (batch.length >= limit) break
        const d = deliveries.get(id)!
        if (d.lockedUntil > Date.now()) continue
        d.lockedUntil = Date.now() + 60_000
        batch.push(d)
      }
      return batch
    },
    recordDeliveries: async (outcomes) => {
      for (const { id, ok } of outcomes) {
        const d = deliveries.get(id)!
        d.status = ok ? "succeeded" : "failed"
        d.lockedUntil = 0
        if (ok) pending.delete(id)
      }
    },
    close: async () => undefined
  }
}

export const openDb = async (kind: string, seed: Seed, attach = false): Promise<Db> =>
  kind === "postgres" ? onSql(await postgres(seed), seed, attach) : kind === "pglite" ? onSql(await pglite(), seed, false) : memory(seed)
