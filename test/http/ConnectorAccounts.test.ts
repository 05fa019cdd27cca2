/**
 * Connector accounts through the API, against two replicas of the host on one store (PostgreSQL
 * when `DATABASE_URL` is set, else embedded PGlite shared in process): two merchants onboard their
 * own Mercado Pago accounts (two simulators, each with its own credentials), are paid through
 * them, and each account's callbacks are verified with its own secret; credentials are checked
 * when saved; a change made on one replica reaches the other without a restart; a disabled
 * account takes no new payment while the one in flight finishes on it; nothing answers a secret.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { hostLayer } from "../../host/Host.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import { adminToken, testConfig } from "../support/Host.ts"
import { contractViolation } from "../support/Contract.ts"

const databaseUrl = process.env["DATABASE_URL"]

interface Reply {
  readonly status: number
  readonly body: any
}

const callAt = (base: string) => (method: string, path: string, options: { readonly bearer?: string; readonly body?: unknown; readonly query?: string; readonly headers?: Record<string, string>; readonly rawBody?: string } = {}) =>
  Effect.promise(async (): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.bearer !== undefined) headers["authorization"] = `Bearer ${options.bearer}`
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    if (body !== undefined) headers["content-type"] ??= "application/json"
    const response = await fetch(`${base}${path}${options.query ?? ""}`, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await response.text()
    const parsed = text === "" ? undefined : JSON.parse(text)
    const violation = contractViolation(method, path, response.status, parsed)
    if (violation !== undefined) throw new Error(`Contract: ${method} ${path}: ${violation}`)
    return { status: response.status, body: parsed }
  })

/** Polls `probe` (every 25 ms, at most 4 s) until `done`: what another replica picks up on its own. */
const until = <A>(probe: Effect.Effect<A>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 160; i++) {
      const value = yield* probe
      if (done(value)) return value
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 25)))
    }
    return yield* probe
  })

const pix = { amount: 50, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }

describe("connector accounts", () => {
  it.live("two merchants' own accounts at one provider, two replicas, credentials checked and sealed", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const simA = yield* MercadoPagoSimulator.start({ accessToken: "TEST-1111-merchant-a", webhookSecret: "mp-secret-of-a" }).pipe(Scope.provide(scope))
      const simB = yield* MercadoPagoSimulator.start({ accessToken: "TEST-2222-merchant-b", webhookSecret: "mp-secret-of-b" }).pipe(Scope.provide(scope))
      const schema = `t_accounts_${process.pid}_${Date.now().toString(36)}`
      // Two replicas: on PostgreSQL each with its own pool on one schema; on PGlite one database shared in process.
      const shared = databaseUrl === undefined ? yield* Layer.build(SqlStore.pglite(undefined)).pipe(Scope.provide(scope)) : undefined
      const replica = () =>
        ManagedRuntime.make(hostLayer(
          testConfig({
            adminToken: Option.some(Redacted.make(adminToken)),
            merchantConnectorAccounts: Option.some({ baseUrlOrigins: [new URL(simA.baseUrl).origin, new URL(simB.baseUrl).origin] })
          }),
          shared === undefined ? SqlStore.postgres(databaseUrl!, { schema, maxConnections: 3 }) : Layer.succeedContext(shared)
        ))
      const one = replica()
      const two = replica()
      const baseOf = (runtime: typeof one) =>
        runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => `http://127.0.0.1:${(server.address as { port: number }).port}`))
      try {
        const base1 = yield* Effect.promise(() => baseOf(one))
        const base2 = yield* Effect.promise(() => baseOf(two))
        const at1 = callAt(base1)
        const at2 = callAt(base2)
        const merchant = (name: string) =>
          Effect.map(at1("POST", "/admin/v1/merchants", { bearer: adminToken, body: { name, email: `${name.toLowerCase()}@example.com` } }), (r) => {
            assert.strictEqual(r.status, 201, JSON.stringify(r.body))
            return r.body as { merchant: { id: string }; shops: Array<{ id: string }>; keys: { sandbox: { secretKey: string } } }
          })
        const a = yield* merchant("Alfa")
        const b = yield* merchant("Bravo")
        const keyA = a.keys.sandbox.secretKey
        const keyB = b.keys.sandbox.secretKey

        // The kinds, with what each needs.
        const kinds = yield* at1("GET", "/api/v1/connector-kinds", { bearer: keyA })
        assert.deepInclude(kinds.body.data, { kind: "mercadopago", secrets: ["ACCESS_TOKEN", "WEBHOOK_SECRET"], settings: ["ACCOUNT_CURRENCY"], requiredSettings: [], baseUrlRequired: false })

        // Wrong credentials: the provider's refusal, nothing saved.
        const wrong = yield* at1("POST", "/api/v1/connector-accounts", {
          bearer: keyA,
          body: { kind: "mercadopago", environment: "sandbox", name: "MP Alfa", baseUrl: simA.baseUrl, secrets: { ACCESS_TOKEN: "TEST-0000-wrong", WEBHOOK_SECRET: "x" } }
        })
        assert.strictEqual(wrong.status, 422, JSON.stringify(wrong.body))
        assert.strictEqual(wrong.body.error.code, "connector_credentials_refused")
        assert.strictEqual(wrong.body.error.details.code, "invalid_credentials")
        assert.notInclude(JSON.stringify(wrong.body), "TEST-0000-wrong")
        assert.deepStrictEqual((yield* at1("GET", "/api/v1/connector-accounts", { bearer: keyA })).body.data, [])

        // Bad fields: every problem named, nothing called.
        const bad = yield* at1("POST", "/api/v1/connector-accounts", {
          bearer: keyA,
          body: { kind: "mercadopago", environment: "production", name: "MP", baseUrl: "http://169.254.169.254/latest", shopIds: [b.shops[0]!.id], secrets: { ACCESS_TOKEN: "t", LOGIN: "l" } }
        })
        assert.strictEqual(bad.status, 400, JSON.stringify(bad.body))
        assert.sameMembers(bad.body.error.details.issues.map((i: { path: string }) => i.path), ["environment", "shopIds[0]", "secrets.WEBHOOK_SECRET", "secrets.LOGIN", "baseUrl"])

        // Merchant A onboards its own account; the operator onboards merchant B's.
        const createdA = yield* at1("POST", "/api/v1/connector-accounts", {
          bearer: keyA,
          body: { kind: "mercadopago", environment: "sandbox", name: "MP Alfa", baseUrl: simA.baseUrl, secrets: { ACCESS_TOKEN: "TEST-1111-merchant-a", WEBHOOK_SECRET: "mp-secret-of-a" } }
        })
        assert.strictEqual(createdA.status, 201, JSON.stringify(createdA.body))
        const accountA = createdA.body
        assert.match(accountA.id, /^ca_[0-9a-z]{26}$/)
        assert.deepStrictEqual(accountA.shopIds, [a.shops[0]!.id])
        assert.strictEqual(accountA.merchantId, a.merchant.id)
        assert.deepStrictEqual(Object.keys(accountA.secrets).sort(), ["ACCESS_TOKEN", "WEBHOOK_SECRET"])
        assert.match(accountA.secrets.ACCESS_TOKEN.fingerprint, /^[0-9a-f]{16}$/)
        assert.strictEqual(accountA.lastCheck.outcome, "passed")
        assert.strictEqual(accountA.callbackUrl, `http://api.test.local/api/v1/providers/${accountA.id}/callbacks`)
        const createdB = yield* at1("POST", "/admin/v1/connector-accounts", {
          bearer: adminToken,
          body: { kind: "mercadopago", environment: "sandbox", name: "MP Bravo", merchantId: b.merchant.id, baseUrl: simB.baseUrl, secrets: { ACCESS_TOKEN: "TEST-2222-merchant-b", WEBHOOK_SECRET: "mp-secret-of-b" } }
        })
        assert.strictEqual(createdB.status, 201, JSON.stringify(createdB.body))
        const accountB = createdB.body
        for (const reply of [createdA, createdB, yield* at1("GET", "/admin/v1/connector-accounts", { bearer: adminToken })]) {
          for (const secret of ["TEST-1111-merchant-a", "mp-secret-of-a", "TEST-2222-merchant-b", "mp-secret-of-b"]) assert.notInclude(JSON.stringify(reply.body), secret)
        }
        // A merchant sees its own accounts only; another's id is not found.
        assert.deepStrictEqual((yield* at1("GET", "/api/v1/connector-accounts", { bearer: keyB })).body.data.map((x: { id: string }) => x.id), [accountB.id])
        assert.strictEqual((yield* at1("GET", `/api/v1/connector-accounts/${accountA.id}`, { bearer: keyB })).status, 404)

        // Routes name the accounts; an account cannot be routed for another merchant's shop.
        const route = (shopId: string, providerId: string, priority: number, enabled = true) =>
          at1("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })
        const crossed = yield* route(b.shops[0]!.id, accountA.id, 1)
        assert.strictEqual(crossed.status, 400, JSON.stringify(crossed.body))
        assert.strictEqual((yield* route(a.shops[0]!.id, accountA.id, 1)).status, 200)
        assert.strictEqual((yield* route(a.shops[0]!.id, "sandbox", 9, false)).status, 200)
        assert.strictEqual((yield* route(b.shops[0]!.id, accountB.id, 1)).status, 200)
        assert.strictEqual((yield* route(b.shops[0]!.id, "sandbox", 9, false)).status, 200)
        // Nor can a merchant's routing rule name another's account.
        const rule = yield* at1("PUT", `/admin/v1/shops/${b.shops[0]!.id}/routing`, {
          bearer: adminToken,
          body: { environment: "sandbox", strategy: "static", rules: [{ id: "r", when: {}, providers: [accountA.id] }] }
        })
        assert.strictEqual(rule.status, 400, JSON.stringify(rule.body))
        assert.deepStrictEqual(rule.body.error.details.issues.map((i: { path: string }) => i.path), ["rules[0].providers[0]"])

        // Each merchant is paid through its own account, on either replica.
        const payA = yield* at2("POST", "/api/v1/payments", { bearer: keyA, body: pix })
        assert.strictEqual(payA.status, 201, JSON.stringify(payA.body))
        const payB = yield* at1("POST", "/api/v1/payments", { bearer: keyB, body: pix })
        assert.strictEqual(payB.status, 201, JSON.stringify(payB.body))
        const chargeA = [...simA.charges.values()].find((c) => c.reference === payA.body.transactionId)
        const chargeB = [...simB.charges.values()].find((c) => c.reference === payB.body.transactionId)
        assert.isDefined(chargeA, "merchant A's charge is at A's Mercado Pago account")
        assert.isDefined(chargeB, "merchant B's charge is at B's Mercado Pago account")
        assert.strictEqual([...simA.charges.values()].length, 1)
        assert.strictEqual([...simB.charges.values()].length, 1)

        // Each account's callbacks carry its id and are verified with its own secret.
        const notify = (account: string, paymentId: string, secret: string) => {
          const raw = simA.notificationBody(paymentId)
          return at2("POST", `/api/v1/providers/${account}/callbacks`, {
            query: `?data.id=${paymentId}&type=payment`,
            rawBody: raw,
            headers: MercadoPagoSimulator.headersFor(secret, raw, Math.floor(Date.now() / 1000))
          })
        }
        yield* simA.setStatus(chargeA!.id, "approved", "accredited")
        assert.strictEqual((yield* notify(accountA.id, chargeA!.id, "mp-secret-of-b")).status, 401, "B's secret does not sign A's callbacks")
        assert.strictEqual((yield* notify(accountA.id, chargeA!.id, "mp-secret-of-a")).status, 200)
        const paidA = yield* at2("GET", `/api/v1/payments/${payA.body.transactionId}`, { bearer: keyA })
        assert.strictEqual(paidA.body.status, "completed")

        // A change on one replica reaches the other without a restart: A's account disabled on
        // replica 1 takes no new payment on replica 2, and the payment in flight on it finishes there.
        const inFlight = yield* at2("POST", "/api/v1/payments", { bearer: keyA, body: pix })
        assert.strictEqual(inFlight.status, 201)
        const disabled = yield* at1("PATCH", `/api/v1/connector-accounts/${accountA.id}`, { bearer: keyA, body: { status: "disabled", version: 1 } })
        assert.strictEqual(disabled.status, 200, JSON.stringify(disabled.body))
        assert.strictEqual(disabled.body.version, 2)
        const stale = yield* at1("PATCH", `/api/v1/connector-accounts/${accountA.id}`, { bearer: keyA, body: { name: "x", version: 1 } })
        assert.strictEqual(stale.status, 409)
        const refused = yield* until(at2("POST", "/api/v1/payments", { bearer: keyA, body: pix }), (r) => r.status !== 201)
        assert.strictEqual(refused.status, 422, JSON.stringify(refused.body))
        const flying = [...simA.charges.values()].find((c) => c.reference === inFlight.body.transactionId)!
        yield* simA.setStatus(flying.id, "approved", "accredited")
        assert.strictEqual((yield* notify(accountA.id, flying.id, "mp-secret-of-a")).status, 200)
        assert.strictEqual((yield* at2("GET", `/api/v1/payments/${inFlight.body.transactionId}`, { bearer: keyA })).body.status, "completed")

        // New credentials, checked, reach replica 2: A's account moved to the other simulator's keys.
        const moved = yield* at1("PATCH", `/api/v1/connector-accounts/${accountA.id}`, {
          bearer: keyA,
          body: { status: "active", baseUrl: simB.baseUrl, secrets: { ACCESS_TOKEN: "TEST-2222-merchant-b", WEBHOOK_SECRET: "mp-secret-of-b" } }
        })
        assert.strictEqual(moved.status, 200, JSON.stringify(moved.body))
        assert.notStrictEqual(moved.body.secrets.ACCESS_TOKEN.fingerprint, accountA.secrets.ACCESS_TOKEN.fingerprint)
        assert.strictEqual(moved.body.secrets.ACCESS_TOKEN.fingerprint, accountB.secrets.ACCESS_TOKEN.fingerprint, "equal values, equal fingerprints")
        const after = yield* until(at2("POST", "/api/v1/payments", { bearer: keyA, body: pix }), (r) => r.status === 201)
        assert.strictEqual(after.status, 201, JSON.stringify(after.body))
        assert.isDefined([...simB.charges.values()].find((c) => c.reference === after.body.transactionId), "the new credentials' account took it")

        // Deleting: refused while a route names it or a payment on it is open.
        const inUse = yield* at1("DELETE", `/api/v1/connector-accounts/${accountA.id}`, { bearer: keyA })
        assert.strictEqual(inUse.status, 409, JSON.stringify(inUse.body))
        // A's routes: one; its open payments: the last one, and any replica 2 took before the disable reached it.
        assert.strictEqual(inUse.body.error.details.routes, 1)
        assert.isAtLeast(inUse.body.error.details.openPayments, 1)

        // Who did what: the audit log, secrets by fingerprint only.
        const log = yield* at1("GET", "/api/v1/me/audit-log", { bearer: keyA, query: `?objectId=${accountA.id}` })
        assert.deepStrictEqual(log.body.data.map((e: { operation: string }) => e.operation), ["connectorAccounts.update", "connectorAccounts.update", "connectorAccounts.create"])
        assert.deepStrictEqual(log.body.data[1].changes, { status: { from: "active", to: "disabled" } })
        for (const secret of ["TEST-1111-merchant-a", "mp-secret-of-a", "TEST-2222-merchant-b", "mp-secret-of-b"]) assert.notInclude(JSON.stringify(log.body), secret)
      } finally {
        yield* Effect.promise(() => Promise.all([one.dispose(), two.dispose()]))
        if (databaseUrl !== undefined) {
          // Once both replicas are gone (their loops would read a dropped schema), on a connection of its own.
          yield* SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).pipe(
            Effect.provide(PgClient.layer({ url: Redacted.make(databaseUrl) })),
            Effect.ignore
          )
        }
        yield* Scope.close(scope, Effect.void as never)
      }
    }), 120_000)

  it.live("merchants manage no accounts where the host keeps them to its operator", () =>
    Effect.gen(function*() {
      const runtime = ManagedRuntime.make(hostLayer(testConfig(), SqlStore.pglite(undefined)))
      try {
        const base = yield* Effect.promise(() => runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => `http://127.0.0.1:${(server.address as { port: number }).port}`)))
        const at = callAt(base)
        const m = yield* at("POST", "/admin/v1/merchants", { bearer: adminToken, body: { name: "Charlie", email: "c@example.com" } })
        const reply = yield* at("GET", "/api/v1/connector-accounts", { bearer: m.body.keys.sandbox.secretKey })
        assert.strictEqual(reply.status, 403)
        assert.strictEqual(reply.body.error.code, "connector_accounts_not_allowed")
      } finally {
        yield* Effect.promise(() => runtime.dispose())
      }
    }), 60_000)
})
