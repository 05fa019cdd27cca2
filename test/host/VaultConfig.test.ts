/** The card vault's three variables as the host reads them: all three or none, a production host refusing a partial set. */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inspect } from "node:util"
import { HostConfig } from "../../host/Config.ts"

const withEnv = (env: Record<string, string>) => Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))
const sessionSecret = "vault-session-secret-0123456789abcdef"
const failure = (env: Record<string, string>) => HostConfig.pipe(withEnv(env), Effect.flip, Effect.map((e) => String(e.message)))

describe("card vault configuration", () => {
  it.effect("none set: no vault; all three (a secret from its _FILE): the vault, its URL without the trailing slash, secrets Redacted", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone((yield* HostConfig.pipe(withEnv({}))).vault))
      const dir = mkdtempSync(join(tmpdir(), "vault-"))
      writeFileSync(join(dir, "key"), "engine-key-from-file\n")
      const config = yield* HostConfig.pipe(withEnv({
        VAULT_URL: "https://vault.example.com/",
        VAULT_ENGINE_KEY_FILE: join(dir, "key"),
        VAULT_SESSION_SECRET: sessionSecret
      }))
      rmSync(dir, { recursive: true, force: true })
      const vault = Option.getOrThrow(config.vault)
      assert.strictEqual(vault.url, "https://vault.example.com")
      assert.strictEqual(Redacted.value(vault.engineKey), "engine-key-from-file")
      assert.strictEqual(Redacted.value(vault.sessionSecret), sessionSecret)
      assert.notInclude(inspect(config, { depth: 10 }) + JSON.stringify(config.vault), "engine-key-from-file")
    }))

  it.effect("a production host (PostgreSQL, or a production connector) refuses a partial set, naming what is missing and never a value", () =>
    Effect.gen(function*() {
      const message = yield* failure({ DATABASE_URL: "postgres://db/x", VAULT_URL: "https://vault.example.com", VAULT_ENGINE_KEY: "the-engine-key" })
      assert.include(message, "VAULT_SESSION_SECRET is not set")
      assert.include(message, "DATABASE_URL is set")
      assert.notInclude(message, "the-engine-key")
      const onlySecret = yield* failure({ DATABASE_URL: "postgres://db/x", VAULT_SESSION_SECRET: sessionSecret })
      assert.include(onlySecret, "VAULT_URL, VAULT_ENGINE_KEY are not set")
      assert.include(yield* failure({ DATABASE_URL: "postgres://db/x", VAULT_URL: "vault.example.com", VAULT_ENGINE_KEY: "k", VAULT_SESSION_SECRET: sessionSecret }), "VAULT_URL must be an absolute http(s) URL")
      assert.include(yield* failure({ DATABASE_URL: "postgres://db/x", VAULT_URL: "https://v.example.com", VAULT_ENGINE_KEY: "k", VAULT_SESSION_SECRET: "short" }), "VAULT_SESSION_SECRET is too weak")
    }))

  it.effect("a development host with a partial set starts without a vault", () =>
    Effect.gen(function*() {
      const config = yield* HostConfig.pipe(withEnv({ VAULT_URL: "https://vault.example.com" }))
      assert.isTrue(Option.isNone(config.vault))
    }))
})
