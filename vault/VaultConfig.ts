/**
 * The vault's configuration, from the environment for `vault/main.ts` or built by an embedding.
 * Secrets are `Redacted`; no error message repeats one.
 */
import { Redacted } from "effect"
import { parseHosts } from "./forward/Allowlist.ts"
import { type Kek, keksFromEnv } from "./keys/LocalKeyManagement.ts"
import type { DatabaseConfig } from "./store/Database.ts"

export interface VaultConfig {
  readonly port: number
  readonly host: string
  readonly database: DatabaseConfig
  readonly keks: ReadonlyArray<Kek>
  readonly fingerprintSecret: Redacted.Redacted<string>
  /** The engine's bearer credential for GET /v1/cards, POST /v1/forward, GET /v1/audit. */
  readonly engineKey: Redacted.Redacted<string>
  /** HS256 key of the tokenize session JWTs the engine mints. */
  readonly sessionSecret: Redacted.Redacted<string>
  readonly forwardHosts: ReadonlyArray<string>
  readonly allowHttpLoopback: boolean
  readonly forwardTimeoutMs: number
  readonly securityCodeTtlMs: number
}

const required = (env: Record<string, string | undefined>, name: string, minLength: number) => {
  const value = env[name]
  if (value === undefined || value.length < minLength) throw new Error(`the vault needs ${name} (at least ${minLength} characters)`)
  return Redacted.make(value)
}

const int = (env: Record<string, string | undefined>, name: string, fallback: number) => {
  const value = env[name]
  if (value === undefined || value === "") return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number`)
  return n
}

export const fromEnv = (env: Record<string, string | undefined> = process.env): VaultConfig => {
  const url = env["DATABASE_URL"]
  return {
    port: int(env, "PORT", 4100),
    host: env["HOST"] ?? "127.0.0.1",
    database: url !== undefined && url !== ""
      ? { _tag: "postgres", url: Redacted.make(url), schema: env["VAULT_DB_SCHEMA"] ?? "vault" }
      : { _tag: "pglite", ...(env["DATA_DIR"] ? { dataDir: env["DATA_DIR"] } : {}) },
    keks: keksFromEnv(env),
    fingerprintSecret: required(env, "VAULT_FINGERPRINT_SECRET", 32),
    engineKey: required(env, "VAULT_ENGINE_KEY", 32),
    sessionSecret: required(env, "VAULT_SESSION_SECRET", 32),
    forwardHosts: parseHosts(env["VAULT_FORWARD_HOSTS"]),
    allowHttpLoopback: env["VAULT_ALLOW_HTTP_LOOPBACK"] === "true",
    forwardTimeoutMs: int(env, "VAULT_FORWARD_TIMEOUT_MS", 30_000),
    securityCodeTtlMs: int(env, "VAULT_SECURITY_CODE_TTL_MS", 10 * 60_000)
  }
}
