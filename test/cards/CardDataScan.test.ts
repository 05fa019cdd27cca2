/**
 * The engine never holds a card number or a security code. A whole card history runs through the
 * reference host on PostgreSQL with the real card vault (`vault/`, in this test's process on its
 * own port and store) and Pagar.me's connector against its simulator: the merchant's server gets a
 * card session, tokenizes two cards at the vault, charges an approved one (the vault fills the
 * placeholders and forwards to Pagar.me), has a declined one refused, and refunds part of the
 * paid one; webhooks are recorded in the outbox. Then the engine's every table (the outbox's
 * webhook bodies among them), the metrics scrape, every console line (JSON at Trace) and every
 * span exported over OTLP are searched for the card numbers (as
 * typed and grouped) and the security codes:
 * none. The vault's audit names each use of the number.
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { readConnectors } from "../../host/Connectors.ts"
import pagarme from "../../providers/pagarme/Standalone.ts"
import { startForTest } from "../../vault/index.ts"
import { adminToken, call, createMerchant, drainWork, testHost } from "../support/Host.ts"
import { captureConsole } from "../support/CaptureConsole.ts"
import { receiver, type Span } from "../support/OtlpReceiver.ts"
import { postgresStore } from "../support/Stores.ts"
import { testConfig as vaultConfig } from "../vault/VaultFixtures.ts"

const databaseUrl = process.env["DATABASE_URL"]
const approved = "4000000000000010"
const declined = "4000000000000028"
const codes = ["731", "842"]
/** What a log line, a span or a row must never carry: the numbers whole or grouped, and the codes in a field. */
const forbidden = [approved, declined].flatMap((n) => [n, n.replace(/(\d{4})(?=\d)/g, "$1 "), n.replace(/(\d{4})(?=\d)/g, "$1-")])
const leaks = (text: string) => [
  ...forbidden.filter((value) => text.includes(value)),
  ...codes.filter((code) => new RegExp(`"(cvv|cvc|security_?code|securityCode)"\\s*:\\s*"?${code}`, "i").test(text))
]

class World extends Context.Service<World, {
  readonly spans: Array<Span>
  readonly lines: Array<string>
  readonly vault: { readonly url: string; readonly engineKey: string }
}>()("test/CardDataScan") {}


const sessionSecret = "session-secret-for-tests-0123456789abcdef"

const HostWithVault = Layer.unwrap(Effect.gen(function*() {
  const r = yield* receiver
  const lines = yield* captureConsole
  const sim = yield* pagarme.start
  const env: Record<string, string> = { ...Object.fromEntries(sim.environment), CONNECTORS: "pagarme" }
  const simHost = new URL(env["PAGARME_BASE_URL"]!).host
  const vault = yield* startForTest(vaultConfig({ forwardHosts: [simHost], allowHttpLoopback: true, sessionSecret: Redacted.make(sessionSecret) }))
  const connectors = yield* readConnectors().pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
  const telemetry = ConfigProvider.fromEnvRecord({
    OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_SERVICE_NAME: "card-data-scan"
  })
  return Layer.merge(
    testHost(postgresStore(databaseUrl!, "card_scan"), {
      connectors,
      logFormat: "json",
      logLevel: "Trace",
      vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make(sessionSecret) })
    }).pipe(Layer.provide(ConfigProvider.layer(telemetry))),
    Layer.succeed(World, { spans: r.spans, lines, vault })
  )
}))

describe.skipIf(databaseUrl === undefined)("card data in the engine", () => {
  layer(HostWithVault, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a card history through the vault and Pagar.me leaves no card number or security code in the engine's tables, logs or spans", () =>
      Effect.gen(function*() {
        const { lines, spans, vault } = yield* World
        const { keys, merchant, shops } = yield* createMerchant()
        const bearer = keys.sandbox.secretKey
        // The sandbox shop is routed to Pagar.me's test account only.
        for (const [providerId, priority, enabled] of [["pagarme", 1, true], ["sandbox", 2, false]] as const) {
          const routed = yield* call("PUT", `/admin/v1/shops/${shops[0]!.id}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })
          assert.strictEqual(routed.status, 200, JSON.stringify(routed.body))
        }
        const session = yield* call("POST", "/api/v1/card-sessions", { bearer, body: {} })
        assert.include([200, 201], session.status, JSON.stringify(session.body))
        const { token: sessionToken, vaultUrl } = session.body as { token: string; vaultUrl: string }
        assert.strictEqual(vaultUrl, vault.url)
        // The merchant's server tokenizes at the vault: the engine is not in this exchange.
        const tokenize = (number: string, securityCode: string) =>
          Effect.promise(async () => {
            const answer = await fetch(`${vaultUrl}/v1/cards`, {
              method: "POST",
              headers: { authorization: `Bearer ${sessionToken}`, "content-type": "application/json" },
              body: JSON.stringify({ number, expMonth: 12, expYear: 2031, holderName: "Ana Souza", securityCode })
            })
            const body = await answer.json() as { token: string; brand: string; last4: string }
            assert.strictEqual(answer.status, 201, JSON.stringify(body))
            return body
          })
        const good = yield* tokenize(approved, codes[0]!)
        const bad = yield* tokenize(declined, codes[1]!)
        assert.strictEqual(good.brand, "visa")

        const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        const paid = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 30, paymentMethodId: "1004", ...buyer, card: { token: good.token } } })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        const paidBody = paid.body as { transactionId: string; status: string; card: { last4: string; brand: string } }
        assert.deepInclude(paidBody.card, { brand: "visa", last4: "0010" })
        const refusal = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 30, paymentMethodId: "1004", ...buyer, card: { token: bad.token } } })
        assert.include([201, 402, 422], refusal.status, JSON.stringify(refusal.body))
        yield* drainWork
        const read = yield* call("GET", `/api/v1/payments/${paidBody.transactionId}`, { bearer })
        assert.strictEqual((read.body as { status: string }).status, "completed", JSON.stringify(read.body))
        const refund = yield* call("POST", `/api/v1/payments/${paidBody.transactionId}/refund`, { bearer, body: { amount: 5 }, headers: { "idempotency-key": "card-refund-1" } })
        assert.include([200, 201], refund.status, JSON.stringify(refund.body))
        yield* drainWork

        // The engine's store, every row of every table.
        const sql = yield* SqlClient.SqlClient
        const tables = yield* sql<{ readonly name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`
        assert.isAbove(tables.length, 10)
        const rowLeaks: Array<string> = []
        for (const { name } of tables) {
          const rows = yield* sql.unsafe<{ readonly row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`)
          for (const { row } of rows) for (const leak of leaks(row)) rowLeaks.push(`${name}: ${leak}`)
        }
        assert.deepStrictEqual(rowLeaks, [], "card data in the engine's tables")
        const stored = JSON.stringify(yield* sql.unsafe(`SELECT row_to_json(t)::text AS row FROM "payments" t`))
        assert.include(stored, "0010", "the payment row keeps the last four (the scan reads real rows)")
        // The metrics a scrape reads: card attempts are counted, and no card data is a label.
        const metrics = yield* call("GET", "/metrics", { bearer: adminToken })
        assert.strictEqual(metrics.status, 200)
        const scraped = typeof metrics.body === "string" ? metrics.body : JSON.stringify(metrics.body)
        assert.include(scraped, "card_attempts_total", "the scrape has the card attempts (it reads a real exposition)")
        assert.deepStrictEqual(leaks(scraped), [], "card data in the metrics")
        assert.notInclude(scraped, "400000", "no BIN in a metric label")
        // Logs and spans.
        assert.deepStrictEqual(lines.filter((line) => leaks(line).length > 0), [], "card data in a log line")
        assert.isAbove(spans.length, 0)
        assert.deepStrictEqual(spans.filter((span) => leaks(JSON.stringify(span)).length > 0).map((s) => s.name), [], "card data in a span")
        // The vault recorded each use of the number.
        const audit = yield* Effect.promise(async () => (await fetch(`${vault.url}/v1/audit?token=${good.token}`, { headers: { authorization: `Bearer ${vault.engineKey}` } })).json())
        assert.include(JSON.stringify(audit), simHostOf(JSON.stringify(audit)) ?? "", "the audit names the provider host")
        assert.isAbove((JSON.stringify(audit).match(/forward/g) ?? []).length, 0, JSON.stringify(audit))
        void merchant
      }))
  })
})

const simHostOf = (text: string) => /127\.0\.0\.1:\d+/.exec(text)?.[0]
