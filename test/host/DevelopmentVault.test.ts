/**
 * `VAULT_DEV=inprocess`: the development host runs a card vault in its own process, so a card
 * can be tokenized and charged with nothing but `npm start`; a production host refuses it, and so
 * does a host given a real vault too.
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HostConfig } from "../../host/Config.ts"
import { freePort, killHard, startChildHost } from "../support/ChildHost.ts"

const failure = (env: Record<string, string>) =>
  HostConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)), Effect.flip, Effect.map((e) => String(e.message)))

describe("the development card vault", () => {
  it.effect("is refused on a production host, beside VAULT_URL, and for any value but inprocess", () =>
    Effect.gen(function*() {
      assert.include(yield* failure({ VAULT_DEV: "inprocess", DATABASE_URL: "postgres://db/x" }), "for development only (DATABASE_URL is set)")
      assert.include(
        yield* failure({ VAULT_DEV: "inprocess", VAULT_URL: "https://vault.example.com", VAULT_ENGINE_KEY: "k", VAULT_SESSION_SECRET: "vault-session-secret-0123456789abcdef" }),
        "name two vaults"
      )
      assert.include(yield* failure({ VAULT_DEV: "yes" }), "VAULT_DEV")
    }))

  it.live("VAULT_DEV=inprocess: a card session, a token from the vault it started, and a sandbox card payment that shows the card", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const vaultPort = yield* Effect.promise(freePort)
      const dataDir = mkdtempSync(join(tmpdir(), "dev-vault-"))
      const host = yield* startChildHost(port, { DATABASE_URL: "", DATA_DIR: dataDir, VAULT_DEV: "inprocess", VAULT_DEV_PORT: String(vaultPort), LOG_LEVEL: "Warn" })
      yield* Effect.addFinalizer(() => Effect.andThen(killHard(host), Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))))
      const output = host.output()
      assert.include(output, `a development card vault serves on http://127.0.0.1:${vaultPort}`)
      const key = /sk_test_[A-Za-z0-9_]+/.exec(output)?.[0]
      assert.isDefined(key)
      const json = (url: string, bearer: string, body: unknown, headers: Record<string, string> = {}) =>
        Effect.promise(() =>
          fetch(url, { method: "POST", headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
            .then(async (r) => ({ status: r.status, body: await r.json() as any }))
        )
      const session = yield* json(`${host.url}/api/v1/card-sessions`, key!, {})
      assert.strictEqual(session.body.vaultUrl, `http://127.0.0.1:${vaultPort}`)
      const card = yield* json(`${session.body.vaultUrl}/v1/cards`, session.body.token, {
        number: "4111111111111111", expMonth: 12, expYear: 2099, holderName: "ANA SOUZA", securityCode: "123"
      })
      assert.strictEqual(card.status, 201)
      const payment = yield* json(`${host.url}/api/v1/payments`, key!, {
        amount: 10, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725", card: { token: card.body.token }
      }, { "idempotency-key": "dev-vault-1" })
      assert.strictEqual(payment.status, 201)
      assert.deepInclude(payment.body.card, { brand: "visa", last4: "1111" })
    }).pipe(Effect.scoped), { timeout: 90_000 })
})
