import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
const main = Effect.gen(function*() {
  const db = yield* Effect.promise(() => PGlite.create())
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" })
  yield* Effect.promise(() => server.start())
  const addr = (server as any).server.address()
  const layer = PgClient.layerFrom(PgClient.makeClient({ host: "127.0.0.1", port: addr.port, username: "postgres", database: "postgres" }))
  const t0 = Date.now()
  yield* Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`create table t (id int primary key, v numeric(20,4), at timestamptz default now(), j jsonb)`
    const tx = (i: number) => sql.withTransaction(Effect.gen(function*() {
      const r = yield* sql`select count(*)::int as c from t`
      yield* Effect.sleep(5)
      yield* sql`insert into t (id, v, j) values (${i}, ${"1.2345"}, ${JSON.stringify({a:1})})`
      return r
    }))
    const res = yield* Effect.all([1,2,3,4,5].map(tx), { concurrency: "unbounded" })
    console.log(JSON.stringify(res))
    console.log(yield* sql`select * from t`)
    const e = yield* Effect.flip(sql.withTransaction(Effect.gen(function*() { yield* sql`insert into t (id) values (99)`; yield* sql`insert into t (id) values (1)` })))
    console.log("err", (e as any).cause?.code ?? e, Object.keys(e))
    console.log(yield* sql`select count(*) from t`)
  }).pipe(Effect.provide(layer))
  console.log("ms", Date.now() - t0)
})
Effect.runPromise(Effect.scoped(main) as any).then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
