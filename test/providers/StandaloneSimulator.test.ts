/**
 * The simulators run standalone (`npm run simulator -- <provider>`), with the reference host
 * pointed at them by the environment they print, all as child processes, as a merchant rehearsing
 * before going live would run them: through each, a payment paid by a control route and learned
 * from the simulator's notification; on the reference upstream, a refund the provider leaves
 * pending stays pending in the engine until the provider settles it; SIGTERM stops a simulator.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type ChildHost, freePort, killHard, startChildHost } from "../support/ChildHost.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const adminToken = "standalone-admin-token"

/** Starts `npm run simulator -- <provider>` and answers the variables it printed. */
const startSimulator = (provider: string, args: ReadonlyArray<string> = []) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ child: ChildProcess; environment: Record<string, string>; routes: ReadonlyArray<string> }>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "providers/kit/Simulate.ts", provider, "--port", "0", ...args], {
          cwd: root,
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000)
        child.stderr!.on("data", (chunk) => void (output += chunk))
        child.stdout!.on("data", (chunk) => {
          output += chunk
          const lines = output.split("\n")
          // The environment, then the control routes as comments; complete once a blank-free last route arrives.
          const last = provider === "dlocal" ? "/_simulator/payouts/:id/fail" : "/_simulator/refunds/:id/reject"
          if (!lines.some((l) => l.includes(last))) return
          clearTimeout(timer)
          const environment = Object.fromEntries(lines.filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l)).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]))
          resolve({ child, environment, routes: lines.filter((l) => l.startsWith("#   POST")) })
        })
        child.on("exit", (code) => reject(new Error(`simulator exited with ${code}:\n${output}`)))
      })
    ),
    ({ child }) => Effect.sync(() => child.exitCode === null && child.kill("SIGKILL"))
  )

const json = async (response: Response) => ({ status: response.status, body: await response.json() as any })
const request = (url: string, method: string, bearer: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetch(url, {
      method,
      headers: { ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }), "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }).then(json)
  )

/** Polls `probe` every 100 ms until `done`, for up to 20 s. */
const until = <A>(probe: Effect.Effect<A>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 20_000
    let last = yield* probe
    while (!done(last) && Date.now() < deadline) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
      last = yield* probe
    }
    return last
  })

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725", userPhone: "+5511987654321" }

describe("simulators run standalone", () => {
  it.live("each prints the host's environment; the host charges through it, and its control routes move payments and refunds the host learns of", () =>
    Effect.scoped(Effect.gen(function*() {
      // Each with a rail it serves; Pagar.me and Conekta send webhooks to the URL set per account.
      const providers = ["reference-http", "dlocal", "mercadopago", "ebanx", "pagarme", "conekta"] as const
      const railOf: Record<(typeof providers)[number], string> = {
        "reference-http": "1001",
        dlocal: "1001",
        mercadopago: "1001",
        ebanx: "1001",
        pagarme: "1001",
        conekta: "1033"
      }
      const port = yield* Effect.promise(freePort)
      const sims = yield* Effect.forEach(
        providers,
        (p) => startSimulator(p, ["--webhook-url", `http://127.0.0.1:${port}/api/v1/providers/${p}/callbacks`]),
        { concurrency: "unbounded" }
      )
      const reference = sims[0]!
      assert.deepStrictEqual(Object.keys(reference.environment), [
        "CONNECTORS",
        "REFERENCE_HTTP_ENVIRONMENT",
        "REFERENCE_HTTP_BASE_URL",
        "REFERENCE_HTTP_API_KEY",
        "REFERENCE_HTTP_CALLBACK_SECRET"
      ])
      for (const [i, sim] of sims.entries()) {
        assert.strictEqual(sim.environment["CONNECTORS"], providers[i])
        assert.match(sim.environment[`${providers[i]!.toUpperCase().replace("-", "_")}_BASE_URL`]!, /^http:\/\/127\.0\.0\.1:\d+$/)
      }
      // One host configured with what all of them printed.
      const environment = Object.assign({}, ...sims.map((s) => s.environment), { CONNECTORS: providers.join(",") }) as Record<string, string>

      const dataDir = mkdtempSync(join(tmpdir(), "standalone-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const hosts: Array<ChildHost> = []
      yield* Effect.addFinalizer(() => Effect.forEach(hosts, killHard, { discard: true }))
      const host = yield* startChildHost(port, { ...environment, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: "Error", BASE_URL: `http://127.0.0.1:${port}` })
      hosts.push(host)

      /** A shop routed to `providerId` alone, and its API. */
      const shopOn = (providerId: string) =>
        Effect.gen(function*() {
          const merchant = yield* request(`${host.url}/admin/v1/merchants`, "POST", adminToken, { name: `Rehearsal ${providerId}`, email: "ops@rehearsal.test" })
          const shopId = merchant.body.shops[0].id as string
          for (const [id, priority, enabled] of [[providerId, 1, true], ["sandbox", 2, false]] as const) {
            assert.strictEqual((yield* request(`${host.url}/admin/v1/shops/${shopId}/routes/${id}`, "PUT", adminToken, { environment: "sandbox", priority, enabled })).status, 200)
          }
          const sk = merchant.body.keys.sandbox.secretKey as string
          return (method: string, path: string, body?: unknown) => request(`${host.url}/api/v1${path}`, method, sk, body)
        })

      // Every simulator: a payment charged through it, paid by its control route named by the engine's transaction id.
      for (const [i, providerId] of providers.entries()) {
        const upstream = sims[i]!.environment[`${providerId.toUpperCase().replace("-", "_")}_BASE_URL`]!
        const api = yield* shopOn(providerId)
        const created = yield* api("POST", "/payments", { amount: 40, paymentMethodId: railOf[providerId], ...buyer, ...(railOf[providerId] === "1033" ? { documentId: "GODE561231GR8" } : {}) })
        assert.strictEqual(created.status, 201, `${providerId}: ${JSON.stringify(created.body)}`)
        const moved = yield* request(`${upstream}/_simulator/payments/${created.body.transactionId}/pay`, "POST", undefined, {})
        assert.strictEqual(moved.status, 200, `${providerId}: ${JSON.stringify(moved.body)}`)
        const paid = yield* until(api("GET", `/payments/${created.body.transactionId}`), (r) => r.body.status === "completed")
        assert.strictEqual(paid.body.status, "completed", `${providerId}: learned from the simulator's notification`)
      }

      // dLocal's printed environment also configures payouts v3 on the same base URL: a sandbox
      // payout on SPEI goes to its simulator, and the printed payout route completes it.
      const dlocal = sims[providers.indexOf("dlocal")]!
      assert.deepStrictEqual(Object.keys(dlocal.environment).filter((k) => k.startsWith("DLOCAL_CLIENT_")), ["DLOCAL_CLIENT_ID", "DLOCAL_CLIENT_SECRET"])
      const payoutRoute = dlocal.routes.find((r) => r.includes("/_simulator/payouts/:id/pay"))
      assert.isDefined(payoutRoute, dlocal.routes.join("\n"))
      {
        const api = yield* shopOn("dlocal")
        assert.strictEqual((yield* api("POST", "/me/payout/fund-sandbox", { currency: "MXN", amount: 5000 })).status, 200)
        const recipient = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }
        const sent = yield* api("POST", "/me/payout/send", { methodId: "po_mx_spei", amount: 200, recipient })
        assert.strictEqual(sent.status, 201, JSON.stringify(sent.body))
        assert.deepInclude(sent.body.payout, { status: "processing", provider: "dlocal" })
        const url = payoutRoute!.slice(payoutRoute!.indexOf("http")).replace(":id", sent.body.payout.id)
        assert.strictEqual((yield* request(url, "POST", undefined, {})).status, 200, "the printed route, by the engine's payout id")
        const done = yield* until(api("GET", `/me/payout/send/${sent.body.payout.id}`), (r) => r.body.payout.status === "completed")
        assert.strictEqual(done.body.payout.status, "completed", "learned from dLocal's signed payout notification")
      }

      // The reference upstream, step by step: a refund the provider holds pending stays pending.
      const upstream = reference.environment["REFERENCE_HTTP_BASE_URL"]!
      const api = yield* shopOn("reference-http")
      const control = (path: string, body?: unknown) => request(`${upstream}/_simulator${path}`, "POST", undefined, body ?? {})
      const pay = Effect.gen(function*() {
        const created = yield* api("POST", "/payments", { amount: 40, paymentMethodId: "1001", ...buyer })
        assert.strictEqual((yield* control(`/payments/${created.body.paymentData.reference}/pay`)).status, 200, "by the provider's own id too")
        yield* until(api("GET", `/payments/${created.body.transactionId}`), (r) => r.body.status === "completed")
        return created.body.transactionId as string
      })
      const transactionId = yield* pay
      yield* pay // the shop's other money covers a full refund's fees
      assert.deepStrictEqual((yield* control("/refunds/hold", { pending: true })).body, { refundsPending: true })
      const refund = yield* api("POST", `/payments/${transactionId}/refund`, {})
      assert.strictEqual(refund.status, 201)
      const claim = () => api("GET", `/claims/${refund.body.refundId}`)
      const asked = yield* until(claim(), (r) => r.body.providerRef !== null && r.body.providerRef !== undefined)
      assert.strictEqual(asked.body.refundStatus, "pending")
      assert.strictEqual((yield* api("POST", "/sandbox/clock/advance", { seconds: 120 })).status, 200)
      assert.strictEqual((yield* claim()).body.refundStatus, "pending")
      assert.strictEqual((yield* control(`/refunds/${asked.body.providerRef}/settle`)).status, 200)
      assert.strictEqual((yield* api("POST", "/sandbox/clock/advance", { seconds: 600 })).status, 200)
      assert.strictEqual((yield* claim()).body.refundStatus, "succeeded")
      assert.strictEqual((yield* api("GET", `/payments/${transactionId}`)).body.status, "refunded")

      // An unknown move answers 404; SIGTERM ends a simulator with 0.
      assert.strictEqual((yield* control("/payments/ch_nope/pay")).status, 404)
      const exit = yield* Effect.promise(() =>
        new Promise<number | null>((resolve) => {
          reference.child.once("exit", (code) => resolve(code))
          reference.child.kill("SIGTERM")
        })
      )
      assert.strictEqual(exit, 0)
    })), 180_000)

  it.live("a second start with --account stands for another account: another set of credentials it accepts, for its own instance", () =>
    Effect.scoped(Effect.gen(function*() {
      const first = yield* startSimulator("mercadopago")
      const second = yield* startSimulator("mercadopago", ["--account", "b"])
      assert.strictEqual(first.environment["CONNECTORS"], "mercadopago")
      assert.strictEqual(second.environment["CONNECTORS"], "mercadopago-b=mercadopago")
      const tokenA = first.environment["MERCADOPAGO_ACCESS_TOKEN"]!
      const tokenB = second.environment["MERCADOPAGO_B_ACCESS_TOKEN"]!
      assert.strictEqual(tokenB, `${tokenA}-b`)
      assert.strictEqual(second.environment["MERCADOPAGO_B_WEBHOOK_SECRET"], `${first.environment["MERCADOPAGO_WEBHOOK_SECRET"]}-b`)
      const baseB = second.environment["MERCADOPAGO_B_BASE_URL"]!
      // Account b's simulator takes b's token and refuses a's.
      assert.strictEqual((yield* request(`${baseB}/v1/payments/1`, "GET", tokenA)).status, 401)
      assert.strictEqual((yield* request(`${baseB}/v1/payments/1`, "GET", tokenB)).status, 404)
    })), 120_000)
})
