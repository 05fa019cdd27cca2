/**
 * The card vault, a service of its own (it holds card numbers; the engine never does). Run it with
 * `vault/main.ts`, or in-process with `Vault.serve(config)` for development: an embedding that
 * runs the vault inside the engine's process puts card numbers in that process, which defeats the
 * point of the vault, so do not do that in production. `Vault.startForTest` starts one on a
 * loopback port for tests.
 */
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { HttpServer } from "effect/http"
import { SignJWT } from "jose"
import { Cards } from "./cards/Cards.ts"
import { serverLayer } from "./Server.ts"
import { fromEnv, type VaultConfig } from "./VaultConfig.ts"

export type { VaultConfig } from "./VaultConfig.ts"
export { Cards } from "./cards/Cards.ts"
export { KeyManagement } from "./keys/KeyManagement.ts"

/** Mints a tokenize session as the engine does (HS256 under `VAULT_SESSION_SECRET`). */
export const mintSession = (
  secret: Redacted.Redacted<string>,
  claims: { readonly merchantId: string; readonly returnUrl?: string; readonly transactionId?: string; readonly ttlSeconds?: number }
) =>
  new SignJWT({
    scope: "tokenize",
    ...(claims.returnUrl === undefined ? {} : { returnUrl: claims.returnUrl }),
    ...(claims.transactionId === undefined ? {} : { transactionId: claims.transactionId })
  })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.merchantId)
    .setAudience("vault")
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (claims.ttlSeconds ?? 600))
    .sign(new TextEncoder().encode(Redacted.value(secret)))

export interface RunningVault {
  readonly url: string
  readonly engineKey: string
  readonly session: (claims: Parameters<typeof mintSession>[1]) => Promise<string>
  readonly rotateKeys: Cards["Service"]["rotateKeys"]
}

/** The running vault's address and what a test needs to call it; the server stops with the scope. */
export const startForTest = (config: VaultConfig): Effect.Effect<RunningVault, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const context = yield* Layer.build(serverLayer({ ...config, host: "127.0.0.1" }))
    const server = Context.get(context, HttpServer.HttpServer)
    const address = server.address
    if (address._tag === "UnixPathAddress") return yield* Effect.die("the vault did not bind a TCP port")
    const cards = Context.get(context, Cards)
    return {
      url: `http://127.0.0.1:${address.port}`,
      engineKey: Redacted.value(config.engineKey),
      session: (claims) => mintSession(config.sessionSecret, claims),
      rotateKeys: cards.rotateKeys
    }
  })

export const Vault = {
  /** The vault serving on `config.host:config.port` until the layer is released. */
  serve: serverLayer,
  fromEnv,
  startForTest,
  mintSession
}
