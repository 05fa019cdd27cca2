/**
 * The stack's floor: the baseline's POST /payments (`bench/baseline/Server.ts`, the same 11
 * statements on the same tables) written as a plain Effect application: an `HttpApi` endpoint
 * with a bearer security middleware (the JWT checked with `jose`, as the baseline and the project
 * do), the body and the answer through Schema, the statements through `@effect/sql-pg`, on
 * `NodeHttpServer`. No domain code, no store ports: what this stack costs for the baseline's work,
 * so the project can be measured against the framework as well as against bare Node.
 *
 * It attaches to the tables a baseline process seeded (`BENCH_SEED`: its schema and database).
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { jwtVerify } from "jose"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { Seed } from "../baseline/Db.ts"
import { benchPayment } from "../support/PaymentView.ts"

const seed = JSON.parse(process.env["BENCH_SEED"] ?? "{}") as Seed
const key = new TextEncoder().encode("loopback-jwt-secret-of-at-least-32-bytes")

class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { code: Schema.String }, { httpApiStatus: 401 }) {}
class Conflict extends Schema.TaggedError<Conflict>()("Conflict", { code: Schema.String }, { httpApiStatus: 409 }) {}

class Principal extends Context.Service<Principal, { readonly credentialId: string }>()("bench/floor/Principal") {}

class Bearer extends HttpApiMiddleware.Service<Bearer, { provides: Principal }>()("bench/floor/Bearer", {
  security: { bearer: HttpApiSecurity.bearer },
  error: Unauthorized
}) {}

const View = Schema.Struct({
  transactionId: Schema.String,
  status: Schema.String,
  amount: Schema.Finite,
  currency: Schema.String,
  localAmount: Schema.Finite,
  localCurrency: Schema.String,
  paymentMethodId: Schema.String,
  method: Schema.String,
  country: Schema.String,
  provider: Schema.String,
  providerRef: Schema.String,
  paymentFormUrl: Schema.String,
  paymentData: Schema.Struct({ qrCode: Schema.String }),
  fees: Schema.Struct({ total: Schema.Finite, processing: Schema.Finite, fx: Schema.Finite }),
  userName: Schema.String,
  userEmail: Schema.String,
  createdAt: Schema.String,
  expiresAt: Schema.String
})

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("payments").add(
    HttpApiEndpoint.post("create", "/api/v1/payments", {
      payload: Schema.Struct({ amount: Schema.Finite, paymentMethodId: Schema.String, userName: Schema.String, userEmail: Schema.String, documentId: Schema.String }),
      headers: Schema.Struct({ "idempotency-key": Schema.String }),
      success: View.pipe(Schema.annotate({ httpApiStatus: 201 })),
      error: Conflict
    }).middleware(Bearer)
  )
)

const BearerLive = Layer.succeed(Bearer)({
  bearer: (effect, { credential }) =>
    Effect.tryPromise({
      try: () => jwtVerify(Redacted.value(credential), key, { algorithms: ["HS256"], issuer: "payment-orchestration-engine", audience: "api" }),
      catch: () => new Unauthorized({ code: "invalid_token" })
    }).pipe(Effect.flatMap(({ payload }) => Effect.provideService(effect, Principal, { credentialId: payload.sub! })))
})

const PaymentsLive = HttpApiBuilder.group(Api, "payments", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const first = <A extends object>(rows: ReadonlyArray<A>): A | undefined => rows[0]
    // The seeded merchant, shop and rate always exist; a missing one is a broken seed (a defect).
    const one = <A extends object>(rows: ReadonlyArray<A>): A => {
      const row = rows[0]
      if (row === undefined) throw new Error("bench seed: a seeded row is missing")
      return row
    }
    return handlers.handle("create", ({ headers, payload }) =>
      Effect.gen(function*() {
        const { credentialId } = yield* Principal
        const credential = first(yield* sql<{ merchantId: string }>`SELECT * FROM credentials WHERE id = ${credentialId}`)
        if (credential === undefined) return yield* new Unauthorized({ code: "token_revoked" })
        const merchant = one(yield* sql<{ id: string }>`SELECT * FROM merchants WHERE id = ${credential.merchantId}`)
        const shop = one(yield* sql<{ id: string }>`SELECT * FROM shops WHERE merchant_id = ${merchant.id} ORDER BY created_at, id LIMIT 1`)
        const rate = Number(one(yield* sql<{ perUsd: string }>`SELECT * FROM fx_rates WHERE currency = 'BRL'`).perUsd)
        yield* sql`SELECT * FROM provider_routes WHERE environment = 'sandbox' AND shop_id = ${shop.id} ORDER BY priority, provider_id`
        const scope = `${credentialId}:POST /api/v1/payments`
        const now = new Date()
        const claimed = yield* sql`
          INSERT INTO idempotency_keys (scope, key, request_hash, state, locked_until, created_at, expires_at)
          VALUES (${scope}, ${headers["idempotency-key"]}, 'h', 'in_progress', ${new Date(now.getTime() + 60_000)}, ${now}, ${new Date(now.getTime() + 86_400_000)})
          ON CONFLICT DO NOTHING RETURNING scope`
        if (claimed.length === 0) return yield* new Conflict({ code: "idempotency_key_in_use" })
        const { id, view, data: document } = benchPayment(payload, rate, now)
        const data = JSON.stringify(document)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`
            INSERT INTO payments (id, environment, shop_id, status, payment_method_id, method, country, merchant_order_id, version, created_at, data)
            VALUES (${id}, 'sandbox', ${shop.id}, 'pending', '1001', 'pix', 'BRA', NULL, 1, ${now}, ${data})`
          yield* sql`
            INSERT INTO jobs (id, kind, payload, run_at, status, dedupe_key, clock_scope, created_at)
            VALUES (${`job_${randomUUID()}`}, 'payment.expire', ${JSON.stringify({ paymentId: id })}, ${new Date(now.getTime() + 1_800_000)},
              'pending', ${`payment.expire:${id}`}, ${shop.id}, ${now})`
        }))
        yield* sql`UPDATE idempotency_keys SET state = 'completed', response_status = 201, response_body = ${JSON.stringify(view)}
          WHERE scope = ${scope} AND key = ${headers["idempotency-key"]}`
        return view
      }).pipe(Effect.catchTag("SqlError", Effect.die))
    )
  })
)

const Routes = HttpApiBuilder.layer(Api).pipe(Layer.provide(PaymentsLive))
const Sql = PgClient.layer({
  url: Redacted.make(seed.databaseUrl),
  maxConnections: 10,
  startupParameters: { search_path: seed.schema },
  transformResultNames: (s) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
})

Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  if (server.address._tag === "UnixPathAddress") return yield* Effect.die(new Error("expected a TCP address"))
  console.log(JSON.stringify({ port: server.address.port }))
  return yield* Effect.never
}).pipe(
  Effect.provide(HttpRouter.serve(Routes, { disableLogger: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide([Sql, BearerLive])
  )),
  NodeRuntime.runMain
)
