/**
 * The webhooks pages in Chromium: add an endpoint (a refused URL told on the field, then a good
 * one with its secret shown once), see a payment's deliveries, open one delivery's request and
 * response, replay it (one replay per form, even posted twice), send a test event, rotate the
 * secret (shown once), edit and delete the endpoint.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant } from "../support/Console.ts"
import { baseUrl, call, createMerchant, eventually, reachableHost } from "../support/Host.ts"

/** A receiver on loopback: answers 200 with a small JSON body and keeps what it got. */
const receiver = Effect.acquireRelease(
  Effect.promise(async () => {
    const received: Array<{ event: string; body: string }> = []
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        received.push({ event: String(req.headers["x-service-event"]), body })
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    return { url: `http://127.0.0.1:${port}/hooks`, received, server }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(chromiumPath === undefined)("console webhooks in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("adds an endpoint, shows its deliveries with request and response, replays once per form, tests, rotates, edits and deletes", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Webhook" })
        const hook = yield* receiver
        const base = yield* baseUrl
        const chromium = yield* browser
        const { context, foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        const webhookId = yield* Effect.promise(async () => {
          await signInMerchant(page, base, keys.sandbox, "/console/webhooks")
          assert.strictEqual(new URL(page.url()).pathname, "/console/webhooks")
          await looked(page, "webhooks-empty")

          // A URL the API refuses: the field tells why, with the API's status.
          await page.fill("#url", "ftp://files.example/hooks")
          await page.fill("#events", "*")
          const refused = await Promise.all([page.waitForNavigation(), page.click("form[action='/console/webhooks'] button[type=submit]")])
          assert.strictEqual(refused[0]?.status(), 400)
          assert.strictEqual(await page.getAttribute("#url", "aria-invalid"), "true")
          assert.include(await page.textContent("#url-error") ?? "", "http")
          await looked(page, "webhooks-refused")

          await page.fill("#url", hook.url)
          await page.fill("#events", "payment.completed, payment.failed")
          // A double click whose first answer the browser dropped: the same form posted first
          // elsewhere, then clicked. One endpoint, and the page shows the first answer's secret.
          const addForm = await page.evaluate(() =>
            [...new FormData(document.querySelector("form[action='/console/webhooks']") as HTMLFormElement).entries()].map(([k, v]) => [k, String(v)])
          )
          const session = (await context.cookies()).find((c) => c.name === "console_session")!.value
          const firstClick = await fetch(`${base}/console/webhooks`, {
            method: "POST",
            redirect: "manual",
            headers: { cookie: `console_session=${session}`, origin: base, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(addForm).toString()
          })
          assert.strictEqual(firstClick.headers.get("location"), "/console/shown-once")
          await Promise.all([page.waitForNavigation(), page.click("form[action='/console/webhooks'] button[type=submit]")])
          const secret = (await page.textContent("[data-testid=secret]"))!.trim()
          assert.match(secret, /^whsec_[A-Za-z0-9_-]{20,}$/, "the real secret, not the replay's masked one")
          const endpoints = await fetch(`${base}/api/v1/webhooks`, { headers: { authorization: `Bearer ${keys.sandbox.secretKey}` } }).then((r) => r.json())
          assert.strictEqual(endpoints.data.length, 1, "one endpoint for two clicks")
          await looked(page, "webhooks-created")
          await page.goto(`${base}/console/webhooks`)
          assert.notInclude(await page.content(), secret, "the secret is shown once")
          assert.include(await page.textContent("main") ?? "", hook.url)
          const href = await page.getAttribute(`a:has-text("${hook.url}")`, "href")
          return href!.split("/").pop()!
        })

        // A payment event reaches the endpoint.
        const paid = yield* call("POST", "/api/v1/payments", {
          bearer: keys.sandbox.secretKey,
          headers: { "sandbox-simulate": "paid" },
          body: { amount: 15, paymentMethodId: "sbx_spei", merchantOrderId: "console-wh-1" }
        })
        assert.strictEqual(paid.status, 201)
        yield* eventually(Effect.sync(() => hook.received), (r) => r.some((e) => e.event === "payment.completed"))
        yield* eventually(
          call("GET", `/api/v1/webhooks/${webhookId}/deliveries?status=succeeded`, { bearer: keys.sandbox.secretKey }),
          (r) => r.body.pagination.total >= 1
        )

        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/webhooks/${webhookId}`)
          assert.include(await page.textContent("main") ?? "", "payment.completed")
          await looked(page, "webhook-endpoint")
          await Promise.all([page.waitForNavigation(), page.click('main table a[href*="/deliveries/"]')])
          assert.match(new URL(page.url()).pathname, /\/deliveries\/wd_/)
          assert.include(await page.textContent("[data-testid=request-body]") ?? "", "console-wh-1")
          assert.include(await page.textContent("main") ?? "", "x-service-event")
          assert.include(await page.textContent("[data-testid=response-body]") ?? "", "received")
          await looked(page, "webhook-delivery")

          // Replay: the form's own key, posted twice, queues one delivery.
          const before = hook.received.length
          const form = page.locator("form[action$='/replay']")
          const action = await form.getAttribute("action")
          const fields = Object.fromEntries(await form.locator("input[type=hidden]").evaluateAll((inputs) =>
            inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value])
          ))
          const post = () => page.request.post(`${base}${action}`, { form: fields, headers: { origin: base }, maxRedirects: 0 })
          const [first, second] = [await post(), await post()]
          assert.strictEqual(first.status(), 303)
          assert.strictEqual(second.status(), 303)
          await settle(1500)
          assert.strictEqual(hook.received.length, before + 1, "one replay for one form")
          // The same form clicked once more is the same key: nothing more is queued.
          await Promise.all([page.waitForNavigation(), page.click("form[action$='/replay'] button")])
          assert.include(await page.textContent(".notice") ?? "", "queued again")
          await settle(1500)
          assert.strictEqual(hook.received.length, before + 1, "the same form's key replays nothing more")
          // The page drawn again carries a new key: a new replay.
          await page.reload()
          await Promise.all([page.waitForNavigation(), page.click("form[action$='/replay'] button")])
          for (let i = 0; i < 50 && hook.received.length < before + 2; i++) await settle(100)
          assert.strictEqual(hook.received.length, before + 2, "a new form is a new replay")

          // A test event, to this endpoint only.
          await page.goto(`${base}/console/webhooks/${webhookId}`)
          await Promise.all([page.waitForNavigation(), page.click("form[action$='/test'] button")])
          assert.include(await page.textContent(".notice") ?? "", "test event")
          for (let i = 0; i < 50 && !hook.received.some((e) => e.event === "webhook.test"); i++) await settle(100)
          assert.isTrue(hook.received.some((e) => e.event === "webhook.test"))
          await page.reload()
          assert.include(await page.textContent("main table") ?? "", "webhook.test")

          // Rotate: the new secret once, not on reload.
          await Promise.all([page.waitForNavigation(), page.click("form[action$='/rotate-secret'] button")])
          const rotated = (await page.textContent("[data-testid=secret]"))!.trim()
          assert.match(rotated, /^whsec_/)
          await looked(page, "webhook-rotated")
          await page.goto(`${base}/console/webhooks/${webhookId}`)
          assert.notInclude(await page.content(), rotated)

          // Edit: a refused URL on the field, then a description saved.
          await page.fill("#url", "ftp://files.example/x")
          const bad = await Promise.all([page.waitForNavigation(), page.click(`form[action='/console/webhooks/${webhookId}'] button[type=submit]`)])
          assert.strictEqual(bad[0]?.status(), 400)
          assert.strictEqual(await page.getAttribute("#url", "aria-invalid"), "true")
          await page.fill("#url", hook.url)
          await page.fill("#description", "orders")
          await Promise.all([page.waitForNavigation(), page.click(`form[action='/console/webhooks/${webhookId}'] button[type=submit]`)])
          assert.include(page.url(), "done=saved")
          assert.strictEqual(await page.inputValue("#description"), "orders")

          await Promise.all([page.waitForNavigation(), page.click("form[action$='/delete'] button")])
          assert.strictEqual(new URL(page.url()).pathname, "/console/webhooks")
          assert.notInclude(await page.textContent("main") ?? "", hook.url)
        })
        yield* Effect.promise(() => context.close())
        assert.deepStrictEqual(foreign, [], "nothing loads from another host")
      }))
  })
})
