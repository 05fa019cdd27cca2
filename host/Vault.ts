/**
 * The card vault the host talks to: `VAULT_URL`, `VAULT_ENGINE_KEY` (the engine's bearer at the
 * vault) and `VAULT_SESSION_SECRET` (signs the card sessions a merchant's server tokenizes with),
 * all three or none; each secret may come from its `_FILE`. Without them no card rail can be
 * charged (`CardVault.unconfigured`). A production host (`keysRequired`) refuses a partial set; a
 * development one warns and runs without a vault.
 */
import { Config, Effect, Layer, Option, Redacted } from "effect"
import { keyWeakness } from "../adapters/auth/JoseTokenSigner.ts"
import * as HttpCardVault from "../adapters/vault/HttpCardVault.ts"
import { CardVault } from "../core/ports/CardVault.ts"
import { secretSetting } from "./Connectors.ts"

export interface VaultSettings {
  /** The vault's base URL, without a trailing slash. */
  readonly url: string
  readonly engineKey: Redacted.Redacted<string>
  readonly sessionSecret: Redacted.Redacted<string>
}

const names = ["VAULT_URL", "VAULT_ENGINE_KEY", "VAULT_SESSION_SECRET"] as const

export type VaultReading =
  | { readonly _tag: "none" }
  | { readonly _tag: "partial"; readonly missing: ReadonlyArray<string> }
  | { readonly _tag: "invalid"; readonly problem: string }
  | { readonly _tag: "complete"; readonly settings: VaultSettings }

/** The three variables as set (an empty value is unset). */
export const readVaultSettings = Effect.gen(function*() {
  const url = Option.filter(yield* Config.option(Config.String("VAULT_URL")), (u) => u.trim() !== "")
  const engineKey = Option.filter(yield* secretSetting("VAULT_ENGINE_KEY"), (r) => Redacted.value(r).trim() !== "")
  const sessionSecret = Option.filter(yield* secretSetting("VAULT_SESSION_SECRET"), (r) => Redacted.value(r).trim() !== "")
  const set = [Option.isSome(url), Option.isSome(engineKey), Option.isSome(sessionSecret)]
  if (set.every((s) => !s)) return { _tag: "none" } as const
  if (Option.isNone(url) || Option.isNone(engineKey) || Option.isNone(sessionSecret)) {
    return { _tag: "partial", missing: names.filter((_, i) => !set[i]) } as const
  }
  const parsed = URL.canParse(url.value) ? new URL(url.value) : undefined
  if (
    parsed === undefined || (parsed.protocol !== "https:" && parsed.protocol !== "http:") || parsed.username !== "" || parsed.password !== "" ||
    parsed.search !== "" || parsed.hash !== ""
  ) {
    return { _tag: "invalid", problem: "VAULT_URL must be an absolute http(s) URL without credentials, query or fragment, e.g. https://vault.example.com" } as const
  }
  const weakness = keyWeakness(Redacted.value(sessionSecret.value))
  if (weakness !== undefined) return { _tag: "invalid", problem: `VAULT_SESSION_SECRET is too weak (${weakness})` } as const
  return {
    _tag: "complete",
    settings: { url: url.value.replace(/\/+$/, ""), engineKey: engineKey.value, sessionSecret: sessionSecret.value }
  } as const
})

/**
 * The reading as the host keeps it: a partial or invalid set stops a production host (`required`
 * says why it is one) with a message naming the variables; a development host warns and has no vault.
 */
export const settleVault = <E>(
  reading: VaultReading,
  required: string | undefined,
  refuse: (message: string) => E
): Effect.Effect<Option.Option<VaultSettings>, E> => {
  switch (reading._tag) {
    case "none":
      return Effect.succeed(Option.none())
    case "complete":
      return Effect.succeed(Option.some(reading.settings))
    case "partial":
    case "invalid": {
      const problem = reading._tag === "invalid"
        ? reading.problem
        : `${reading.missing.join(", ")} ${reading.missing.length > 1 ? "are" : "is"} not set: the card vault needs VAULT_URL, VAULT_ENGINE_KEY and VAULT_SESSION_SECRET together`
      return required !== undefined
        ? Effect.fail(refuse(`${problem} (${required})`))
        : Effect.as(Effect.logWarning(`${problem}; this development host runs without a card vault (card rails cannot be charged)`), Option.none())
    }
  }
}

/**
 * The engine's card vault for these settings: the vault over HTTP, or `CardVault.unconfigured`.
 * The seam an in-process development vault plugs into is `appLayer`'s `cardVault` argument.
 */
export const cardVaultLayer = (vault: Option.Option<VaultSettings>): Layer.Layer<CardVault> =>
  Option.match(vault, {
    onNone: () => CardVault.unconfigured,
    onSome: (settings) => HttpCardVault.layer({ url: settings.url, engineKey: settings.engineKey })
  })

/** `VAULT_DEV=inprocess` (`DevelopmentVault.ts`): the port of the in-process development vault, and whether it is asked for. */
export const developmentVaultPort = Config.Int("VAULT_DEV_PORT").pipe(Config.withDefault(4100))

/** Whether `VAULT_DEV` asks for the in-process vault (`inprocess`); any other non-empty value is refused. */
export const readDevelopmentVault = Config.Literals(["inprocess", ""], "VAULT_DEV").pipe(
  Config.withDefault<"inprocess" | "">(""),
  Config.map((value) => value === "inprocess")
)
