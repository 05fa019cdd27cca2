/**
 * What a merchant and an operator read in the console, in Chromium: the buyer's name and email on
 * the payments list and a payment's page, the search by transaction id or buyer email (the API's
 * `transactionId` and `userEmail` filters), the method filter naming each method once, the refund
 * banner telling the refund as it stands now, the balance movements in words with the sign of the
 * available balance, and operator pages opening on the environment that has data (sandbox on a
 * host with no production connector) and saying which one is shown.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant, signInOperator } from "../support/Console.ts"
import { baseUrl, call, createMerchant, eventually, reachableHost } from "../support/Host.ts"

const buyer = { paymentMethodId: "sbx_pix", documentId: "52998224725" }

describe.skipIf(chromiumPath === undefined)("console: buyer, search, method filter, refund banner, movements, operator environment", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("a merchant finds a payment by its buyer's email or its id, sees who paid, a refund as it stands, and movements in words", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Azul" })
        const sk = keys.sandbox.secretKey
        const pay = (body: Record<string, unknown>, simulate: string) =>
          Effect.map(call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": simulate }, body: { ...buyer, ...body } }), (r) => {
            assert.strictEqual(r.status, 201, JSON.stringify(r.body))
            return r.body.transactionId as string
          })
        const ana = yield* pay({ amount: 100, userName: "Ana Souza", userEmail: "ana.souza@example.com" }, "paid")
        const other = yield* pay({ amount: 40, userName: "Bruno Lima", userEmail: "bruno@example.com" }, "paid")
        const disputed = yield* pay({ amount: 30, userName: "Carla Dias", userEmail: "carla@example.com" }, "chargeback")
        for (const id of [ana, other, disputed]) {
          yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed" || r.body.status === "chargeback")
        }
        yield* eventually(call("GET", `/api/v1/payments/${disputed}/claims`, { bearer: sk }), (r) => r.body.data.some((c: any) => c.kind === "chargeback"))

        // The API's filters, as the console uses them: the email without regard to case, the id exactly.
        const byEmail = yield* call("GET", "/api/v1/payments?userEmail=ANA.SOUZA%40example.com", { bearer: sk })
        assert.deepStrictEqual(byEmail.body.data.map((p: any) => p.id), [ana])
        assert.deepStrictEqual(byEmail.body.data[0].buyer, { name: "Ana Souza", email: "ana.souza@example.com" })
        assert.deepStrictEqual((yield* call("GET", `/api/v1/payments?transactionId=${other}`, { bearer: sk })).body.data.map((p: any) => p.id), [other])
        assert.deepStrictEqual((yield* call("GET", "/api/v1/payments?transactionId=TXN-NOPE", { bearer: sk })).body.data, [])

        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        const refundUrl = yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, "/console/payments")
          // Each method once in the filter, under a label no other method has.
          const labels = await page.$$eval("#method option", (os) => os.map((o) => o.textContent ?? ""))
          assert.isAbove(labels.length, 2)
          assert.deepStrictEqual(labels, [...new Set(labels)], `method labels repeat: ${labels.join(" | ")}`)
          const list = await page.textContent("main table") ?? ""
          for (const text of ["Ana Souza", "ana.souza@example.com", "Bruno Lima", "bruno@example.com"]) assert.include(list, text)
          await looked(page, "payments-buyers")

          // The search box: an email (any case) or a transaction id.
          await page.fill("#search", "Ana.Souza@Example.com")
          await Promise.all([page.waitForURL(/search=/), page.click("form.filters button[type=submit]")])
          assert.deepStrictEqual(await page.$$eval("main table tbody tr td:first-child a", (as) => as.map((a) => a.textContent)), [ana])
          await page.fill("#search", other)
          await Promise.all([page.waitForURL(new RegExp(`search=${other}`)), page.click("form.filters button[type=submit]")])
          assert.deepStrictEqual(await page.$$eval("main table tbody tr td:first-child a", (as) => as.map((a) => a.textContent)), [other])

          // The payment's page says who paid.
          await page.goto(`${base}/console/payments/${ana}`)
          const summary = await page.textContent("main section") ?? ""
          assert.include(summary, "Ana Souza")
          assert.include(summary, "ana.souza@example.com")
          await looked(page, "payment-detail-buyer")

          await page.fill("#amount", "10")
          await Promise.all([page.waitForURL(/done=refunded/), page.click("[data-testid=refund-form] button[type=submit]")])
          return page.url()
        })

        // The sandbox refund succeeds; the page it redirected to says so when read again.
        yield* eventually(call("GET", `/api/v1/payments/${ana}/claims`, { bearer: sk }), (r) => r.body.data.some((c: any) => c.refundStatus === "succeeded"))
        yield* Effect.promise(async () => {
          await page.goto(refundUrl)
          const banner = await page.textContent("main [role=status]") ?? ""
          assert.include(banner, "Refund completed")
          assert.notInclude(banner, "pending")

          // Balance movements: words, not ledger kinds; the amount is what moved the available balance.
          await page.goto(`${base}/console/balances`)
          const rows = await page.$$eval("section[aria-labelledby=movements-heading] tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim() ?? "")))
          assert.isAbove(rows.length, 0)
          const kinds = rows.map((r) => r[1] ?? "")
          for (const kind of kinds) assert.notMatch(kind, /^[a-z_]+\.[a-z_.]+$/, `a ledger kind shown: ${kind}`)
          assert.include(kinds, "Chargeback opened")
          assert.include(kinds, "Refund requested")
          for (const row of rows.filter((r) => r[1] === "Chargeback opened" || r[1] === "Refund requested")) {
            assert.match(row[3] ?? "", /^(-|—)/, `${row[1]} takes from available: ${row.join(" | ")}`)
          }
          for (const row of rows) assert.notMatch(row[3] ?? "", /^\+?0[.,]00/, `a movement of nothing on available shown as an amount: ${row.join(" | ")}`)
          await looked(page, "balances-movements")
        })
        yield* Effect.promise(() => context.close())
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))

    it.effect("operator pages open on sandbox when production has no connector, and say which environment is shown", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        yield* Effect.promise(async () => {
          await signInOperator(page, base)
          for (const path of ["/console/operator/queues", "/console/operator/connectors", "/console/operator/reconciliation"]) {
            await page.goto(`${base}${path}`)
            assert.include(await page.textContent("[data-testid=environment-shown]") ?? "", "Sandbox", path)
            assert.strictEqual(await page.$eval("#environment", (s) => (s as HTMLSelectElement).value).catch(() => "sandbox"), "sandbox", path)
          }
          await page.goto(`${base}/console/operator/queues?environment=production`)
          assert.include(await page.textContent("[data-testid=environment-shown]") ?? "", "Production")
          await looked(page, "operator-queues-production")
        })
        yield* Effect.promise(() => context.close())
      }))
  })
})
