/**
 * The HTTP surface of settlement batches, as a merchant, the operator and a settlement
 * payout provider call it: the operator's schedule (validation of every field at once, a chain no
 * provider pays on, 404s), the merchant's batches (list, get, 404, the statement of an open batch
 * refused, the downloads of a closed one with their media types and file names), `/me`'s
 * `capabilities.crypto`, and the provider notification route (HEAD check, unknown provider,
 * verification, a text/plain body read as sent). The money of batches is tested in
 * test/core/SettlementBatches.test.ts.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import type { SettlementScheduleInput } from "../../adapters/http/api/SettlementsApi.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import type { ApiError } from "../../core/ApiError.ts"
import * as Money from "../../core/Money.ts"
import { CallbackRejected } from "../../core/ports/PaymentProvider.ts"
import { type SettlementPayoutProvider, SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import { hostLayer } from "../../host/Host.ts"
import { adminToken, call, createMerchant, type Reply, testConfig } from "../support/Host.ts"
import { narrative } from "../support/Narrative.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

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

/** A refusal the typed client decoded: its code, and the status that code is answered with. */
const refusedWith = (error: ApiError, status: number, code: string) => {
  assert.strictEqual(httpStatus[error.code], status, error.message)
  assert.strictEqual(error.code, code)
}

/** The same for a raw reply (a request the typed client cannot make). */
const rawRefusal = (reply: Reply, status: number, code: string) => {
  assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error.code, code)
}

const admin = apiAs(adminToken)

const getSchedule = (shopId: string, environment: "sandbox" | "production") =>
  Effect.flatMap(admin, (api) => api.settlementAdmin.getSchedule({ params: { shopId }, query: { environment }, responseMode: "decoded-and-response" }))

const putSchedule = (shopId: string, environment: "sandbox" | "production", payload: typeof SettlementScheduleInput.Type) =>
  Effect.flatMap(admin, (api) => api.settlementAdmin.putSchedule({ params: { shopId }, query: { environment }, payload, responseMode: "decoded-and-response" }))

/** Raw: bodies with values or fields the typed client cannot send. */
const putScheduleRaw = (shopId: string, environment: string | undefined, body: unknown) =>
  call("PUT", `/admin/v1/shops/${shopId}/settlement-schedule${environment === undefined ? "" : `?environment=${environment}`}`, { bearer: adminToken, body })

const destination = { kind: "usdc", chain: "POLY", address: "0x1111222233334444555566667777888899990000" } as const
const daily = { frequency: "daily", time: "18:00", timeZone: "America/Mexico_City", destination } as const

const crypto = (bearer: string) => Effect.flatMap(apiAs(bearer), (api) => Effect.map(api.identity.me(), (me) => me.capabilities.crypto))

describe("settlements over HTTP", () => {
  layer(hostLayer(testConfig(), MemoryStore.layer, undefined, SettlementPayoutProviders.layer([provider])), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("operator schedule: the sandbox default, every invalid field at once, an unpaid chain, 404s, a production schedule", () =>
      narrative((step) => Effect.gen(function*() {
        const m = yield* createMerchant()
        const shopId = m.shops[0]!.id

        yield* step("the sandbox default schedule, none in production, and the refused reads")
        // A sandbox shop starts with the default schedule; a production shop has none.
        const [sandbox, sandboxResponse] = yield* getSchedule(shopId, "sandbox")
        assert.strictEqual(sandboxResponse.status, 200)
        assert.deepInclude(sandbox, { shopId, environment: "sandbox", frequency: "daily", weekday: null, time: "00:00", timeZone: "UTC", minimumUsd: 0, keepReserve: true })
        assert.strictEqual(sandbox.destination.kind === "usdc" ? sandbox.destination.chain : sandbox.destination.kind, "SANDBOX")
        assert.match(sandbox.nextCloseAt ?? "", /T00:00:00\.000Z$/)
        refusedWith(yield* refused(getSchedule(shopId, "production")), 404, "not_found")
        refusedWith(yield* refused(getSchedule("shop_unknown", "sandbox")), 404, "not_found")
        // Raw: no environment in the query, which the typed client requires.
        rawRefusal(yield* call("GET", `/admin/v1/shops/${shopId}/settlement-schedule`, { bearer: adminToken }), 400, "invalid_request")
        refusedWith(
          yield* refused(Effect.flatMap(apiAs(m.keys.sandbox.secretKey), (api) => api.settlementAdmin.getSchedule({ params: { shopId }, query: { environment: "sandbox" } }))),
          401,
          "invalid_api_key"
        )

        yield* step("every invalid value of a schedule refused at once, each with its path")
        // Every problem of the values in one answer, each with its path (raw: values the schema refuses).
        const invalid = yield* putScheduleRaw(shopId, "production", {
          frequency: "weekly",
          time: "25:00",
          timeZone: "Mars/Olympus",
          destination: { kind: "usdc", chain: "poly!", address: "0x1" }
        })
        rawRefusal(invalid, 400, "invalid_request")
        assert.deepStrictEqual(invalid.body.error.details.issues.map((i: { path: string }) => i.path), [
          "weekday",
          "time",
          "timeZone",
          "destination.chain",
          "destination.address"
        ])
        yield* step("shape problems refused at once")
        // Shape problems (a frequency that does not exist, a negative minimum, an unknown field, a missing one) at once too.
        const shape = yield* putScheduleRaw(shopId, "production", { frequency: "hourly", time: "18:00", minimumUsd: -1, extra: true })
        rawRefusal(shape, 400, "invalid_request")
        assert.sameMembers(shape.body.error.details.issues.map((i: { path: string }) => i.path), ["frequency", "minimumUsd", "extra", "destination"])
        assert.deepStrictEqual(shape.body.error.details.missingFields, ["destination"])
        const daysOff = yield* putScheduleRaw(shopId, "production", { ...daily, weekday: 3, minimumUsd: 10.005 })
        rawRefusal(daysOff, 400, "invalid_request")
        assert.deepStrictEqual(daysOff.body.error.details.issues.map((i: { path: string }) => i.path), ["weekday", "minimumUsd"])
        const reserve = yield* putScheduleRaw(shopId, "production", { ...daily, keepReserve: "no" })
        rawRefusal(reserve, 400, "invalid_request")
        assert.deepStrictEqual(reserve.body.error.details.issues.map((i: { path: string }) => i.path), ["keepReserve"])
        rawRefusal(yield* putScheduleRaw(shopId, undefined, daily), 400, "invalid_request")
        refusedWith(yield* refused(putSchedule("shop_unknown", "production", daily)), 404, "not_found")

        yield* step("a chain no provider pays on in production refused")
        // No provider pays on ETH in production.
        const eth = yield* refused(putSchedule(shopId, "production", { ...daily, destination: { ...destination, chain: "ETH" } }))
        refusedWith(eth, 422, "settlement_destination_unavailable")
        assert.strictEqual(eth.details["chain"], "ETH")
        refusedWith(yield* refused(getSchedule(shopId, "production")), 404, "not_found")

        yield* step("a production schedule on POLY set, its open batch and next close")
        // POLY is paid in production by the provider: the schedule is set, the open batch closes at its next close.
        const live = m.keys.production.secretKey
        assert.deepStrictEqual(yield* crypto(live), [])
        // Raw: `weekday: null`, which the typed client cannot send: null for an optional field is the
        // same as leaving it out (the API description says so).
        const set = yield* putScheduleRaw(shopId, "production", { ...daily, weekday: null, minimumUsd: 25.5 })
        assert.strictEqual(set.status, 200, JSON.stringify(set.body))
        assert.deepInclude(set.body, { shopId, environment: "production", frequency: "daily", weekday: null, time: "18:00", timeZone: "America/Mexico_City", minimumUsd: 25.5, keepReserve: true })
        assert.deepStrictEqual(set.body.destination, daily.destination)
        // 18:00 in Mexico City (UTC-6 all year since 2022) is 00:00 UTC.
        assert.match(set.body.nextCloseAt, /T00:00:00\.000Z$/)
        assert.deepStrictEqual((yield* getSchedule(shopId, "production"))[0], set.body)
        assert.deepStrictEqual(yield* crypto(live), ["USDC"])
        const batches = yield* (yield* apiAs(live)).settlements.list({ query: {} })
        assert.strictEqual(batches.data.length, 1)
        assert.deepInclude(batches.data[0], { status: "open", environment: "production", destination: daily.destination, net: null, statement: null })
        assert.strictEqual(batches.data[0]!.period.end, set.body.nextCloseAt)

        yield* step("weekly on Friday, then manual: no close and no crypto")
        // Weekly on Friday, then manual: no close, no crypto.
        const [weekly, weeklyResponse] = yield* putSchedule(shopId, "production", { ...daily, frequency: "weekly", weekday: 5, timeZone: "UTC" })
        assert.strictEqual(weeklyResponse.status, 200)
        assert.strictEqual(new Date(weekly.nextCloseAt ?? "").getUTCDay(), 5)
        const [manual] = yield* putSchedule(shopId, "production", { ...daily, frequency: "manual" })
        assert.deepInclude(manual, { frequency: "manual", nextCloseAt: null })
        assert.deepStrictEqual(yield* crypto(live), [])
      })))
    it.effect("merchant: the open batch first, get, 404s, an open batch's statement is 409, /me crypto", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const sk = m.keys.sandbox.secretKey
        const api = yield* apiAs(sk)
        assert.deepStrictEqual((yield* api.identity.me()).capabilities.crypto, ["USDC"])

        const [list, listResponse] = yield* api.settlements.list({ query: {}, responseMode: "decoded-and-response" })
        assert.strictEqual(listResponse.status, 200)
        assert.deepStrictEqual(list.pagination, { total: 1, limit: 50, offset: 0, pages: 1 })
        const open = list.data[0]!
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
        assert.strictEqual(open.destination.kind === "usdc" ? open.destination.chain : open.destination.kind, "SANDBOX")

        const [got, gotResponse] = yield* api.settlements.get({ params: { id: open.id }, responseMode: "decoded-and-response" })
        assert.strictEqual(gotResponse.status, 200)
        assert.deepStrictEqual(got, open)
        for (const early of [yield* refused(api.settlements.statementPdf({ params: { id: open.id } })), yield* refused(api.settlements.statementCsv({ params: { id: open.id } }))]) {
          refusedWith(early, 409, "settlement_open")
          assert.deepStrictEqual(early.details, { settlementId: open.id, closesAt: open.period.end })
        }
        const unknown = { params: { id: "STL-unknown" } }
        for (const refusal of [yield* refused(api.settlements.get(unknown)), yield* refused(api.settlements.statementPdf(unknown)), yield* refused(api.settlements.statementCsv(unknown))]) {
          refusedWith(refusal, 404, "not_found")
        }
        // Another merchant's batch is unknown to this one; so is the same shop's in the other environment.
        const other = yield* createMerchant()
        const getAs = (bearer: string) => refused(Effect.flatMap(apiAs(bearer), (as) => as.settlements.get({ params: { id: open.id } })))
        refusedWith(yield* getAs(other.keys.sandbox.secretKey), 404, "not_found")
        refusedWith(yield* getAs(m.keys.production.secretKey), 404, "not_found")
        assert.deepStrictEqual((yield* (yield* apiAs(m.keys.production.secretKey)).settlements.list({ query: {} })).data, [])
        refusedWith(yield* refused(Effect.flatMap(apiAs(m.keys.sandbox.publishableKey), (as) => as.settlements.list({ query: {} }))), 403, "secret_key_required")
        // Raw: no Authorization header, which the typed client always sends.
        rawRefusal(yield* call("GET", "/api/v1/me/settlements"), 401, "missing_authorization")
        // Paging is clamped.
        const paged = yield* api.settlements.list({ query: { limit: 0, offset: 5 } })
        assert.deepStrictEqual(paged, { data: [], pagination: { total: 1, limit: 1, offset: 5, pages: 1 } })
      }))

    it.effect("a closed batch's statements download as a PDF and a CSV attachment named after the batch", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const api = yield* apiAs(m.keys.sandbox.secretKey)
        yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: Money.decimal("100") } })
        const [, advanced] = yield* api.sandbox.advance({ payload: { seconds: 86_400 }, headers: {}, responseMode: "decoded-and-response" })
        assert.strictEqual(advanced.status, 200)
        const list = (yield* api.settlements.list({ query: {} })).data
        assert.strictEqual(list[0]!.status, "open")
        const closed = list.find((b) => b.status !== "open")
        assert.isDefined(closed, JSON.stringify(list))
        assert.deepStrictEqual(closed!.statement, {
          pdf: `/me/settlements/${closed!.id}/statement.pdf`,
          csv: `/me/settlements/${closed!.id}/statement.csv`,
          readyAt: closed!.statement!.readyAt
        })

        const [pdf, pdfResponse] = yield* api.settlements.statementPdf({ params: { id: closed!.id }, responseMode: "decoded-and-response" })
        assert.strictEqual(pdfResponse.status, 200)
        assert.strictEqual(pdfResponse.headers["content-type"], "application/pdf")
        assert.strictEqual(pdf.headers["content-disposition"], `attachment; filename="${closed!.id}.pdf"`)
        assert.match(new TextDecoder().decode(pdf.body.subarray(0, 8)), /^%PDF-/)

        const [csv, csvResponse] = yield* api.settlements.statementCsv({ params: { id: closed!.id }, responseMode: "decoded-and-response" })
        assert.strictEqual(csvResponse.status, 200)
        assert.strictEqual(csvResponse.headers["content-type"], "text/csv; charset=utf-8")
        assert.strictEqual(csv.headers["content-disposition"], `attachment; filename="${closed!.id}.csv"`)
        const rows = csv.body.replace(/^\uFEFF/, "").trimEnd().split("\r\n")
        assert.strictEqual(rows[0], "batch_id,at_utc,kind,transaction_id,reference,merchant_order_id,method,amount_local,currency_local,gross_usd,fees_usd,reserve_usd,owed_recovered_usd,refunds_usd,chargebacks_usd,other_usd,net_usd,installments")
        assert.strictEqual(rows.length - 1, closed!.lineCount)
      }))

    // Notifications stay raw: the provider's bytes and Content-Type are what is under test.
    it.effect("provider notifications: HEAD check, unknown provider, unverified refused, a text/plain body read as sent", () =>
      Effect.gen(function*() {
        const path = "/api/v1/providers/stl-test/settlement-callbacks"
        const head = yield* call("HEAD", path)
        assert.strictEqual(head.status, 200)
        assert.strictEqual((yield* call("HEAD", "/api/v1/providers/nobody/settlement-callbacks")).status, 404)

        const sns = JSON.stringify({ Type: "Notification", MessageId: "m-1", Message: "{\"notificationType\":\"transfers\"}" })
        const textPlain = { "content-type": "text/plain; charset=UTF-8" }
        rawRefusal(yield* call("POST", "/api/v1/providers/nobody/settlement-callbacks", { rawBody: sns, headers: textPlain }), 404, "not_found")
        rawRefusal(yield* call("POST", path, { rawBody: sns, headers: { ...textPlain, "x-stl-signature": "forged" } }), 401, "authentication_failed")
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
