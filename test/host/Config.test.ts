/** The host's configuration parsed from real environment variables, as `npm start` reads them. */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inspect } from "node:util"
import { HostConfig } from "../../host/Config.ts"

const withEnv = (env: Record<string, string>) => Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))

describe("host configuration", () => {
  it.effect("CONNECTORS as docs/operating.md documents it: secrets from a variable or a file, kept Redacted", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "connectors-"))
      const secretFile = join(dir, "callback_secret")
      writeFileSync(secretFile, "whsec-from-file\n")
      const config = yield* HostConfig.pipe(withEnv({
        CONNECTORS: "ref-a=reference-http, dlocal",
        REF_A_ENVIRONMENT: "production",
        REF_A_BASE_URL: "http://127.0.0.1:9999",
        REF_A_API_KEY: "key-a",
        REF_A_CALLBACK_SECRET_FILE: secretFile,
        REF_A_TIMEOUT_MS: "5000",
        DLOCAL_ENVIRONMENT: "sandbox",
        DLOCAL_LOGIN: "login-1",
        DLOCAL_TRANS_KEY: "trans-1",
        DLOCAL_SECRET_KEY: "secret-1",
        DLOCAL_CLIENT_ID: "client-1",
        DLOCAL_CLIENT_SECRET: "client-secret-1",
        DLOCAL_PAYOUT_PURPOSE: "PAYROLL",
        SANDBOX_CALLBACK_SECRET: "sandbox-secret-of-this-host",
        DEPOSIT_CALLBACK_SECRET: "deposit-secret-of-this-host"
      }))
      rmSync(dir, { recursive: true, force: true })
      const [reference, dlocal] = config.connectors
      assert.strictEqual(reference?.connector.kind, "reference-http")
      assert.deepStrictEqual([reference?.settings.id, reference?.settings.environment, reference?.settings.timeoutMs], ["ref-a", "production", 5000])
      assert.isTrue(Redacted.isRedacted(reference?.settings.secrets["API_KEY"]))
      assert.strictEqual(Redacted.value(reference!.settings.secrets["API_KEY"]!), "key-a")
      assert.strictEqual(Redacted.value(reference!.settings.secrets["CALLBACK_SECRET"]!), "whsec-from-file")
      assert.deepStrictEqual([dlocal?.settings.id, dlocal?.settings.environment, dlocal?.settings.baseUrl], ["dlocal", "sandbox", undefined])
      assert.deepStrictEqual(dlocal?.settings.values, { PAYOUT_PURPOSE: "PAYROLL" })
      const printed = JSON.stringify(config.connectors) + inspect(config.connectors, { depth: 10 })
      assert.strictEqual(Redacted.value(dlocal!.settings.secrets["CLIENT_SECRET"]!), "client-secret-1")
      for (const secret of ["key-a", "whsec-from-file", "login-1", "trans-1", "secret-1", "client-1", "client-secret-1"]) assert.notInclude(printed, secret)
    }))

  it.effect("BASE_URL and CHECKOUT_URL are absolute http(s) URLs, or the host does not start, naming the variable", () =>
    Effect.gen(function*() {
      const failure = (env: Record<string, string>) => HostConfig.pipe(withEnv(env), Effect.flip, Effect.map((e) => String(e.message)))
      // vitest's own BASE_URL=/ once reached a child host: every provider callback URL then threw (500).
      for (const bad of ["/", "localhost:8080", "ftp://host.example", "https://user:pw@host.example", "https://host.example/?a=1", "javascript:alert(1)"]) {
        assert.include(yield* failure({ BASE_URL: bad }), "BASE_URL must be an absolute http(s) URL", bad)
        assert.include(yield* failure({ CHECKOUT_URL: bad }), "CHECKOUT_URL must be an absolute http(s) URL", bad)
      }
      const config = yield* HostConfig.pipe(withEnv({ BASE_URL: "https://api.example.com/api/v1/", CHECKOUT_URL: "https://pay.example.com/" }))
      assert.deepStrictEqual([config.publicUrl, config.checkoutUrl], ["https://api.example.com", "https://pay.example.com"])
    }))

  it.effect("a host that looks like production (ADMIN_TOKEN, or a production connector) refuses the public development callback secrets, naming the variables", () =>
    Effect.gen(function*() {
      const failure = (env: Record<string, string>) => HostConfig.pipe(withEnv(env), Effect.flip, Effect.map((e) => String(e.message)))
      const both = yield* failure({ ADMIN_TOKEN: "a-long-operator-token" })
      assert.include(both, "SANDBOX_CALLBACK_SECRET")
      assert.include(both, "DEPOSIT_CALLBACK_SECRET")
      assert.include(both, "ADMIN_TOKEN is set")
      assert.notInclude(both, "a-long-operator-token")
      // The built-in value set explicitly is the same public value.
      const deposit = yield* failure({ ADMIN_TOKEN: "t", SANDBOX_CALLBACK_SECRET: "mine", DEPOSIT_CALLBACK_SECRET: "deposit-callback-secret" })
      assert.include(deposit, "DEPOSIT_CALLBACK_SECRET")
      assert.notInclude(deposit, "SANDBOX_CALLBACK_SECRET")
      const connector = yield* failure({
        CONNECTORS: "ref=reference-http",
        REF_ENVIRONMENT: "production",
        REF_BASE_URL: "https://ref.example",
        REF_API_KEY: "k",
        REF_CALLBACK_SECRET: "s"
      })
      assert.include(connector, "connector 'ref' is a production one")
      // A development host (neither) starts with them; one that set its own starts too.
      yield* HostConfig.pipe(withEnv({}))
      yield* HostConfig.pipe(withEnv({ CONNECTORS: "ref=reference-http", REF_ENVIRONMENT: "sandbox", REF_BASE_URL: "http://127.0.0.1:9", REF_API_KEY: "k", REF_CALLBACK_SECRET: "s" }))
      yield* HostConfig.pipe(withEnv({ ADMIN_TOKEN: "t", SANDBOX_CALLBACK_SECRET: "s1", DEPOSIT_CALLBACK_SECRET: "s2" }))
    }))

  it.effect("a missing secret, an unknown kind or a missing environment stops the host at start, naming the variable only", () =>
    Effect.gen(function*() {
      const failure = (env: Record<string, string>) =>
        HostConfig.pipe(withEnv(env), Effect.flip, Effect.map((e) => String(e.message)))
      const missing = yield* failure({ CONNECTORS: "dlocal", DLOCAL_ENVIRONMENT: "production", DLOCAL_LOGIN: "login-1", DLOCAL_TRANS_KEY: "trans-1" })
      assert.include(missing, "DLOCAL_SECRET_KEY")
      assert.notInclude(missing, "trans-1")
      assert.include(yield* failure({ CONNECTORS: "acme" }), "unknown connector kind 'acme'")
      assert.include(yield* failure({ CONNECTORS: "ref=reference-http", REF_ENVIRONMENT: "sandbox", REF_API_KEY: "k", REF_CALLBACK_SECRET: "s" }), "REF_BASE_URL")
      const noEnvironment = yield* HostConfig.pipe(withEnv({ CONNECTORS: "dlocal", DLOCAL_LOGIN: "l", DLOCAL_TRANS_KEY: "t", DLOCAL_SECRET_KEY: "s" }), Effect.result)
      assert.strictEqual(noEnvironment._tag, "Failure")
      const unreadable = yield* failure({ CONNECTORS: "dlocal", DLOCAL_ENVIRONMENT: "sandbox", DLOCAL_LOGIN: "l", DLOCAL_TRANS_KEY: "t", DLOCAL_SECRET_KEY_FILE: "/nonexistent/secret" })
      assert.include(unreadable, "DLOCAL_SECRET_KEY_FILE")
      // Payout credentials are all or none: without them, pay-ins only; half of them stops the host.
      const payIns = { CONNECTORS: "dlocal", DLOCAL_ENVIRONMENT: "sandbox", DLOCAL_LOGIN: "l", DLOCAL_TRANS_KEY: "t", DLOCAL_SECRET_KEY: "s" }
      assert.strictEqual((yield* HostConfig.pipe(withEnv(payIns), Effect.result))._tag, "Success")
      const half = yield* failure({ ...payIns, DLOCAL_CLIENT_ID: "client-1" })
      assert.include(half, "DLOCAL_CLIENT_SECRET")
      assert.notInclude(half, "client-1")
    }))
})
