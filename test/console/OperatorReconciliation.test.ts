/**
 * The operator's reconciliation in Chromium: a dLocal settlement report (the simulator's, with two
 * captures the engine never heard about) uploaded through the console's form as a file, listed
 * with its discrepancies, opened, one discrepancy opened and resolved; the same file again changes
 * nothing; a malformed file and a wrong format are told on the form with the API's status; a run
 * for a provider without a reports API is refused on its form; a multipart POST without the CSRF
 * token is refused with 403 and imports nothing. Every page passes axe and fits 390 px.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, layer } from "@effect/vitest"
import { Context, DateTime, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { credentials } from "../../providers/dlocal/ConformanceHarness.ts"
import { DLocalProvider } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInOperator } from "../support/Console.ts"
import { adminToken, baseUrl, call, connectorInstance, reachableHost } from "../support/Host.ts"

class Sim extends Context.Service<Sim, DLocalSimulator>()("test/console/ReconciliationSim") {}

const HostWithDLocal = Layer.unwrap(Effect.gen(function*() {
  const dlocal = yield* DLocalSimulator.start(credentials)
  const connectors = [
    connectorInstance(DLocalProvider.connector, { id: "dlocal", environment: "sandbox", baseUrl: dlocal.baseUrl }, {
      LOGIN: credentials.login,
      TRANS_KEY: credentials.transKey,
      SECRET_KEY: credentials.secretKey
    })
  ]
  return Layer.merge(reachableHost(MemoryStore.layer, { connectors }), Layer.succeed(Sim, dlocal))
}))

const reportsOf = Effect.map(
  call("GET", "/admin/v1/reconciliation/reports?environment=sandbox&provider=dlocal", { bearer: adminToken }),
  (r) => r.body.pagination.total as number
)

describe.skipIf(chromiumPath === undefined)("operator reconciliation in Chromium", () => {
  layer(HostWithDLocal, { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("uploads a provider's report through the form, lists it with its discrepancies, opens it; refusals told on the form; no CSRF token, 403", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const dlocal = yield* Sim
        const chromium = yield* browser
        const now = yield* DateTime.now
        const report = dlocal.reports.report({ start: DateTime.subtract(now, { hours: 1 }), end: DateTime.add(now, { seconds: 1 }) }, { unknownCaptures: 2 })
        const folder = mkdtempSync(join(tmpdir(), "console-reconciliation-"))
        const file = join(folder, "dlocal-settlement.csv")
        writeFileSync(file, report)
        const lines = report.trimEnd().split("\n")
        const last = lines.length - 1
        const malformed = join(folder, "dlocal-malformed.csv")
        writeFileSync(malformed, lines.map((l, i) => i === last ? l.replace(",BRL,", ",BRLX,") : l).join("\n") + "\n")
        const { page } = yield* Effect.promise(() => consoleContext(chromium, base))

        const reportId = yield* Effect.promise(async () => {
          await signInOperator(page, base)
          await page.goto(`${base}/console/operator/reconciliation?environment=sandbox`)
          assert.strictEqual(await page.getAttribute("nav.sections a[aria-current=page]", "href"), "/console/operator/reconciliation")
          await looked(page, "operator-reconciliation-empty")

          // A malformed file: the API's 400 and its line and column, on the file field.
          await page.selectOption("#upload-provider", "dlocal")
          await page.selectOption("#upload-format", "settlement-cross-border-csv")
          await page.selectOption("#upload-environment", "sandbox")
          await page.setInputFiles("#file", malformed)
          const [refused] = await Promise.all([page.waitForNavigation(), page.click("#upload-heading ~ form button[type=submit]")])
          assert.strictEqual(refused?.status(), 400)
          assert.include(await page.textContent("#upload-heading ~ .problem") ?? "", "report_malformed")
          assert.strictEqual(await page.getAttribute("#file", "aria-invalid"), "true")
          assert.include(await page.textContent("#file-error") ?? "", "LOCAL_CURRENCY")
          assert.strictEqual(await page.inputValue("#upload-environment"), "sandbox", "the form keeps what was chosen")
          await looked(page, "operator-reconciliation-malformed")

          // A format the provider does not have: the API's 422 and the formats it has.
          await page.selectOption("#upload-provider", "dlocal")
          await page.selectOption("#upload-format", "release-report-csv")
          await page.setInputFiles("#file", file)
          const [unknown] = await Promise.all([page.waitForNavigation(), page.click("#upload-heading ~ form button[type=submit]")])
          assert.strictEqual(unknown?.status(), 422)
          assert.include(await page.textContent("#upload-heading ~ .problem") ?? "", "report_format_unknown")
          assert.include(await page.textContent("#upload-format-error") ?? "", "settlement-cross-border-csv")

          // The report itself: imported, matched, its two unknown captures listed.
          await page.selectOption("#upload-format", "settlement-cross-border-csv")
          await page.setInputFiles("#file", file)
          await Promise.all([page.waitForURL(/done=imported/), page.click("#upload-heading ~ form button[type=submit]")])
          assert.include(await page.textContent(".notice") ?? "", "Report imported")
          const main = await page.textContent("main") ?? ""
          assert.include(main, "unknown_to_engine")
          assert.include(main, "settlement-cross-border-csv")
          const links = page.locator("a[href^='/console/operator/reconciliation/discrepancies/']")
          assert.strictEqual(await links.count(), 2)
          await looked(page, "operator-reconciliation-report")
          return decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!)
        })
        assert.match(reportId, /^rcr_/)
        const imported = yield* call("GET", `/admin/v1/reconciliation/reports/${reportId}?environment=sandbox`, { bearer: adminToken })
        assert.deepStrictEqual(imported.body.counts.discrepancies, { unknown_to_engine: 2 })
        assert.strictEqual(yield* reportsOf, 1, "nothing of the refused files was imported")

        yield* Effect.promise(async () => {
          // A discrepancy: both sides, and the queues' resolve action.
          await Promise.all([page.waitForURL(/\/discrepancies\//), page.locator("a[href^='/console/operator/reconciliation/discrepancies/']").first().click()])
          assert.include(await page.textContent("main") ?? "", "D-4-UNKNOWN")
          await looked(page, "operator-reconciliation-discrepancy")
          await page.fill("#note", "Capture unknown to the engine: asked dLocal to refund the buyer")
          await Promise.all([page.waitForURL(/done=discrepancy/), page.click("#resolve-heading ~ form button[type=submit]")])
          assert.include(await page.textContent(".notice") ?? "", "Discrepancy resolved")

          // The list: the report, its lines and discrepancies.
          await page.goto(`${base}/console/operator/reconciliation?environment=sandbox&provider=dlocal`)
          const row = page.locator(`tr:has(a[href^="/console/operator/reconciliation/reports/${reportId}"])`)
          assert.strictEqual(await row.count(), 1)
          const cells = await row.locator("td").allTextContents()
          assert.deepStrictEqual(cells.slice(1, 3), ["dlocal", "settlement-cross-border-csv"])
          assert.deepStrictEqual(cells.slice(4, 7), [String(lines.length - 3), "0", "2"])
          await looked(page, "operator-reconciliation")

          // The same file again: the same report, nothing changed.
          await page.selectOption("#upload-provider", "dlocal")
          await page.selectOption("#upload-format", "settlement-cross-border-csv")
          await page.selectOption("#upload-environment", "sandbox")
          await page.setInputFiles("#file", file)
          await Promise.all([page.waitForURL(/done=known/), page.click("#upload-heading ~ form button[type=submit]")])
          assert.include(page.url(), reportId)
          assert.include(await page.textContent(".notice") ?? "", "nothing changed")

          // Run now, for a provider without a reports API: the API's 422 on the run form.
          await page.goto(`${base}/console/operator/reconciliation?environment=sandbox`)
          await page.selectOption("#run-provider", "dlocal")
          await page.selectOption("#run-environment", "sandbox")
          const [run] = await Promise.all([page.waitForNavigation(), page.click("#run-heading ~ form button[type=submit]")])
          assert.strictEqual(run?.status(), 422)
          assert.include(await page.textContent("#run-heading ~ .problem") ?? "", "report_source_unavailable")
          await looked(page, "operator-reconciliation-run-refused")

          // A multipart POST without the CSRF token (or with a wrong one): 403, nothing imported.
          const statuses = await page.evaluate(async (text) => {
            const send = async (csrf: string | undefined) => {
              const form = new FormData()
              if (csrf !== undefined) form.append("csrf", csrf)
              form.append("upload-provider", "dlocal")
              form.append("upload-format", "settlement-cross-border-csv")
              form.append("upload-environment", "sandbox")
              form.append("file", new Blob([text], { type: "text/csv" }), "other.csv")
              const response = await fetch("/console/operator/reconciliation/reports", { method: "POST", body: form, redirect: "manual" })
              return response.status
            }
            return [await send(undefined), await send("not-the-token")]
          }, report.replace("D-4-UNKNOWN", "D-4-OTHER"))
          assert.deepStrictEqual(statuses, [403, 403])
        })
        assert.strictEqual(yield* reportsOf, 1, "a form without the CSRF token did nothing")
        const open = yield* call("GET", `/admin/v1/reconciliation/discrepancies?environment=sandbox&reportId=${reportId}&status=open`, { bearer: adminToken })
        assert.strictEqual(open.body.pagination.total, 1, "one of the two resolved from the console")
      }))
  })
})
