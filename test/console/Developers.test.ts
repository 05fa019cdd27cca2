/**
 * The developers pages in Chromium: the key pair in use (secret masked), the request log, the
 * sandbox clock (advanced once per form, absent in production), the events list with its JSON,
 * and key rotation: the new pair shown once, the old keys refused, the session ended.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant } from "../support/Console.ts"
import { baseUrl, call, createMerchant, eventually, reachableHost } from "../support/Host.ts"

describe.skipIf(chromiumPath === undefined)("console developers in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("shows keys, requests, events and the sandbox clock; rotating keys shows them once and ends the session", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Dev" })
        const sk = keys.sandbox.secretKey
        const paid = yield* call("POST", "/api/v1/payments", {
          bearer: sk,
          headers: { "sandbox-simulate": "paid" },
          body: { amount: 12, paymentMethodId: "sbx_spei", merchantOrderId: "dev-1" }
        })
        assert.strictEqual(paid.status, 201)
        yield* eventually(call("GET", "/api/v1/events?type=payment.completed", { bearer: sk }), (r) => r.body.pagination.total >= 1)
        yield* call("GET", "/api/v1/payments?merchantOrderId=secret-order-42", { bearer: sk })
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        const rotated = yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, "/console/developers")
          assert.strictEqual(new URL(page.url()).pathname, "/console/developers")
          assert.strictEqual((await page.textContent("[data-testid=publishable-key]"))?.trim(), keys.sandbox.publishableKey)
          assert.strictEqual((await page.textContent("[data-testid=secret-key]"))?.trim(), `sk_test_…${sk.slice(-4)}`)
          assert.notInclude(await page.content(), sk, "the secret key is never shown again")
          const log = await page.textContent("section#requests") ?? ""
          assert.include(log, "/api/v1/payments")
          assert.notInclude(log, "secret-order-42", "no query string in the log")
          assert.include(log, "/api/v1/me/keys", "the console's own calls are API requests too")
          await looked(page, "developers")

          // The clock: one advance per form, even posted twice.
          assert.strictEqual(await page.textContent("[data-testid=clock-offset]"), "0")
          const form = page.locator("form[action='/console/developers/clock']")
          const fields = Object.fromEntries(await form.locator("input[type=hidden]").evaluateAll((inputs) =>
            inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value])
          ))
          const post = () =>
            page.request.post(`${base}/console/developers/clock`, { form: { ...fields, seconds: "86400" }, headers: { origin: base }, maxRedirects: 0 })
          assert.strictEqual((await post()).status(), 303)
          assert.strictEqual((await post()).status(), 303)
          await page.reload()
          assert.strictEqual(await page.textContent("[data-testid=clock-offset]"), "86400")
          await page.selectOption("#seconds", "3600")
          await Promise.all([page.waitForNavigation(), form.locator("button").click()])
          assert.include(await page.textContent(".notice") ?? "", "moved forward")
          assert.strictEqual(await page.textContent("[data-testid=clock-offset]"), String(86400 + 3600))

          // Events: filtered by type, each with its JSON.
          await page.goto(`${base}/console/developers/events`)
          await page.selectOption("#type", "payment.completed")
          await Promise.all([page.waitForNavigation(), page.click("form.filters button")])
          assert.include(page.url(), "type=payment.completed")
          const events = await page.textContent("main table") ?? ""
          assert.include(events, "payment.completed")
          assert.notInclude(events, "payment.captured")
          await page.click("main table details summary")
          assert.include(await page.textContent("main table details pre") ?? "", "dev-1")
          await looked(page, "developer-events")

          // Rotation: the new pair once; the session ends. A double click: the first click's answer
          // is lost (the browser moved on with the second), and the second posts the same form.
          await page.goto(`${base}/console/developers`)
          const rotateForm = await page.evaluate(() =>
            [...new FormData(document.querySelector("form[action='/console/developers/rotate-keys']") as HTMLFormElement).entries()].map(([k, v]) => [k, String(v)])
          )
          const session = (await context.cookies()).find((c) => c.name === "console_session")!.value
          const firstClick = await fetch(`${base}/console/developers/rotate-keys`, {
            method: "POST",
            redirect: "manual",
            headers: { cookie: `console_session=${session}`, origin: base, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(rotateForm).toString()
          })
          assert.strictEqual(firstClick.status, 303)
          assert.strictEqual(firstClick.headers.get("location"), "/console/developers/new-keys")
          const answer = await Promise.all([page.waitForNavigation(), page.click("form[action='/console/developers/rotate-keys'] button")])
          assert.strictEqual(answer[0]?.status(), 200, "the second click shows the first click's keys")
          const publishableKey = (await page.textContent("[data-testid=new-publishable-key]"))!.trim()
          const secretKey = (await page.textContent("[data-testid=new-secret-key]"))!.trim()
          assert.match(secretKey, /^sk_test_/)
          assert.notStrictEqual(secretKey, sk)
          await looked(page, "developers-rotated")
          const cookies = await context.cookies()
          assert.isUndefined(cookies.find((c) => c.name === "console_session" && c.value !== ""), "the cookie is cleared")
          await page.goto(`${base}/console/developers`)
          assert.strictEqual(new URL(page.url()).pathname, "/console/sign-in", "the session has ended")
          return { publishableKey, secretKey }
        })
        const old = yield* call("GET", "/api/v1/me", { bearer: sk })
        assert.strictEqual(old.status, 401, "the old secret key stops working")
        const fresh = yield* call("GET", "/api/v1/me", { bearer: rotated.secretKey })
        assert.strictEqual(fresh.status, 200)

        yield* Effect.promise(async () => {
          await signInMerchant(page, base, rotated, "/console/developers")
          assert.notInclude(await page.content(), rotated.secretKey, "shown once: not on the page again")
          assert.strictEqual((await page.textContent("[data-testid=publishable-key]"))?.trim(), rotated.publishableKey)
          await Promise.all([page.waitForURL(/\/console\/sign-in/), page.click(".top form button[type=submit]")])
          // Production: no test clock.
          await signInMerchant(page, base, keys.production, "/console/developers")
          assert.strictEqual(await page.locator("form[action='/console/developers/clock']").count(), 0)
          await looked(page, "developers-production")
        })
        yield* Effect.promise(() => context.close())
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))

    it.effect("creates a restricted key shown once, lists it masked, and revokes it", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Restrita" })
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        const secret = yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, "/console/developers")
          assert.include(await page.textContent("#restricted-heading") ?? "", "Restricted keys")
          await page.fill("#name", "warehouse")
          await page.selectOption("#access-payments", "read")
          await page.selectOption("#access-refunds", "write")
          await Promise.all([page.waitForNavigation(), page.click("form[action='/console/developers/restricted-keys'] button[type=submit]")])
          const shown = (await page.textContent("[data-testid=restricted-secret]"))?.trim() ?? ""
          assert.match(shown, /^rk_test_/)
          assert.include(await page.textContent("main") ?? "", "payments:read, refunds:write")
          await looked(page, "restricted-key-created")
          await page.goto(`${base}/console/developers`)
          assert.notInclude(await page.content(), shown, "shown once")
          assert.include(await page.textContent("section[aria-labelledby=restricted-heading]") ?? "", "warehouse")
          await looked(page, "developers-restricted")
          return shown
        })
        assert.strictEqual((yield* call("GET", "/api/v1/payments", { bearer: secret })).status, 200)
        assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: secret, body: { amount: 10, paymentMethodId: "sbx_pix" } })).status, 403)
        yield* Effect.promise(async () => {
          await Promise.all([page.waitForNavigation(), page.click("form[action^='/console/developers/restricted-keys/'] button")])
          assert.include(await page.textContent(".notice") ?? "", "revoked")
          assert.include(await page.textContent("main") ?? "", "No restricted keys.")
        })
        assert.strictEqual((yield* call("GET", "/api/v1/payments", { bearer: secret })).status, 401)
        yield* Effect.promise(() => context.close())
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))
  })
})
