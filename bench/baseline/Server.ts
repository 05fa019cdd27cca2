/**
 * The bare baseline: `node:http` with node-postgres (or PGlite in-process, or Maps), doing per
 * request the database work the project's endpoints did in their first version (eleven round
 * trips for a create), with no framework: what the stack can do at best. JWTs are checked with `jose` like the
 * project's. Its own tables (`Schema.ts`) in its own schema, seeded with the project's merchant.
 *
 * - GET /api/v1/me: credential, login revoked?, merchant, default shop, shop routes (5 queries).
 * - POST /api/v1/payments (Idempotency-Key): credential, merchant, shop, FX rate, routes, key
 *   claim, BEGIN + payment + job + COMMIT, key completion (11 round trips).
 * - POST /webhooks/seed?n=&url= then POST /webhooks/drain: webhook deliveries claimed 200 per
 *   lease (FOR UPDATE SKIP LOCKED), POSTed to the receiver, each batch recorded in one statement,
 *   for the fan-out comparison (`bench/webhooks/FanOut.ts`).
 */
import { randomUUID } from "node:crypto"
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http"
import { jwtVerify } from "jose"
import { benchPayment, type PaymentInput } from "../support/PaymentView.ts"
import { openDb, type Seed } from "./Db.ts"

const seed = JSON.parse(process.env["BENCH_SEED"] ?? "{}") as Seed
const db = await openDb(process.env["BENCH_STORE"] ?? "memory", seed)
const key = await crypto.subtle.importKey(
  "raw", new TextEncoder().encode("loopback-jwt-secret-of-at-least-32-bytes"), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]
)

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve(Buffer.concat(chunks).toString()))
  })

const send = (res: ServerResponse, status: number, value: unknown) => {
  const text = JSON.stringify(value)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text)
}

const claims = async (req: IncomingMessage) => {
  const token = (req.headers.authorization ?? "").replace(/^Bearer /, "")
  const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: "payment-orchestration-engine", audience: "api" })
  return { credentialId: payload.sub!, familyId: payload["fam"] as string }
}

const me = async (req: IncomingMessage, res: ServerResponse) => {
  const { credentialId, familyId } = await claims(req)
  const credential = await db.credential(credentialId)
  const revoked = await db.familyRevoked(familyId)
  if (credential === undefined || revoked) return send(res, 401, { error: { code: "token_revoked" } })
  const merchant = await db.merchant(credential.merchant_id)
  const shop = await db.firstShop(credential.merchant_id)
  const routes = await db.routes("sandbox", shop.id)
  send(res, 200, {
    id: merchant.id, name: merchant.name, email: merchant.email, industry: merchant.industry, tier: merchant.tier,
    trustScore: merchant.trust_score, environment: "sandbox",
    capabilities: { checkout: true, directCharge: true, refunds: true, webhooks: true, crypto: [], methods: routes.length >= 0 ? ["pix"] : [] }
  })
}

const payment = async (req: IncomingMessage, res: ServerResponse) => {
  const input = JSON.parse(await body(req)) as PaymentInput
  const { credentialId } = await claims(req)
  const credential = await db.credential(credentialId)
  if (credential === undefined) return send(res, 401, { error: { code: "token_revoked" } })
  const merchant = await db.merchant(credential.merchant_id)
  const shop = await db.firstShop(merchant.id)
  const rate = Number((await db.fxRate("BRL")).per_usd)
  await db.routes("sandbox", shop.id)
  const idempotencyKey = String(req.headers["idempotency-key"] ?? randomUUID())
  const scope = `${credentialId}:POST /api/v1/payments`
  if (!(await db.claimKey(scope, idempotencyKey))) return send(res, 409, { error: { code: "idempotency_key_in_use" } })
  const now = new Date()
  const { id, view, data } = benchPayment(input, rate, now)
  await db.insertPayment({ id, shopId: shop.id, now, data })
  await db.completeKey(scope, idempotencyKey, 201, JSON.stringify(view))
  send(res, 201, view)
}

/** One lease's batch of deliveries: claimed together, POSTed 64 at a time, recorded in one write. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 })
const post = (url: string, payload: string, deliveryId: string) =>
  new Promise<number>((resolve) => {
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", "x-service-delivery": deliveryId } }, (r) => {
      r.resume()
      r.on("end", () => resolve(r.statusCode ?? 0))
    })
    req.on("error", () => resolve(0))
    req.end(payload)
  })
/** Drains the due deliveries: batches claimed under a lease, POSTed 64 at a time, each batch recorded in one write. */
const drain = async (res: ServerResponse) => {
  let delivered = 0
  for (;;) {
    const batch = await db.claimDeliveries(200)
    if (batch.length === 0) break
    const outcomes: Array<{ id: string; ok: boolean }> = []
    for (let i = 0; i < batch.length; i += 64) {
      await Promise.all(batch.slice(i, i + 64).map(async (d) => outcomes.push({ id: d.id, ok: (await post(d.url, d.body, d.id)) === 200 })))
    }
    await db.recordDeliveries(outcomes)
    delivered += batch.length
  }
  send(res, 200, { delivered })
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost")
  const route = req.method === "GET" && url.pathname === "/api/v1/me"
    ? me(req, res)
    : req.method === "POST" && url.pathname === "/api/v1/payments"
    ? payment(req, res)
    : req.method === "POST" && url.pathname === "/webhooks/drain"
    ? drain(res)
    : req.method === "POST" && url.pathname === "/webhooks/seed"
    ? db.seedDeliveries(Number(url.searchParams.get("n")), url.searchParams.get("url")!).then(() => send(res, 200, {}))
    : Promise.resolve(send(res, 404, { error: { code: "not_found" } }))
  route.catch((error: unknown) => send(res, 500, { error: { code: "internal_error", message: String(error) } }))
})
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 }))
})
process.on("SIGTERM", () => server.close(() => void db.close().then(() => process.exit(0))))
