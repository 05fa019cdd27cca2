/**
 * The host's logs never carry a secret, an API key, a card number, a document id, an email or a
 * phone: a host with `LOG_FORMAT=json` at level Info is sent them in bodies, queries
 * and headers, on requests that succeed, are refused, and fail inside (the PostgreSQL store
 * behind a proxy the test closes, so the error and its cause are logged); every line it writes is
 * one JSON object, and none contains any of them. The request lines carry the request id, the
 * shop of the authenticated key, the method, route, status and duration, and trace and span ids.
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { vi } from "vitest"
import { HostConfig } from "../../host/Config.ts"
import { adminToken, call, createMerchant, freePort, testHost } from "../support/Host.ts"
import { postgresStore } from "../support/Stores.ts"
import { tcpProxy } from "../support/TcpProxy.ts"

const email = "maria.redacted@example.com"
const cpf = "52998224725"
const phone = "+5511987654321"
const card = "4111111111111111"
const otherSecret = "sk_test_NotARealKeyButSecret0123456789"

/** Everything written to the console from now until the scope closes. */
const captureConsole = Effect.acquireRelease(
  Effect.sync(() => {
    const lines: Array<string> = []
    for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
        lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a) ?? String(a))).join(" "))
      })
    }
    return lines
  }),
  () => Effect.sync(() => vi.restoreAllMocks())
)

const databaseUrl = process.env["DATABASE_URL"]

describe.skipIf(databaseUrl === undefined)("log redaction", () => {
  it.live("no secret, key, card, document, email or phone in any JSON log line, on success, refusal and failure", () =>
    Effect.gen(function*() {
      const target = new URL(databaseUrl!)
      const port = yield* Effect.promise(freePort)
      const proxy = tcpProxy(port, { host: target.hostname, port: Number(target.port || 5432) })
      yield* Effect.acquireRelease(Effect.promise(proxy.open), () => Effect.promise(proxy.close))
      const proxied = new URL(databaseUrl!)
      proxied.host = `127.0.0.1:${port}`
      const lines = yield* captureConsole
      const host = testHost(postgresStore(proxied.toString(), "redaction"), { logFormat: "json", logLevel: "Info" })

      const secrets = yield* Effect.gen(function*() {
        const created = yield* createMerchant({ email })
        const sk = created.keys.sandbox.secretKey
        const pk = created.keys.sandbox.publishableKey
        const shopId = created.shops[0]!.id
        const query = `?email=${encodeURIComponent(email)}&document=${cpf}&phone=${encodeURIComponent(phone)}&card=${card}&key=${sk}`
        const headers = { "x-buyer-email": email, "x-document": cpf, "x-phone": phone, "x-card": card, "x-api-key": sk }
        const buyer = { userName: "Maria Silva", userEmail: email, userPhone: phone, documentId: cpf }

        assert.strictEqual((yield* call("GET", `/api/v1/me${query}`, { bearer: sk, headers })).status, 200)
        const paid = yield* call("POST", `/api/v1/payments${query}`, {
          bearer: sk,
          headers,
          body: { amount: 100, paymentMethodId: "sbx_pix", userName: buyer.userName, userEmail: email, documentId: cpf, merchantOrderId: card }
        })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        const session = yield* call("POST", `/api/v1/checkout/sessions${query}`, { bearer: sk, headers, body: { amount: 50, country: "BR", ...buyer } })
        assert.strictEqual(session.status, 201, JSON.stringify(session.body))
        // Refused: a malformed email, an unknown key, a publishable key where a secret one is needed.
        assert.strictEqual((yield* call("POST", `/api/v1/payments${query}`, { bearer: sk, headers, body: { amount: 1, paymentMethodId: "sbx_pix", userEmail: `${cpf} ${card} ${phone}` } })).status, 400)
        assert.strictEqual((yield* call("GET", `/api/v1/me${query}`, { bearer: otherSecret, headers })).status, 401)
        assert.strictEqual((yield* call("POST", `/api/v1/payments${query}`, { bearer: pk, headers, body: { amount: 1, paymentMethodId: "sbx_pix" } })).status, 403)

        // Failing inside: the store is gone; the error is logged with its cause.
        yield* Effect.promise(proxy.close)
        const failures = [
          yield* call("GET", `/api/v1/me${query}`, { bearer: sk, headers }),
          yield* call("POST", `/api/v1/payments${query}`, { bearer: sk, headers, body: { amount: 100, paymentMethodId: "sbx_pix", ...buyer, merchantOrderId: card } })
        ]
        assert.deepStrictEqual(failures.map((f) => f.status), [500, 500])
        yield* Effect.promise(proxy.open)
        return { sk, pk, shopId }
      }).pipe(Effect.provide(host))

      const all = lines.join("\n")
      for (const forbidden of [secrets.sk, secrets.pk, otherSecret, adminToken, email, cpf, phone, encodeURIComponent(phone), card]) {
        assert.notInclude(all, forbidden, `${forbidden} was logged`)
      }

      // Every line is one JSON object (the lines are the host's: vitest's own go elsewhere).
      const entries = lines.flatMap((l) => l.split("\n")).filter((l) => l.trim() !== "").map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>
        } catch {
          return assert.fail(`not a JSON line: ${l}`)
        }
      })
      const requestLines = entries.filter((e) => typeof e["route"] === "string")
      const me = requestLines.find((e) => e["route"] === "/api/v1/me" && e["status"] === 200)
      assert.isDefined(me, JSON.stringify(requestLines.slice(0, 3)))
      assert.strictEqual(me!["method"], "GET")
      assert.strictEqual(me!["route"], "/api/v1/me")
      assert.strictEqual(me!["shopId"], secrets.shopId)
      assert.strictEqual(me!["message"], `GET /api/v1/me 200 ${me!["durationMs"]}ms`)
      assert.match(String(me!["requestId"]), /^req_/)
      assert.match(String(me!["traceId"]), /^[0-9a-f]{32}$/)
      assert.match(String(me!["spanId"]), /^[0-9a-f]{16}$/)
      assert.strictEqual(me!["level"], "INFO")
      assert.isString(me!["timestamp"])
      const failed = entries.filter((e) => e["message"] === "request failed")
      assert.strictEqual(failed.length, 2, JSON.stringify(entries.filter((e) => e["level"] === "ERROR")))
      for (const f of failed) {
        assert.isString(f["cause"])
        assert.match(String(f["requestId"]), /^req_/)
      }
    }).pipe(Effect.scoped), { timeout: 60_000 })
})

describe("LOG_FORMAT", () => {
  it.effect("text by default, json when asked; anything else stops the host naming it", () =>
    Effect.gen(function*() {
      const read = (env: Record<string, string>) => HostConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
      assert.strictEqual((yield* read({})).logFormat, "text")
      assert.strictEqual((yield* read({ LOG_FORMAT: "json" })).logFormat, "json")
      const failure = yield* read({ LOG_FORMAT: "yaml" }).pipe(Effect.flip)
      assert.include(String(failure.message), "LOG_FORMAT")
    }))
})
