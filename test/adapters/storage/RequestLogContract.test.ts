/**
 * The merchant's request log in the storage contract, on every store adapter: the newest 100 per
 * environment and shop, newest first, shops and environments apart; on SQL another replica (a
 * second store on the same database) reads what this one wrote, once written.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type LoggedRequest, RequestLogStore } from "../../../core/ports/RequestLogStore.ts"
import { SqlRequestLogStore } from "../../../adapters/storage/sql/SqlRequestLogStore.ts"
import { storeTargets } from "../../support/Stores.ts"
import { eventually } from "../../support/Host.ts"

const line = (shopId: string, n: number, environment: LoggedRequest["environment"] = "sandbox"): LoggedRequest => ({
  environment, shopId, requestId: `req_${shopId}_${environment}_${n}`, method: "GET", path: `/api/v1/payments/${n}`, status: 200, durationMs: 1.5, atMs: 1_000 + n
})

for (const target of storeTargets("requestlog")) {
  describe(`request log on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("keeps each shop's newest 100 in its environment, newest first; another replica reads them", () =>
        Effect.gen(function*() {
          const log = yield* RequestLogStore
          const shop = `shop_${Math.random().toString(36).slice(2, 8)}`
          for (let n = 1; n <= 105; n++) log.record(line(shop, n))
          log.record(line(`${shop}_b`, 1))
          log.record(line(shop, 1, "production"))
          const recent = yield* log.recent("sandbox", shop)
          assert.strictEqual(recent.length, 100)
          assert.deepStrictEqual([recent[0]!.requestId, recent[99]!.requestId], [`req_${shop}_sandbox_105`, `req_${shop}_sandbox_6`])
          assert.deepStrictEqual((yield* log.recent("production", shop)).map((r) => r.path), ["/api/v1/payments/1"])
          assert.strictEqual((yield* log.recent("sandbox", `${shop}_b`)).length, 1)

          const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
          assert.strictEqual(Option.isSome(sql), target.name !== "memory")
          if (Option.isSome(sql)) {
            const other = Context.get(yield* Layer.build(Layer.fresh(SqlRequestLogStore)).pipe(Effect.provideService(SqlClient.SqlClient, sql.value)), RequestLogStore)
            const seen = yield* eventually(other.recent("sandbox", shop), (rows) => rows.length === 100)
            assert.deepStrictEqual(seen.map((r) => r.requestId), recent.map((r) => r.requestId))
            assert.strictEqual(seen[0]!.durationMs, 2, "whole milliseconds once written")
            const stored = yield* sql.value<{ readonly n: string | number }>`SELECT count(*) AS n FROM request_log WHERE shop_id = ${shop}`
            assert.strictEqual(Number(stored[0]!.n), 101, "trimmed to 100 per environment and shop")
          }
        }).pipe(Effect.scoped))

      it.effect("loses no line recorded while an earlier batch is being written", () =>
        Effect.gen(function*() {
          const log = yield* RequestLogStore
          const shop = `shop_${Math.random().toString(36).slice(2, 8)}`
          // 90 lines over about half a second: several flushes (every 100 ms) are under way as lines arrive.
          for (let n = 1; n <= 90; n++) {
            log.record(line(shop, n))
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
          }
          const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
          const reader = Option.isNone(sql)
            ? log
            : Context.get(yield* Layer.build(Layer.fresh(SqlRequestLogStore)).pipe(Effect.provideService(SqlClient.SqlClient, sql.value)), RequestLogStore)
          const seen = yield* eventually(reader.recent("sandbox", shop), (rows) => rows.length === 90)
          assert.deepStrictEqual(seen.map((r) => r.requestId), Array.from({ length: 90 }, (_, i) => `req_${shop}_sandbox_${90 - i}`))
        }).pipe(Effect.scoped))
    })
  })
}
