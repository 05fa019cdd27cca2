/**
 * The fan-out bench's baseline: a bare delivery worker on `node:http` and `pg`, no Effect, doing
 * the database work the project does per batch on the same tables (the project's migrations):
 * lease a batch of due deliveries (`FOR UPDATE SKIP LOCKED`), read their subscriptions, sign each
 * body (HMAC-SHA256, the same header), POST them concurrently over keep-alive connections, and
 * record every outcome in one statement. It knows nothing of retries schedules, sandbox clocks,
 * dead letters or the address check: what the project costs above it is the price of those.
 */
import { createHmac } from "node:crypto"
import { Agent, request } from "node:http"
import pg from "pg"
import { serveBench } from "./Child.ts"

const env = (name: string) => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}
const batchSize = Number(env("BENCH_BATCH_SIZE"))
const intervalMs = Number(env("BENCH_WORKER_INTERVAL_MS"))
const leaseMs = 60_000

const pool = new pg.Pool({ connectionString: env("BENCH_DATABASE_URL"), max: 4, options: `-c search_path=${env("BENCH_SCHEMA")}` })
const agent = new Agent({ keepAlive: true, maxSockets: 64 })

interface Row {
  readonly id: string
  readonly webhook_id: string
  readonly event: string
  readonly body: string
  readonly attempts: number
}

const post = (url: string, headers: Record<string, string>, body: string) =>
  new Promise<number | null>((resolve) => {
    const req = request(url, { method: "POST", agent, timeout: 15_000, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? null))
      res.on("error", () => resolve(null))
    })
    req.on("timeout", () => req.destroy())
    req.on("error", () => resolve(null))
    req.end(body)
  })

/** One batch: answers how many deliveries it attempted. */
const deliverBatch = async () => {
  const now = new Date()
  const { rows } = await pool.query<Row>(
    `UPDATE webhook_deliveries SET locked_until = $1 WHERE id IN (
       SELECT id FROM webhook_deliveries
       WHERE status IN ('pending', 'failed') AND (locked_until IS NULL OR locked_until < $2) AND next_attempt_at <= $2
       ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
     ) RETURNING id, webhook_id, event, body, attempts`,
    [new Date(now.getTime() + leaseMs), now, batchSize]
  )
  if (rows.length === 0) return 0
  const subscriptions = new Map((await pool.query<{ id: string; url: string; secret: string }>(
    `SELECT id, url, secret FROM webhooks WHERE id = ANY($1)`,
    [[...new Set(rows.map((r) => r.webhook_id))]]
  )).rows.map((s) => [s.id, s]))
  const t = Math.floor(Date.now() / 1000)
  const codes = await Promise.all(rows.map((d) => {
    const s = subscriptions.get(d.webhook_id)
    if (s === undefined) return null
    return post(s.url, {
      "content-type": "application/json",
      "x-service-signature": `t=${t},v1=${createHmac("sha256", s.secret).update(`${t}.${d.body}`).digest("hex")}`,
      "x-service-event": d.event,
      "x-service-delivery": d.id
    }, d.body)
  }))
  const ok = codes.map((c) => c !== null && c >= 200 && c < 300)
  await pool.query(
    `UPDATE webhook_deliveries AS d SET
       status = v.status, attempts = v.attempts, last_status_code = v.code,
       next_attempt_at = CASE WHEN v.status = 'failed' THEN now() + interval '1 minute' END,
       succeeded_at = CASE WHEN v.status = 'succeeded' THEN now() END, locked_until = NULL
     FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS v(id, status, attempts, code)
     WHERE d.id = v.id`,
    [rows.map((r) => r.id), ok.map((o) => (o ? "succeeded" : "failed")), rows.map((r) => r.attempts + 1), codes]
  )
  return rows.length
}

let running = true
const loop = async () => {
  while (running) {
    const attempted = await deliverBatch().catch((e) => (console.error("baseline batch failed", e), 0))
    if (attempted < batchSize) await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
const done = loop()
serveBench(async () => {
  running = false
  await done
  agent.destroy()
  await pool.end()
})
