/**
 * Settlement batches from outside, as the issue checks them: on a sandbox shop, random payments,
 * refunds and chargebacks over several simulated days (the sandbox test clock), then the batches
 * through the API. Every closed batch is paid (sandbox chain), its CSV parses (csv-parse) with one
 * row per line summing to its net to the cent, its PDF opens in a PDF reader (poppler), no
 * movement is in two batches, and both events reach the merchant's webhook once per batch.
 *
 * "The ledger unchanged in total": a twin shop lives the same history with its schedule set to
 * `manual` (never swept); what the swept shop still holds plus what its batches paid out equals
 * what the twin holds, to the cent.
 */
import { assert, describe, layer } from "@effect/vitest"
import { parse } from "csv-parse/sync"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { ApiError } from "../../core/ApiError.ts"
import * as Money from "../../core/Money.ts"
import { adminToken, createMerchant, eventually, testHost } from "../support/Host.ts"
import { narrative } from "../support/Narrative.ts"
import { storeTargets } from "../support/Stores.ts"
import { prng } from "../support/Random.ts"
import { webhookReceiver } from "../support/Receiver.ts"
import { apiAs } from "../support/TypedApi.ts"

const day = 86_400

const poppler = (() => {
  try {
    execFileSync("sh", ["-c", "command -v pdftotext && command -v pdfinfo"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()
if (!poppler) console.log("SKIP the PDF reading of settlement statements: no pdftotext/pdfinfo (Debian's poppler-utils; .ci/run installs it)")


/** The HTTP status an operation was answered with: its success's, or the status of the code it was refused with. */
const statusOf = <A, E, R>(operation: Effect.Effect<readonly [A, { readonly status: number }], E, R>) =>
  Effect.matchEffect(operation, {
    onSuccess: ([, response]) => Effect.succeed(response.status),
    onFailure: (e) => e instanceof ApiError ? Effect.succeed(httpStatus[e.code]) : Effect.die(e)
  })

/** Cents of a decimal text or number, exactly. */
const cents = (value: string | number) => {
  const text = typeof value === "number" ? value.toFixed(2) : value
  const negative = text.startsWith("-")
  const [whole, fraction = ""] = text.replace("-", "").split(".")
  const n = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2))
  return negative ? -n : n
}

/**
 * The same seeded history on one shop: payments (paid, chargeback, failed) and small partial
 * refunds of earlier days' payments, day by day. A refund's answer is part of the history (the
 * twin must get the same ones): it takes 1 unit of the local currency, which the payment's own
 * pending or reserve share always covers, so the swept balance does not change the answer.
 */
const live = (sk: string, seed: number, days: number) =>
  Effect.gen(function*() {
    const api = yield* apiAs(sk)
    const random = prng(seed)
    const earlier: Array<string> = []
    const answers: Array<number> = []
    const advance = (seconds: number) => api.sandbox.advance({ payload: { seconds }, headers: {} })
    for (let d = 0; d < days; d++) {
      const today: Array<string> = []
      for (let i = 0; i < 3; i++) {
        const simulate = random() < 0.15 ? "chargeback" : random() < 0.1 ? "failed" : "paid"
        const amount = Number((10 + random() * 300).toFixed(2))
        const created = yield* api.payments.create({
          headers: { "sandbox-simulate": simulate },
          payload: { amount: Money.decimal(String(amount)), paymentMethodId: random() < 0.5 ? "sbx_pix" : "sbx_spei" }
        })
        if (simulate === "paid") today.push(created.transactionId)
      }
      if (earlier.length > 0 && random() < 0.6) {
        const id = earlier[Math.floor(random() * earlier.length)]!
        answers.push(yield* statusOf(api.claims.refund({ params: { id }, payload: { amount: Money.decimal("1") }, headers: {}, responseMode: "decoded-and-response" })))
      }
      yield* advance(day)
      earlier.push(...today)
    }
    // Long enough for every payment to settle and every close after it to run.
    yield* advance(5 * day)
    return answers
  })

const netBalance = (sk: string) => Effect.flatMap(apiAs(sk), (api) => Effect.map(api.identity.balance({ query: {} }), (r) => cents(r.feeSummary.netBalance)))

for (const target of storeTargets("settlementbatches").filter((t) => t.name !== "pglite")) {
  describe(`settlement batches through the API on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 240_000, excludeTestServices: true })((it) => {
      it.effect("eight simulated days: every batch paid, CSV rows sum to net, the PDF reads, no movement twice, events once per batch, total unchanged", () =>
        narrative((step) => Effect.gen(function*() {
          yield* step("a merchant subscribed to settlement events, and a twin whose schedule is stopped")
          const hooks = yield* webhookReceiver
          const swept = yield* createMerchant({ name: "Loja Açaí" })
          const twin = yield* createMerchant({ name: "Twin" })
          const sk = swept.keys.sandbox.secretKey
          const twinSk = twin.keys.sandbox.secretKey
          const api = yield* apiAs(sk)
          yield* api.webhooks.create({ payload: { url: hooks.url, events: ["settlement.closed", "settlement.pdf_ready"] }, headers: {} })
          // The twin keeps its money: the operator stops its schedule.
          yield* (yield* apiAs(adminToken)).settlementAdmin.putSchedule({
            params: { shopId: twin.shops[0]!.id },
            query: { environment: "sandbox" },
            payload: { frequency: "manual", time: "00:00", destination: { kind: "usdc", chain: "SANDBOX", address: "0xSANDBOXTWIN0000" } }
          })
          const me = yield* api.identity.me()
          assert.deepStrictEqual(me.capabilities.crypto, ["USDC"])

          yield* step("eight days of payments and refunds, lived by both")
          const answers = yield* live(sk, 29, 8)
          assert.deepStrictEqual(yield* live(twinSk, 29, 8), answers, "the twin lived the same history")
          assert.isTrue(answers.some((status) => status === 201 || status === 200), "some refunds were made")

          yield* step("the batches listed: one open, a close on most days")
          const rows = (yield* api.settlements.list({ query: { limit: 100 } })).data
          const closed = rows.filter((b) => b.status !== "open")
          assert.strictEqual(rows.filter((b) => b.status === "open").length, 1)
          assert.isAtLeast(closed.length, 5, "a close on most days")

          yield* step("each closed batch: paid, its CSV rows summing to its net, its PDF readable, no movement in two batches")
          const seen = new Set<string>()
          let paidOut = 0n
          const dir = mkdtempSync(join(tmpdir(), "stl-"))
          try {
            for (const listed of closed) {
              const b = yield* api.settlements.get({ params: { id: listed.id } })
              assert.strictEqual(b.status, "paid", b.id)
              assert.match(b.payout.transactionHash ?? "", /^0x[0-9a-f]{64}$/)
              paidOut += cents(b.net!)

              const [csv, csvResponse] = yield* api.settlements.statementCsv({ params: { id: b.id }, responseMode: "decoded-and-response" })
              assert.strictEqual(csvResponse.status, 200)
              assert.match(csvResponse.headers["content-type"] ?? "", /^text\/csv/)
              assert.match(csv.headers["content-disposition"], new RegExp(`attachment; filename="${b.id}\\.csv"`))
              const records: Array<Record<string, string>> = parse(csv.body, { columns: true, bom: true })
              assert.strictEqual(records.length, b.lineCount)
              assert.strictEqual(records.reduce((sum, r) => sum + cents(r["net_usd"]!), 0n), cents(b.net!), `${b.id}: rows sum to net`)
              for (const r of records) {
                const key = `${r["reference"]}|${r["kind"]}|${r["at_utc"]}|${r["net_usd"]}`
                assert.isFalse(seen.has(key), `${key} in two batches`)
                seen.add(key)
              }

              const [pdf, pdfResponse] = yield* api.settlements.statementPdf({ params: { id: b.id }, responseMode: "decoded-and-response" })
              assert.strictEqual(pdfResponse.status, 200)
              assert.strictEqual(pdfResponse.headers["content-type"], "application/pdf")
              const bytes = pdf.body
              assert.strictEqual(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-")
              if (poppler) {
                const path = join(dir, `${b.id}.pdf`)
                writeFileSync(path, bytes)
                assert.match(execFileSync("pdfinfo", [path], { encoding: "utf8" }), /^Pages:\s+[1-9]/m)
                const text = execFileSync("pdftotext", ["-raw", "-enc", "UTF-8", path, "-"], { encoding: "utf8" })
                assert.include(text, b.id)
                assert.include(text, "Loja Açaí")
                for (const r of records.filter((r) => r["transaction_id"] !== "").slice(0, 5)) {
                  // An id of many wide letters may wrap inside its cell: read the text without line breaks.
                  assert.include(text.replace(/\s+/g, ""), r["transaction_id"]!)
                }
              }
            }
          } finally {
            rmSync(dir, { recursive: true, force: true })
          }

          yield* step("settlement.closed and settlement.pdf_ready delivered once per batch")
          // Each event once per batch (deliveries run inside the advance; the worker may finish the last).
          const ids = closed.map((b) => b.id).sort()
          const delivered = yield* eventually(Effect.sync(() => hooks.bodies), (bodies) => bodies.filter((e) => e.type === "settlement.pdf_ready").length >= ids.length)
          const of = (type: string) => delivered.filter((e) => e.type === type).map((e) => type === "settlement.closed" ? e.data.id : e.data.settlementId).sort()
          assert.deepStrictEqual(of("settlement.closed"), ids)
          assert.deepStrictEqual(of("settlement.pdf_ready"), ids)
          for (const e of delivered.filter((e) => e.type === "settlement.pdf_ready")) {
            assert.strictEqual(e.data.pdfUrl, `/me/settlements/${e.data.settlementId}/statement.pdf`)
          }

          yield* step("the total unchanged: the swept shop's balance and payouts equal the twin's balance")
          // The total is unchanged: what the swept shop holds + what it was paid = what the twin holds.
          assert.isAbove(Number(paidOut), 0)
          assert.strictEqual((yield* netBalance(sk)) + paidOut, yield* netBalance(twinSk))
          const twinList = yield* (yield* apiAs(twinSk)).settlements.list({ query: {} })
          assert.isTrue(twinList.data.every((b) => b.status === "open"))
        })))
    })
  })
}
