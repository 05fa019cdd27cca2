/**
 * The API operations the console's money pages read, added for them: the daily closing balances
 * (`GET /me/balance/history`) and a settlement batch's lines as JSON
 * (`GET /me/settlements/{id}/lines`), on every store target; bad input is a 400 envelope.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, createMerchant, keepAvailable, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

for (const target of storeTargets("console_money")) {
  describe(`console money API on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("daily closing balances per currency across simulated days", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          yield* keepAvailable(m.shops[0]!.id)
          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
          yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 86_400 } })
          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 25.5 } })
          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "MXN", amount: 300 } })

          const history = yield* call("GET", "/api/v1/me/balance/history?days=5", { bearer: sk })
          assert.strictEqual(history.status, 200, JSON.stringify(history.body))
          assert.strictEqual(history.body.book, "available")
          assert.strictEqual(history.body.days.length, 5)
          assert.match(history.body.days[4], /^\d{4}-\d{2}-\d{2}$/)
          const usd = history.body.currencies.find((c: { currency: string }) => c.currency === "USD")
          const mxn = history.body.currencies.find((c: { currency: string }) => c.currency === "MXN")
          assert.strictEqual(history.body.currencies[0].currency, "USD")
          assert.deepStrictEqual(usd.closing, [0, 0, 0, 100, 125.5])
          assert.deepStrictEqual(mxn.closing, [0, 0, 0, 0, 300])
          // The last day is the balance now.
          const balance = yield* call("GET", "/api/v1/me/balance", { bearer: sk })
          assert.strictEqual(balance.body.balance.available, 125.5)

          const standard = yield* call("GET", "/api/v1/me/balance/history", { bearer: sk })
          assert.strictEqual(standard.body.days.length, 30)

          for (const days of ["0", "91", "2.5", "ten"]) {
            const bad = yield* call("GET", `/api/v1/me/balance/history?days=${days}`, { bearer: sk })
            assert.strictEqual(bad.status, 400, days)
            assert.strictEqual(bad.body.error.code, "invalid_request")
          }
          const unknown = yield* call("GET", "/api/v1/me/balance/history?shopId=shop_nope", { bearer: sk })
          assert.strictEqual(unknown.status, 404)
        }))

      it.effect("a closed batch's lines as JSON, paged; an open batch is 409, another id 404", () =>
        Effect.gen(function*() {
          const m = yield* createMerchant()
          const sk = m.keys.sandbox.secretKey
          yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
          yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 86_400 } })
          const list = (yield* call("GET", "/api/v1/me/settlements", { bearer: sk })).body.data
          const closed = list.find((b: { status: string }) => b.status !== "open")
          const open = list.find((b: { status: string }) => b.status === "open")
          assert.isDefined(closed, JSON.stringify(list))

          const lines = yield* call("GET", `/api/v1/me/settlements/${closed.id}/lines`, { bearer: sk })
          assert.strictEqual(lines.status, 200, JSON.stringify(lines.body))
          assert.strictEqual(lines.body.settlementId, closed.id)
          assert.strictEqual(lines.body.pagination.total, closed.lineCount)
          const sum = lines.body.data.reduce((total: number, l: { amountUsd: number }) => total + Math.round(l.amountUsd * 100), 0)
          assert.strictEqual(sum, Math.round(closed.net * 100))
          assert.deepInclude(lines.body.data[0], { kind: "adjustment", amountUsd: 100, currencyLocal: null })

          const paged = yield* call("GET", `/api/v1/me/settlements/${closed.id}/lines?limit=1&offset=5`, { bearer: sk })
          assert.deepStrictEqual(paged.body.data, [])
          assert.strictEqual(paged.body.pagination.limit, 1)

          const openLines = yield* call("GET", `/api/v1/me/settlements/${open.id}/lines`, { bearer: sk })
          assert.strictEqual(openLines.status, 409)
          assert.strictEqual(openLines.body.error.code, "settlement_open")
          const missing = yield* call("GET", "/api/v1/me/settlements/STL-unknown/lines", { bearer: sk })
          assert.strictEqual(missing.status, 404)
          const other = yield* createMerchant()
          const foreign = yield* call("GET", `/api/v1/me/settlements/${closed.id}/lines`, { bearer: other.keys.sandbox.secretKey })
          assert.strictEqual(foreign.status, 404)
        }))
    })
  })
}
