/**
 * Two host replicas on one PostgreSQL database: a burst of 1000 events is delivered with exactly
 * 1000 first attempts, none twice (deliveries are leased with FOR UPDATE SKIP LOCKED).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import { loopbackConfig } from "../../host/Config.ts"
import { hostLayer } from "../../host/Host.ts"
import { Transactions } from "../../core/ports/Transactions.ts"
import { Merchants } from "../../core/tenancy/Merchants.ts"
import { Events } from "../../core/webhooks/Events.ts"
import { Webhooks } from "../../core/webhooks/Webhooks.ts"
import { SqlClient } from "effect/sql"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"

const url = process.env["DATABASE_URL"]
if (url === undefined) console.log("SKIP replica test: it needs a PostgreSQL server (DATABASE_URL)")

describe.skipIf(url === undefined)("two replicas on one PostgreSQL", () => {
  it.live("deliver a burst of 1000 events once each", () =>
    Effect.gen(function*() {
      const schema = `t_replicas_${process.pid}_${Date.now().toString(36)}`
      const received: Array<string> = []
      const server = createServer((req, res) => {
        received.push(String(req.headers["x-service-delivery"]))
        req.resume()
        req.on("end", () => res.writeHead(200).end())
      })
      yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
      const address = server.address()
      const subscriberUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks`

      const replica = () => ManagedRuntime.make(hostLayer(loopbackConfig({ webhookAllowPrivateTargets: true }), SqlStore.postgres(url!, { schema, maxConnections: 5 })))
      const a = replica()
      const b = replica()
      try {
        const { shops } = yield* Effect.promise(() => a.runPromise(Merchants.use((m) => m.create({ name: "Burst", email: "b@x.test" }))))
        const scope = { environment: "sandbox" as const, shopId: shops[0]!.id }
        yield* Effect.promise(() => b.runPromise(Webhooks.use((w) => Effect.asVoid(w.create(scope, { url: subscriberUrl, events: ["*"] })))))
        yield* Effect.promise(() =>
          a.runPromise(Effect.gen(function*() {
            const events = yield* Events
            const tx = yield* Transactions
            yield* Effect.forEach(Array.from({ length: 1000 }, (_, i) => i), (i) =>
              tx.run(Effect.asVoid(events.emit({ ...scope, merchantId: "mer_replicas", type: "payment.completed", data: { n: i }, relatedTxId: null }))), { concurrency: 8, discard: true })
          }))
        )
        for (let i = 0; i < 400 && received.length < 1000; i++) yield* Effect.promise(() => new Promise((r) => setTimeout(r, 50)))
        yield* Effect.promise(() => new Promise((r) => setTimeout(r, 1000)))
        assert.strictEqual(received.length, 1000)
        assert.strictEqual(new Set(received).size, 1000)
      } finally {
        yield* Effect.promise(() => a.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`))).catch(() => undefined))
        yield* Effect.promise(() => Promise.all([a.dispose(), b.dispose()]))
        yield* Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
      }
    }), 120_000)
})
