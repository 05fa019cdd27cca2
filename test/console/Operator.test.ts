/**
 * The operator's console in Chromium: sign in, create a merchant (its keys shown once), resolve a
 * payout stuck in processing and an open chargeback from the queues, edit a routing rule with a
 * mistake (told on the field) and then correctly, and see a version conflict when two forms were
 * opened from the same version. Every page passes axe and fits 390 px.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInOperator } from "../support/Console.ts"
import { adminToken, baseUrl, call, eventually, reachableHost } from "../support/Host.ts"

const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719", email: "ana@example.com" }

describe.skipIf(chromiumPath === undefined)("operator console in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("creates a merchant, resolves a stuck payout and a chargeback, edits routing with a mistake, then a conflict", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        const created = yield* Effect.promise(async () => {
          await signInOperator(page, base)
          assert.strictEqual(new URL(page.url()).pathname, "/console/operator/merchants")
          await looked(page, "operator-merchants-empty")
          // A mistake first: the API's message on the field.
          await page.fill("#name", "Loja Verde")
          await page.fill("#email", "not-an-email")
          await page.evaluate(() => document.querySelector<HTMLInputElement>("#email")!.type = "text")
          await page.click("#create-heading ~ form button[type=submit]")
          assert.strictEqual(await page.getAttribute("#email", "aria-invalid"), "true")
          await page.fill("#email", "ops@verde.test")
          await page.click("#create-heading ~ form button[type=submit]")
          assert.include(await page.textContent("main") ?? "", "Loja Verde")
          const secrets = await page.$$eval("[data-testid=secret]", (els) => els.map((e) => e.textContent ?? ""))
          const publishable = await page.$$eval("[data-testid=publishable]", (els) => els.map((e) => e.textContent ?? ""))
          assert.strictEqual(secrets.length, 2)
          assert.match(secrets[0]!, /^sk_test_/)
          assert.notInclude(page.url(), "sk_", "a secret never goes into a URL")
          await looked(page, "operator-merchant-created")
          await page.goto(`${base}/console/operator/merchants`)
          assert.include(await page.textContent("main") ?? "", "ops@verde.test")
          await looked(page, "operator-merchants")
          return { sandbox: { secretKey: secrets[0]!, publishableKey: publishable[0]! } }
        })
        const sk = created.sandbox.secretKey
        const me = yield* call("GET", "/admin/v1/merchants?limit=1", { bearer: adminToken })
        const shopId: string = me.body.data[0].shops[0].id

        // A sandbox payout stays processing until someone decides it; a chargeback stays open.
        const payout = yield* call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "sbx_po_mx_spei", amount: 100, recipient: spei } })
        assert.strictEqual(payout.status, 201, JSON.stringify(payout.body))
        const payment = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "chargeback" }, body: { amount: 100, paymentMethodId: "sbx_card" } })
        yield* eventually(call("GET", `/api/v1/payments/${payment.body.transactionId}`, { bearer: sk }), (r) => r.body.status === "chargeback")
        const claims = yield* eventually(call("GET", "/admin/v1/claims?kind=chargeback&status=open&environment=sandbox", { bearer: adminToken }), (r) => r.body.data.length > 0)
        const claimId: string = claims.body.data[0].id
        yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
        const withdrawal = yield* call("POST", "/api/v1/me/withdrawals", {
          bearer: sk,
          body: { amount: 20, destination: { accountHolder: "Loja Verde Ltda", bankName: "Banco do Brasil", accountNumber: "0001 2345 6789", swiftCode: null } }
        })
        assert.strictEqual(withdrawal.status, 201, JSON.stringify(withdrawal.body))

        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/operator/queues?environment=sandbox&olderThanMinutes=0`)
          assert.include(await page.textContent("main") ?? "", payout.body.payout.id)
          assert.include(await page.textContent("main") ?? "", claimId)
          await looked(page, "operator-queues")
          const payoutForm = page.locator(`form[action="/console/operator/queues/payouts"]:has(input[name=id][value="${payout.body.payout.id}"])`)
          await payoutForm.locator("select[name=status]").selectOption("failed")
          await payoutForm.locator("input[name=failureReason]").fill("provider never answered")
          const fields = await payoutForm.evaluate((form: HTMLFormElement) => [...new FormData(form).entries()].map(([k, v]) => [k, String(v)]))
          await Promise.all([page.waitForURL(/done=payout/), payoutForm.locator("button").click()])
          assert.include(await page.textContent(".notice") ?? "", "Payout resolved")
          // The same form sent again (a second click): nothing more is done, and it is told so.
          const again = await page.evaluate(async (entries) => {
            const response = await fetch("/console/operator/queues/payouts", { method: "POST", body: new URLSearchParams(entries), redirect: "manual" })
            return { status: response.status, text: await response.text() }
          }, fields)
          assert.strictEqual(again.status, 409)
          assert.include(again.text, "already resolved")
          assert.notInclude(await page.textContent("main") ?? "", payout.body.payout.id)
          const chargebackForm = page.locator(`form[action="/console/operator/queues/chargebacks"]:has(input[name=id][value="${claimId}"])`)
          await chargebackForm.locator("select[name=outcome]").selectOption("won")
          await Promise.all([page.waitForURL(/done=chargeback/), chargebackForm.locator("button").click()])
          assert.include(await page.textContent(".notice") ?? "", "Chargeback resolved")
          const withdrawalForm = page.locator(`form[action="/console/operator/queues/withdrawals"]:has(input[name=id][value="${withdrawal.body.withdrawal.id}"])`)
          await withdrawalForm.locator("select[name=status]").selectOption("completed")
          await Promise.all([page.waitForURL(/done=withdrawal/), withdrawalForm.locator("button").click()])
          assert.include(await page.textContent(".notice") ?? "", "Withdrawal resolved")
          await looked(page, "operator-queues-resolved")
        })
        const payoutAfter = yield* call("GET", `/api/v1/me/payout/send/${payout.body.payout.id}`, { bearer: sk })
        assert.deepInclude(payoutAfter.body.payout, { status: "failed", failureReason: "provider never answered" })
        const claimAfter = yield* call("GET", `/api/v1/claims/${claimId}`, { bearer: sk })
        assert.deepInclude(claimAfter.body, { status: "won", resolvedBy: "operator" })
        const withdrawalAfter = yield* call("GET", `/api/v1/me/withdrawals/${withdrawal.body.withdrawal.id}`, { bearer: sk })
        assert.strictEqual(withdrawalAfter.body.withdrawal.status, "completed")

        yield* Effect.promise(async () => {
          const routing = `${base}/console/operator/routing?shopId=${shopId}&environment=sandbox`
          await page.goto(routing)
          await looked(page, "operator-routing")
          assert.strictEqual(await page.textContent("[data-testid=routing-version]"), "0")
          // A provider that does not exist: the API's issue on the rules field.
          await page.fill("#rules", JSON.stringify([{ id: "r1", when: {}, providers: ["nobody"] }]))
          await page.click("#config-heading ~ form button[type=submit]")
          assert.strictEqual(await page.getAttribute("#rules", "aria-invalid"), "true")
          assert.include(await page.textContent("#rules-error") ?? "", "rules[0].providers[0]")
          await looked(page, "operator-routing-error")
          // Not JSON at all: told on the field without calling the API.
          await page.fill("#rules", "[{")
          await page.click("#config-heading ~ form button[type=submit]")
          assert.include(await page.textContent("#rules-error") ?? "", "not valid JSON")
          await page.fill("#rules", JSON.stringify([{ id: "r1", when: { countries: ["MX"] }, providers: ["sandbox"] }]))
          await Promise.all([page.waitForURL(/done=config/), page.click("#config-heading ~ form button[type=submit]")])
          assert.strictEqual(await page.textContent("[data-testid=routing-version]"), "1")

          // Two forms opened from version 1: the second write is a conflict, told as such.
          const other = await context.newPage()
          await other.goto(routing)
          await page.goto(routing)
          await page.selectOption("#strategy", "static")
          await Promise.all([page.waitForURL(/done=config/), page.click("#config-heading ~ form button[type=submit]")])
          await other.selectOption("#strategy", "success_rate")
          const answer = await Promise.all([other.waitForNavigation(), other.click("#config-heading ~ form button[type=submit]")])
          assert.strictEqual(answer[0]?.status(), 409)
          assert.include(await other.textContent("[data-testid=conflict]") ?? "", "changed by someone else")
          await looked(other, "operator-routing-conflict")
          await other.close()
        })
        const stored = yield* call("GET", `/admin/v1/shops/${shopId}/routing?environment=sandbox`, { bearer: adminToken })
        assert.deepInclude(stored.body, { version: 2 })
        assert.strictEqual(stored.body.config.strategy, "static")

        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/operator/fx-rates`)
          await page.fill("#currency", "BRL")
          await page.fill("#perUsd", "-1")
          await page.click("#set-heading ~ form button[type=submit]")
          assert.strictEqual(await page.getAttribute("#perUsd", "aria-invalid"), "true")
          await page.fill("#perUsd", "5.1")
          await Promise.all([page.waitForURL(/done=saved/), page.click("#set-heading ~ form button[type=submit]")])
          assert.include(await page.textContent("main") ?? "", "5.1")
          await looked(page, "operator-fx-rates")
          // The payments above taught routing: the sandbox provider's rails have health.
          await page.goto(`${base}/console/operator/connectors?environment=sandbox&hours=6`)
          assert.include(await page.textContent("main") ?? "", "sandbox")
          assert.include(await page.textContent("main") ?? "", "Card declines")
          assert.isAbove(await page.locator("svg.chart").count(), 0)
          await looked(page, "operator-connectors")
        })
        // Deposit methods: an unknown id is told on the field, then a shipped one is saved.
        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/operator/merchants`)
          await Promise.all([page.waitForURL(/merchants\/deposits/), page.click(`a[href="/console/operator/merchants/deposits?shopId=${shopId}"]`)])
          await page.fill("#depositMethodIds", "mx_spei_nope")
          await page.click("main form button[type=submit]")
          assert.strictEqual(await page.getAttribute("#depositMethodIds", "aria-invalid"), "true")
          await page.fill("#depositMethodIds", "mx_spei_stp")
          await Promise.all([page.waitForURL(/done=saved/), page.click("main form button[type=submit]")])
          assert.strictEqual(await page.inputValue("#depositMethodIds"), "mx_spei_stp")
          await looked(page, "operator-deposit-settings")

          // Rotating a shop's keys: the new pair shown once, the old secret no longer works.
          await page.goto(`${base}/console/operator/merchants`)
          await page.click(`form[action="/console/operator/merchants/rotate-keys"]:has(input[value="${shopId}"]) button`)
          const rotated = await page.$$eval("[data-testid=secret]", (els) => els.map((e) => e.textContent ?? ""))
          assert.strictEqual(rotated.length, 2)
          assert.notStrictEqual(rotated[0], sk)
          assert.notInclude(page.url(), "sk_")
        })
        assert.strictEqual((yield* call("GET", "/api/v1/me", { bearer: sk })).status, 401, "the old secret key is revoked")
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))
  })
})
