/**
 * A simulator run standalone (`npm run simulator -- <provider>`) with the reference host pointed
 * at it by the environment it prints, both as child processes, as a merchant rehearsing before
 * going live would run them: a payment paid through the control routes and learned from the
 * simulator's notification; a refund the provider leaves pending stays pending in the engine
 * until the provider settles it; SIGTERM stops the simulator.
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
const startSimulator = (provider: string) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ child: ChildProcess; environment: Record<string, string>; routes: ReadonlyArray<string> }>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "providers/kit/Simulate.ts", provider, "--port", "0"], {
          cwd: root,
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        const timer = setTimeout(() => reject(new Error(`no start within 30 s:\n${output}`)), 30_000)
        child.stderr!.on("data", (chunk) => void (output += chunk))
        child.stdout!.on("data", (chunk) => {
          output += chunk
          const lines = output.split("\n")
          // The environment, then the control routes as comments; complete once a blank-free last route arrives.
          if (!lines.some((l) => l.includes("/_simulator/refunds/:id/reject"))) return
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

describe("a simulator run standalone", () => {
  it.live("prints the host's environment, and its control routes move payments and refunds the host learns of", () =>
    Effect.scoped(Effect.gen(function*() {
      const sim = yield* startSimulator("reference-http")
      assert.deepStrictEqual(Object.keys(sim.environment), [
        "CONNECTORS",
        "REFERENCE_HTTP_ENVIRONMENT",
        "REFERENCE_HTTP_BASE_URL",
        "REFERENCE_HTTP_API_KEY",
        "REFERENCE_HTTP_CALLBACK_SECRET"
      ])
      const upstream = sim.environment["REFERENCE_HTTP_BASE_URL"]!
      assert.match(upstream, /^http:\/\/127\.0\.0\.1:\d+$/)

      const dataDir = mkdtempSync(join(tmpdir(), "standalone-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const port = yield* Effect.promise(freePort)
      const hosts: Array<ChildHost> = []
      yield* Effect.addFinalizer(() => Effect.forEach(hosts, killHard, { discard: true }))
      const host = yield* startChildHost(port, { ...sim.environment, DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: "Error", BASE_URL: `http://127.0.0.1:${port}` })
      hosts.push(host)

      const merchant = yield* request(`${host.url}/admin/v1/merchants`, "POST", adminToken, { name: "Rehearsal Co", email: "ops@rehearsal.test" })
      const shopId = merchant.body.shops[0].id as string
      const sk = merchant.body.keys.sandbox.secretKey as string
      for (const [providerId, priority, enabled] of [["reference-http", 1, true], ["sandbox", 2, false]] as const) {
        assert.strictEqual((yield* request(`${host.url}/admin/v1/shops/${shopId}/routes/${providerId}`, "PUT", adminToken, { environment: "sandbox", priority, enabled })).status, 200)
      }
      const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => request(`${host.url}/api/v1${path}`, method, sk, body, headers)
      const control = (path: string, body?: unknown) => request(`${upstream}/_simulator${path}`, "POST", undefined, body ?? {})

      // Two payments (the second keeps the shop able to cover a full refund's fees).
      const pay = Effect.gen(function*() {
        const created = yield* api("POST", "/payments", { amount: 40, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const chargeId = created.body.paymentData.reference as string
        assert.deepStrictEqual((yield* control(`/payments/${chargeId}/pay`)).status, 200)
        const paid = yield* until(api("GET", `/payments/${created.body.transactionId}`), (r) => r.body.status === "completed")
        assert.strictEqual(paid.body.status, "completed", "learned from the simulator's notification")
        return created.body.transactionId as string
      })
      const transactionId = yield* pay
      yield* pay

      // A refund the provider holds pending stays pending, asked again on the shop's clock.
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

      // An unknown move answers 404 with the routes; SIGTERM ends the simulator.
      const unknown = yield* control("/payments/ch_nope/pay")
      assert.strictEqual(unknown.status, 404)
      const exit = yield* Effect.promise(() =>
        new Promise<number | null>((resolve) => {
          sim.child.once("exit", (code) => resolve(code))
          sim.child.kill("SIGTERM")
        })
      )
      assert.strictEqual(exit, 0)
    })), 120_000)
})
