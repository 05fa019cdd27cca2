/**
 * The HTTP surface of settlement batches (issue 29), as a merchant, the operator and a settlement
 * payout provider call it: the operator's schedule (validation of every field at once, a chain no
 * provider pays on, 404s), the merchant's batches (list, get, 404, the statement of an open batch
 * refused, the downloads of a closed one with their media types and file names), `/me`'s
 * `capabilities.crypto`, and the provider notification route (HEAD check, unknown provider,
 * verification, a text/plain body read as sent). The money of batches is tested in
 * test/core/SettlementBatches.test.ts.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { CallbackRejected } from "../../core/ports/PaymentProvider.ts"
import { type SettlementPayoutProvider, SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import { hostLayer } from "../../host/Host.ts"
import { adminToken, call, createMerchant, type Reply, testConfig } from "../support/Host.ts"

/** Bodies the provider's notifications carried, as the provider received them. */
const received: Array<{ readonly contentType: string | undefined; readonly body: string }> = []

/** A settlement payout upstream in miniature: production only, on POLY; notifications signed "valid". */
const provider: SettlementPayoutProvider = {
  id: "stl-test",
  environments: ["production"],
  chains: ["POLY"],
  send: (request) => Effect.succeed({ providerRef: `ref_${request.batchId}`, status: "pending" }),
  status: (providerRef) => Effect.succeed({ providerRef, status: "pending" }),
  verifyCallback: (headers, rawBody) => {
    if (headers["x-stl-signature"] !== "valid") return Effect.fail(new CallbackRejected({ reason: "bad signature" }))
    received.push({ contentType: headers["content-type"], body: rawBody })
    return Effect.succeed([])
  }
}

const refused = (reply: Reply, status: number, code: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error.code, code)
}

const schedulePath = (shopId: string, environment?: string) =>
  `/admin/v1/shops/${shopId}/settlement-schedule${environment === undefined ? "" : `?environment=${environment}`}`

const putSchedule = (shopId: string, environment: string, body: unknown) =>
  call("PUT", schedulePath(shopId, environment), { bearer: adminToken, body })

const daily = { frequency: "daily", time: "18:00", timeZone: "America/Mexico_City", destination: { kind: "usdc", chain: "POLY", address: "0x1111222233334444555566667777888899990000" } }

describe("settlements over HTTP", () => {
  layer(hostLayer(testConfig(), MemoryStore.layer, undefined, SettlementPayoutProviders.layer([provider])), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("operator schedule: the sandbox default, every invalid field at once, an unpaid chain, 404s, a production schedule", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const shopId = m.shops[0]!.id

        // A sandbox shop starts with the default schedule; a production shop has none.
        const sandbox = yield* call("GET", schedulePath(shopId, "sandbox"), { bearer: adminToken })
        assert.strictEqual(sandbox.status, 200, JSON.stringify(sandbox.body))
        assert.deepInclude(sandbox.body, { shopId, environment: "sandbox", frequency: "daily", weekday: null, time: "00:00", timeZone: "UTC", minimumUsd: 0, keepReserve: true })
        assert.strictEqual(sandbox.body.destination.chain, "SANDBOX")
        assert.match(sandbox.body.nextCloseAt, /T00:00:00\.000Z$/)
        refused(yield* call("GET", schedulePath(shopId, "production"), { bearer: adminToken }), 404, "not_found")
        refused(yield* call("GET", schedulePath("shop_unknown", "sandbox"), { bearer: adminToken }), 404, "not_found")
        refused(yield* call("GET", schedulePath(shopId), { bearer: adminToken }), 400, "invalid_request")
        refused(yield* call("GET", schedulePath(shopId, "sandbox"), { bearer: m.keys.sandbox.secretKey }), 401, "invalid_api_key")

        // Every problem of the values in one answer, each with its path.
        const invalid = yield* putSchedule(shopId, "production", {
          frequency: "weekly",
          time: "25:00",
          timeZone: "Mars/Olympus",
          destination: { kind: "usdc", chain: "poly!", address: "0x1" }
        })
        refused(invalid, 400, "invalid_request")
        assert.deepStrictEqual(invalid.body.error.details.issues.map((i: { path: string }) => i.path), [
          "weekday",
          "time",
          "timeZone",
          "destination.chain",
          "destination.address"
        ])
        // Shape problems (a frequency that does not exist, a negative minimum, an unknown field, a missing one) at once too.
        const shape = yield* putSchedule(shopId, "production", { frequency: "hourly", time: "18:00", minimumUsd: -1, extra: true })
        refused(shape, 400, "invalid_request")
        assert.sameMembers(shape.body.error.details.issues.map((i: { path: string }) => i.path), ["frequency", "minimumUsd", "extra", "destination"])
        assert.deepStrictEqual(shape.body.error.details.missingFields, ["destination"])
        const daysOff = yield* putSchedule(shopId, "production", { ...daily, weekday: 3, minimumUsd: 10.005 })
        refused(daysOff, 400, "invalid_request")
        assert.deepStrictEqual(daysOff.body.error.details.issues.map((i: { path: string }) => i.path), ["weekday", "minimumUsd"])
        const reserve = yield* putSchedule(shopId, "production", { ...daily, keepReserve: "no" })
        refused(reserve, 400, "invalid_request")
        assert.deepStrictEqual(reserve.body.error.details.issues.map((i: { path: string }) => i.path), ["keepReserve"])
        refused(yield* call("PUT", schedulePath(shopId), { bearer: adminToken, body: daily }), 400, "invalid_request")
        refused(yield* putSchedule("shop_unknown", "production", daily), 404, "not_found")

        // No provider pays on ETH in production.
        const eth = yield* putSchedule(shopId, "production", { ...daily, destination: { ...daily.destination, chain: "ETH" } })
        refused(eth, 422, "settlement_destination_unavailable")
        assert.strictEqual(eth.body.error.details.chain, "ETH")
        refused(yield* call("GET", schedulePath(shopId, "production"), { bearer: adminToken }), 404, "not_found")

        // POLY is paid in production by the provider: the schedule is set, the open batch closes at its next close.
        const live = m.keys.production.secretKey
        assert.deepStrictEqual((yield* call("GET", "/api/v1/me", { bearer: live })).body.capabilities.crypto, [])
        const set = yield* putSchedule(shopId, "production", { ...daily, weekday: null, minimumUsd: 25.5 })
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        assert.deepInclude(set.body, { shopId, environment: "production", frequency: "daily", weekday: null, time: "18:00", timeZone: "America/Mexico_City", minimumUsd: 25.5, keepReserve: true })
        assert.deepStrictEqual(set.body.destination, daily.destination)
        // 18:00 in Mexico City (UTC-6 all year since 2022) is 00:00 UTC.
        assert.match(set.body.nextCloseAt, /T00:00:00\.000Z$/)
        assert.deepStrictEqual((yield* call("GET", schedulePath(shopId, "production"), { bearer: adminToken })).body, set.body)
        assert.deepStrictEqual((yield* call("GET", "/api/v1/me", { bearer: live })).body.capabilities.crypto, ["USDC"])
        const batches = yield* call("GET", "/api/v1/me/settlements", { bearer: live })
        assert.strictEqual(batches.body.data.length, 1)
        assert.deepInclude(batches.body.data[0], { status: "open", environment: "production", destination: daily.destination, net: null, statement: null })
        assert.strictEqual(batches.body.data[0].period.end, set.body.nextCloseAt)

        // Weekly on Friday, then manual: no close, no crypto.
        const weekly = yield* putSchedule(shopId, "production", { ...daily, frequency: "weekly", weekday: 5, timeZone: "UTC" })
        assert.strictEqual(weekly.status, 200, JSON.stringify(weekly.body))
        assert.strictEqual(new Date(weekly.body.nextCloseAt).getUTCDay(), 5)
        const manual = yield* putSchedule(shopId, "production", { ...daily, frequency: "manual" })
        assert.deepInclude(manual.body, { frequency: "manual", nextCloseAt: null })
        assert.deepStrictEqual((yield* call("GET", "/api/v1/me", { bearer: live })).body.capabilities.crypto, [])
      }))

    it.effect("merchant: the open batch first, get, 404s, an open batch's statement is 409, /me crypto", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const me = yield* call("GET", "/api/v1/me", { bearer: sk })
        assert.deepStrictEqual(me.body.capabilities.crypto, ["USDC"])

        const list = yield* call("GET", "/api/v1/me/settlements", { bearer: sk })
        assert.strictEqual(list.status, 200, JSON.stringify(list.body))
        assert.deepStrictEqual(list.body.pagination, { total: 1, limit: 50, offset: 0, pages: 1 })
        const open = list.body.data[0]
        assert.match(open.id, /^STL-/)
        assert.deepInclude(open, {
          status: "open",
          currency: "USD",
          closedAt: null,
          gross: null,
          fees: null,
          net: null,
          lineCount: 0,
          statement: null,
          environment: "sandbox"
        })
        assert.deepStrictEqual(open.payout, { provider: null, reference: null, transactionHash: null, failureReason: null, paidAt: null })
        assert.strictEqual(open.destination.chain, "SANDBOX")

        const got = yield* call("GET", `/api/v1/me/settlements/${open.id}`, { bearer: sk })
        assert.strictEqual(got.status, 200)
        assert.deepStrictEqual(got.body, open)
        for (const path of [`/api/v1/me/settlements/${open.id}/statement.pdf`, `/api/v1/me/settlements/${open.id}/statement.csv`]) {
          const early = yield* call("GET", path, { bearer: sk })
          refused(early, 409, "settlement_open")
          assert.deepStrictEqual(early.body.error.details, { settlementId: open.id, closesAt: open.period.end })
        }
        for (const path of ["/api/v1/me/settlements/STL-unknown", "/api/v1/me/settlements/STL-unknown/statement.pdf", "/api/v1/me/settlements/STL-unknown/statement.csv"]) {
          refused(yield* call("GET", path, { bearer: sk }), 404, "not_found")
        }
        // Another merchant's batch is unknown to this one; so is the same shop's in the other environment.
        const other = yield* createMerchant()
        refused(yield* call("GET", `/api/v1/me/settlements/${open.id}`, { bearer: other.keys.sandbox.secretKey }), 404, "not_found")
        refused(yield* call("GET", `/api/v1/me/settlements/${open.id}`, { bearer: m.keys.production.secretKey }), 404, "not_found")
        assert.deepStrictEqual((yield* call("GET", "/api/v1/me/settlements", { bearer: m.keys.production.secretKey })).body.data, [])
        refused(yield* call("GET", "/api/v1/me/settlements", { bearer: m.keys.sandbox.publishableKey }), 403, "secret_key_required")
        refused(yield* call("GET", "/api/v1/me/settlements"), 401, "missing_authorization")
        // Paging is clamped.
        const paged = yield* call("GET", "/api/v1/me/settlements?limit=0&offset=5", { bearer: sk })
        assert.deepStrictEqual(paged.body, { data: [], pagination: { total: 1, limit: 1, offset: 5, pages: 1 } })
      }))

    it.effect("a closed batch's statements download as a PDF and a CSV attachment named after the batch", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
        const advanced = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 86_400 } })
        assert.strictEqual(advanced.status, 200, JSON.stringify(advanced.body))
        const list = (yield* call("GET", "/api/v1/me/settlements", { bearer: sk })).body.data
        assert.strictEqual(list[0].status, "open")
        const closed = list.find((b: { status: string }) => b.status !== "open")
        assert.isDefined(closed, JSON.stringify(list))
        assert.deepStrictEqual(closed.statement, {
          pdf: `/me/settlements/${closed.id}/statement.pdf`,
          csv: `/me/settlements/${closed.id}/statement.csv`,
          readyAt: closed.statement.readyAt
        })

        const pdf = yield* call("GET", `/api/v1${closed.statement.pdf}`, { bearer: sk })
        assert.strictEqual(pdf.status, 200)
        assert.strictEqual(pdf.headers.get("content-type"), "application/pdf")
        assert.strictEqual(pdf.headers.get("content-disposition"), `attachment; filename="${closed.id}.pdf"`)
        assert.match(String(pdf.body), /^%PDF-/)

        const csv = yield* call("GET", `/api/v1${closed.statement.csv}`, { bearer: sk })
        assert.strictEqual(csv.status, 200)
        assert.strictEqual(csv.headers.get("content-type"), "text/csv; charset=utf-8")
        assert.strictEqual(csv.headers.get("content-disposition"), `attachment; filename="${closed.id}.csv"`)
        const rows = String(csv.body).replace(/^\uFEFF/, "").trimEnd().split("\r\n")
        assert.strictEqual(rows[0], "batch_id,at_utc,kind,transaction_id,reference,merchant_order_id,method,amount_local,currency_local,amount_usd,fees_usd")
        assert.strictEqual(rows.length - 1, closed.lineCount)
      }))

    it.effect("provider notifications: HEAD check, unknown provider, unverified refused, a text/plain body read as sent", () =>
      Effect.gen(function*() {
        const path = "/api/v1/providers/stl-test/settlement-callbacks"
        const head = yield* call("HEAD", path)
        assert.strictEqual(head.status, 200)
        assert.strictEqual((yield* call("HEAD", "/api/v1/providers/nobody/settlement-callbacks")).status, 404)

        const sns = JSON.stringify({ Type: "Notification", MessageId: "m-1", Message: "{\"notificationType\":\"transfers\"}" })
        const textPlain = { "content-type": "text/plain; charset=UTF-8" }
        refused(yield* call("POST", "/api/v1/providers/nobody/settlement-callbacks", { rawBody: sns, headers: textPlain }), 404, "not_found")
        refused(yield* call("POST", path, { rawBody: sns, headers: { ...textPlain, "x-stl-signature": "forged" } }), 401, "authentication_failed")
        assert.strictEqual(received.length, 0)

        const ok = yield* call("POST", path, { rawBody: sns, headers: { ...textPlain, "X-Stl-Signature": "valid" } })
        assert.strictEqual(ok.status, 200, JSON.stringify(ok.body))
        assert.deepStrictEqual(ok.body, { received: true, settlements: 0 })
        assert.deepStrictEqual(received, [{ contentType: "text/plain; charset=UTF-8", body: sns }])
        // JSON is read as text too: the bytes, not a re-serialization.
        const spaced = "{ \"Type\" :  \"Notification\" }\n"
        assert.strictEqual((yield* call("POST", path, { rawBody: spaced, headers: { "content-type": "application/json", "x-stl-signature": "valid" } })).status, 200)
        assert.strictEqual(received[1]!.body, spaced)
      }))
  })
})
