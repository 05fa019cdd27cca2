/**
 * The merchant's payments pages in Chromium: find a payment by its order id with the filter, page
 * through the list by keyset, open a payment and see its provider attempts and its webhook
 * deliveries, refund part of it, send the same refund form twice and find one refund, see a refused
 * amount told on the field, and see the balance change through the API.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant } from "../support/Console.ts"
import { baseUrl, call, createMerchant, eventually, reachableHost } from "../support/Host.ts"

const buyer = { paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725" }

describe.skipIf(chromiumPath === undefined)("console payments in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("filters, pages, shows a payment's life cycle, and refunds it once however often the form is sent", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Verde" })
        const sk = keys.sandbox.secretKey
        // A managed inbox on the host: every event is delivered there and verified.
        const webhook = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { events: ["*"], description: "console test" } })
        assert.strictEqual(webhook.status, 201)
        // 26 waiting payments, so the list has a second page.
        for (let i = 0; i < 26; i++) {
          const r = yield* call("POST", "/api/v1/payments", { bearer: sk, headers: { "sandbox-simulate": "slow_payment" }, body: { ...buyer, amount: 5 + i, merchantOrderId: `order-${i}` } })
          assert.strictEqual(r.status, 201)
        }
        const created = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "paid" },
          body: { ...buyer, amount: 100, merchantOrderId: "order-find-me" }
        })
        assert.strictEqual(created.status, 201)
        const id: string = created.body.transactionId
        const paid = yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed")
        const events = yield* call("GET", `/api/v1/events?relatedId=${id}&type=payment.completed`, { bearer: sk })
        yield* eventually(call("GET", `/api/v1/events/${events.body.data[0].id}/deliveries`, { bearer: sk }), (r) => r.body.data[0]?.status === "succeeded")
        const balanceBefore = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body

        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        const form = yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, "/console/payments")
          // Page one holds 25; "Next" shows the rest, none repeated.
          const firstPage = await page.$$eval("main table tbody tr td:first-child a", (as) => as.map((a) => a.textContent))
          assert.strictEqual(firstPage.length, 25)
          await looked(page, "payments-list")
          await Promise.all([page.waitForURL(/startingAfter=/), page.click("a[rel=next]")])
          const secondPage = await page.$$eval("main table tbody tr td:first-child a", (as) => as.map((a) => a.textContent))
          assert.strictEqual(secondPage.length, 2)
          assert.deepStrictEqual(secondPage.filter((x) => firstPage.includes(x)), [], "no payment on both pages")
          assert.isNull(await page.$("a[rel=next]"))

          // The filter finds the payment by its order id.
          await page.goto(`${base}/console/payments`)
          await page.fill("#merchantOrderId", "order-find-me")
          await Promise.all([page.waitForURL(/merchantOrderId=order-find-me/), page.click("form.filters button[type=submit]")])
          const found = await page.$$eval("main table tbody tr", (rows) => rows.length)
          assert.strictEqual(found, 1)
          await looked(page, "payments-filtered")

          // A bad filter is told on its field, with the API's 400.
          const bad = await page.goto(`${base}/console/payments?amountMin=abc`)
          assert.strictEqual(bad?.status(), 400)
          assert.strictEqual(await page.getAttribute("#amountMin", "aria-invalid"), "true")
          await looked(page, "payments-bad-filter")

          await page.goto(`${base}/console/payments?merchantOrderId=order-find-me`)
          await Promise.all([page.waitForURL(new RegExp(`/console/payments/${id}$`)), page.click(`a[href="/console/payments/${id}"]`)])
          const timeline = await page.textContent("[data-testid=timeline]") ?? ""
          assert.include(timeline, "Provider attempt")
          assert.include(timeline, paid.body.routing.attempts[0].provider)
          assert.include(timeline, "payment.completed")
          assert.include(await page.textContent("[data-testid=deliveries]") ?? "", "succeeded")
          assert.include(await page.textContent("[data-testid=refundable]") ?? "", paid.body.currencyLocal)
          await looked(page, "payment-detail")

          // More than remains: told on the amount field, with the API's 422; nothing refunded.
          await page.fill("#amount", String(paid.body.amountLocal + 1))
          const refused = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/refund")), page.click("[data-testid=refund-form] button[type=submit]")])
          assert.strictEqual(refused[0].status(), 422)
          assert.strictEqual(await page.getAttribute("#amount", "aria-invalid"), "true")
          assert.include(await page.textContent("#amount-error") ?? "", "remain refundable")
          await looked(page, "payment-refund-refused")

          // A partial refund; the form's fields are kept to send them again.
          await page.goto(`${base}/console/payments/${id}`)
          await page.fill("#amount", "10")
          await page.selectOption("#reason", "requested_by_customer")
          const fields = await page.$$eval("[data-testid=refund-form] input, [data-testid=refund-form] select", (els) =>
            els.map((e) => [(e as HTMLInputElement).name, (e as HTMLInputElement).value] as [string, string]))
          await Promise.all([page.waitForURL(/done=refunded/), page.click("[data-testid=refund-form] button[type=submit]")])
          // Told as it stands: the sandbox may have completed it already (test/console/PaymentsFind.test.ts).
          assert.match(await page.textContent("main [role=status]") ?? "", /^Refund (requested|completed)/)
          return new URLSearchParams(fields).toString()
        })

        // The same form sent again (a double click, or back and send): the first refund's answer, no second refund.
        const cookie = (yield* Effect.promise(() => context.cookies())).find((c) => c.name === "console_session")!
        const again = yield* Effect.promise(() =>
          fetch(`${base}/console/payments/${id}/refund`, {
            method: "POST",
            redirect: "manual",
            headers: { cookie: `console_session=${cookie.value}`, origin: base, "content-type": "application/x-www-form-urlencoded" },
            body: form
          })
        )
        assert.strictEqual(again.status, 303)
        assert.include(again.headers.get("location") ?? "", "done=refunded")
        const claims = yield* eventually(call("GET", `/api/v1/payments/${id}/claims`, { bearer: sk }), (r) => r.body.data[0]?.status === "approved")
        assert.strictEqual(claims.body.data.length, 1, "one refund however often the form was sent")
        assert.deepInclude(claims.body.data[0], { kind: "user_dispute", amount: 10, reason: "requested_by_customer" })

        // The balance moved by the refund's USD, as the API tells it.
        const balanceAfter = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body
        assert.isBelow(balanceAfter.feeSummary.netBalance, balanceBefore.feeSummary.netBalance)
        assert.isTrue(balanceAfter.movements.some((m: any) => m.reference === claims.body.data[0].id), "the refund is a movement of the balance")

        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/payments/${id}`)
          const refundable = await page.textContent("[data-testid=refundable]") ?? ""
          assert.notInclude(refundable, String(paid.body.amountLocal))
          assert.include(await page.textContent("main") ?? "", claims.body.data[0].id)
          await looked(page, "payment-detail-refunded")
          await page.setViewportSize({ width: 1280, height: 900 })
          await page.goto(`${base}/console/payments/TXN-NOPE`)
          assert.include(await page.textContent("h1") ?? "", "No such payment")
        })
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))
  })
})
