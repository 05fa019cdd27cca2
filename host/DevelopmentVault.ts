/**
 * `VAULT_DEV=inprocess`: a card vault inside the host's own process, for trying cards on a
 * development machine (`npm start`) without running `npm run vault` beside it. It listens on
 * `127.0.0.1:VAULT_DEV_PORT` (default 4100), keeps its cards in memory, draws fresh keys at each
 * start (tokens do not survive a restart), and may forward to the configured connectors' base URL
 * hosts and to loopback simulators. Card numbers then pass through the host's process, which is
 * what the vault exists to prevent: a production host (`keysRequired`) refuses it, and the host
 * warns at start.
 */
import { Effect, Layer, Option, Redacted, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import type { HostConfig } from "./Config.ts"
import { developmentVaultPort, type VaultSettings } from "./Vault.ts"

const hostsOf = (config: HostConfig) =>
  config.connectors.flatMap((c) => {
    const base = c.settings.baseUrl
    if (base === undefined || !URL.canParse(base)) return []
    return [new URL(base).host]
  })

/**
 * Starts the in-process vault and answers the host's config with it as the vault; it stops with
 * the scope. The vault module is loaded only here, so a host without `VAULT_DEV` never loads it.
 */
export const withDevelopmentVault = (config: HostConfig): Effect.Effect<HostConfig, unknown, Scope.Scope> =>
  Effect.gen(function*() {
    const { Vault } = yield* Effect.promise(() => import("../vault/index.ts"))
    const secret = () => Redacted.make(randomBytes(32).toString("hex"))
    const engineKey = secret()
    const sessionSecret = secret()
    const port = yield* developmentVaultPort
    const running = yield* Vault.startForTest({
      port,
      host: "127.0.0.1",
      database: { _tag: "pglite" },
      keks: [{ id: "dev", key: Uint8Array.from(randomBytes(32)) }],
      fingerprintSecret: secret(),
      engineKey,
      sessionSecret,
      forwardHosts: hostsOf(config),
      allowHttpLoopback: true,
      forwardTimeoutMs: 30_000,
      securityCodeTtlMs: 10 * 60_000
    })
    yield* Effect.logWarning(
      `VAULT_DEV=inprocess: a development card vault serves on ${running.url} inside this process; card numbers pass through it, never use this in production`
    )
    const vault: VaultSettings = { url: running.url, engineKey, sessionSecret }
    return { ...config, vault: Option.some(vault) }
  })

/** The host layer with the development vault started first when the config asks for it. */
export const withVaultIfAsked = <A, E, R>(config: HostConfig, build: (config: HostConfig) => Layer.Layer<A, E, R>) =>
  config.developmentVault
    ? Layer.unwrap(Effect.map(withDevelopmentVault(config), build))
    : build(config)
