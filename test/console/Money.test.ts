/**
 * The merchant's money pages in Chromium: the balances page shows what the API says (pay-in
 * buckets, payout balance, a chart of the available balance per currency, movements), a swap
 * through the quote and confirm forms, a payout through its method's recipient form (a field error
 * first, then corrected), a settlement batch with its lines, and its statement downloaded as the
 * API's PDF.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant } from "../support/Console.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }

describe.skipIf(chromiumPath === undefined)("console money pages in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("balances, a swap, a payout with a field error then corrected, a settlement batch and its PDF", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Verde" })
        const sk = keys.sandbox.secretKey
        // A batch closes: the sandbox's daily schedule sweeps the funded USD at the next 00:00 UTC.
        assert.strictEqual((yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })).status, 200)
        assert.strictEqual((yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 86_400 } })).status, 200)
        // Money left available after the close, a local currency, and the payout balance.
        yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 40 } })
        yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "MXN", amount: 500 } })
        assert.strictEqual((yield* call("POST", "/api/v1/me/payout/fund-sandbox", { bearer: sk, body: { currency: "MXN", amount: 1000 } })).status, 200)
        const balance = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        const batches = (yield* call("GET", "/api/v1/me/settlements", { bearer: sk })).body.data
        const closed = batches.find((b: { status: string }) => b.status !== "open")
        assert.isDefined(closed, JSON.stringify(batches))

        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, "/console/balances")
          assert.strictEqual(new URL(page.url()).pathname, "/console/balances")
          const payin = await page.textContent("section[aria-labelledby=payin-heading]") ?? ""
          assert.include(payin, `${balance.balance.available.toFixed(2)} USD`)
          assert.include(payin, "500.00 MXN")
          assert.include(await page.textContent("section[aria-labelledby=payout-heading]") ?? "", "1,000.00 MXN")
          // One chart per currency held: USD and MXN, with their numbers in a table.
          assert.strictEqual(await page.locator("svg.chart").count(), 2)
          assert.include(await page.getAttribute("svg.chart >> nth=0", "aria-label") ?? "", "USD")
          assert.isAbove(await page.locator("svg.chart polyline").count(), 1)
          assert.include(await page.textContent("section[aria-labelledby=movements-heading]") ?? "", "fund")
          await looked(page, "balances")

          // A swap: quote, then confirm.
          await page.click("a[href='/console/balances/swap']")
          await page.selectOption("#from", "MXN")
          await page.fill("#amount", "100")
          await Promise.all([page.waitForURL(/amount=100/), page.click("main form[method=get] button[type=submit]")])
          assert.include(await page.textContent("main") ?? "", "Indicative quote")
          await looked(page, "swap-quote")
          // A double click: the same form sent twice swaps once (its idempotency key).
          const early = await page.evaluate(async () => {
            const form = document.querySelector<HTMLFormElement>("main form[method=post]")!
            const sent = await fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>), redirect: "manual" })
            return sent.type === "opaqueredirect" ? 303 : sent.status
          })
          assert.strictEqual(early, 303)
          await Promise.all([page.waitForURL(/done=swapped/), page.click("main form[method=post] button[type=submit]")])
          assert.include(await page.textContent(".notice") ?? "", "Swap done")
          assert.include(await page.textContent("section[aria-labelledby=payin-heading]") ?? "", "400.00 MXN")
          // Too much: the API's refusal on the field.
          await page.goto(`${base}/console/balances/swap?from=MXN&amount=5000`)
          await page.click("main form[method=post] button[type=submit]")
          assert.strictEqual(await page.getAttribute("#amount", "aria-invalid"), "true")
          assert.include(await page.textContent(".problem") ?? "", "balance_insufficient")
          await looked(page, "swap-refused")

          // Funding the payout balance: USD from pay-in (too much first), then payout USD to MXN.
          await page.goto(`${base}/console/balances`)
          await page.click("a[href='/console/balances/payout-funding']")
          await page.fill("#transfer-amount", "99999")
          await page.click("main form[action$=transfer] button[type=submit]")
          assert.strictEqual(await page.getAttribute("#transfer-amount", "aria-invalid"), "true")
          await page.fill("#transfer-amount", "10")
          await Promise.all([page.waitForURL(/done=transferred/), page.click("main form[action$=transfer] button[type=submit]")])
          await page.selectOption("#to", "MXN")
          await page.fill("#amountUsd", "4")
          await Promise.all([page.waitForURL(/amountUsd=4/), page.click("main form[method=get] button[type=submit]")])
          await looked(page, "payout-funding")
          await Promise.all([page.waitForURL(/done=swapped/), page.click("main form[action$=swap] button[type=submit]")])
          assert.include(await page.textContent("section[aria-labelledby=swap-heading]") ?? "", "6.00 USD")

          // A payout: the method's own recipient form; a bad CLABE told on its field, then corrected.
          await page.goto(`${base}/console/payouts`)
          await page.click("a[href='/console/payouts/send']")
          await page.selectOption("#method", "sbx_po_mx_spei")
          await Promise.all([page.waitForURL(/method=sbx_po_mx_spei/), page.click("main form[method=get] button[type=submit]")])
          assert.strictEqual(await page.getAttribute("#recipient_account", "required"), "")
          await page.fill("#amount", "250")
          await page.fill("#recipient_name", spei.name)
          await page.selectOption("#recipient_documentType", spei.documentType)
          await page.fill("#recipient_documentId", spei.documentId)
          await page.fill("#recipient_account", "12345")
          const refused = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("main form[method=post] button[type=submit]")])
          assert.strictEqual(refused[0].status(), 400)
          assert.strictEqual(await page.getAttribute("#recipient_account", "aria-invalid"), "true")
          assert.isNotEmpty(await page.textContent("#recipient_account-error"))
          assert.strictEqual(await page.inputValue("#recipient_name"), spei.name, "what was typed is kept")
          await looked(page, "payout-field-error")
          await page.fill("#recipient_account", spei.account)
          await Promise.all([page.waitForURL(/\/console\/payouts\/po-.*done=sent/), page.click("main form[method=post] button[type=submit]")])
          assert.include(await page.textContent(".notice") ?? "", "Payout created")
          assert.include(await page.textContent("main") ?? "", "250.00 MXN")
          await looked(page, "payout-detail")
          // Sandbox payouts wait for their outcome: simulated from the detail page.
          await page.selectOption("#action", "completed")
          await Promise.all([page.waitForURL(/done=simulated/), page.click("main form[action$=simulate] button[type=submit]")])
          assert.include(await page.textContent("main .card") ?? "", "completed")
          assert.strictEqual(await page.locator("#action").count(), 0, "a final payout has nothing left to simulate")
          await page.goto(`${base}/console/payouts`)
          assert.include(await page.textContent("main table") ?? "", "completed")
          await page.selectOption("#status", "failed")
          await Promise.all([page.waitForURL(/status=failed/), page.click("main form[method=get] button[type=submit]")])
          assert.notInclude(await page.textContent("main") ?? "", "250.00 MXN")
          await looked(page, "payouts")

          // Settlements: the batches, a closed batch's lines, its statement as the API's PDF.
          await page.goto(`${base}/console/settlements`)
          await looked(page, "settlements")
          await page.click(`a[href='/console/settlements/${closed.id}']`)
          assert.include(await page.textContent("section[aria-labelledby=lines-heading]") ?? "", "100.00 USD")
          // Each line from gross to net: the table's columns say what moved it.
          const columns = await page.$$eval("section[aria-labelledby=lines-heading] thead th", (ths) => ths.map((th) => th.textContent?.trim() ?? ""))
          assert.deepStrictEqual(columns.slice(-8), ["Gross", "Fees", "Reserve", "Owed recovered", "Refunds", "Chargebacks", "Other", "Net (USD)"])
          await looked(page, "settlement-detail")

          // The same pages in Portuguese.
          await context.addCookies([{ name: "console_lang", value: "pt", url: `${base}/console` }])
          await page.goto(`${base}/console/balances`)
          assert.strictEqual(await page.textContent("main h1"), "Saldos")
          assert.include(await page.textContent("main") ?? "", "Saldo disponível, últimos 30 dias")
          await page.goto(`${base}/console/payouts/send?method=sbx_po_mx_spei`)
          assert.strictEqual(await page.textContent("main h1"), "Enviar um pagamento")
          await looked(page, "payout-send-pt")
        })
        const cookie = (yield* Effect.promise(() => context.cookies())).find((c) => c.name === "console_session")!
        const pdf = yield* Effect.promise(() => fetch(`${base}/console/settlements/${closed.id}/statement.pdf`, { headers: { cookie: `console_session=${cookie.value}` } }))
        assert.strictEqual(pdf.status, 200)
        assert.strictEqual(pdf.headers.get("content-type"), "application/pdf")
        assert.strictEqual(pdf.headers.get("content-disposition"), `attachment; filename="${closed.id}.pdf"`)
        const bytes = new Uint8Array(yield* Effect.promise(() => pdf.arrayBuffer()))
        assert.strictEqual(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-")
        const api = yield* Effect.promise(() => fetch(`${base}/api/v1/me/settlements/${closed.id}/statement.pdf`, { headers: { authorization: `Bearer ${sk}` } }))
        assert.strictEqual((yield* Effect.promise(() => api.arrayBuffer())).byteLength, bytes.byteLength, "the API's PDF, unchanged")
        const csv = yield* Effect.promise(() => fetch(`${base}/console/settlements/${closed.id}/statement.csv`, { headers: { cookie: `console_session=${cookie.value}` } }))
        assert.strictEqual(csv.headers.get("content-type"), "text/csv; charset=utf-8")
        // The open batch has no statement yet: the API's 409 as a page.
        const open = batches.find((b: { status: string }) => b.status === "open")
        const early = yield* Effect.promise(() => fetch(`${base}/console/settlements/${open.id}/statement.pdf`, { headers: { cookie: `console_session=${cookie.value}` } }))
        assert.strictEqual(early.status, 409)
        assert.include(yield* Effect.promise(() => early.text()), "settlement_open")
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))
  })
})
