/**
 * Identifiers and random secrets. Ids are a fixed prefix per resource plus a ULID read from the
 * Effect `Clock`, so they sort by creation time; secrets are base62 text of secure random bytes.
 */
import { Context, Effect, Layer, Ref } from "effect"
import { SecureRandom } from "effect/crypto"
import * as SecureRandomPool from "./SecureRandomPool.ts"

export const IdPrefixes = {
  transaction: "TXN-",
  checkoutSession: "cs_",
  claim: "CLM-",
  swap: "bsw_",
  transfer: "ptr_",
  payout: "po-",
  depositAccount: "eda_",
  deposit: "dep_",
  webhook: "wh_",
  delivery: "wd_",
  event: "evt_",
  merchant: "mer_",
  shop: "shop_",
  credential: "key_",
  refreshFamily: "rtf_",
  refreshToken: "rtk_",
  job: "job_",
  journal: "jnl_",
  withdrawal: "wdr_",
  settlement: "STL-",
  report: "rcr_",
  discrepancy: "rcd_"
} as const

export type IdKind = keyof typeof IdPrefixes

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** Base62 text of bytes (a bijection on fixed-length input; leading zero bytes keep their digit). */
export const toBase62 = (bytes: Uint8Array): string => {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  let out = ""
  while (n > 0n) {
    out = base62[Number(n % 62n)] + out
    n /= 62n
  }
  const width = Math.ceil((bytes.length * 8) / Math.log2(62))
  return out.padStart(width, "0")
}

export class Ids extends Context.Service<Ids, {
  /** A new id for a resource kind, e.g. `TXN-01JD...` or `cs_01jd...`. */
  readonly next: (kind: IdKind) => Effect.Effect<string>
  /** A random secret: `prefix` + base62 of `bytes` secure random bytes. */
  readonly secret: (prefix: string, bytes: number) => Effect.Effect<string>
}>()("core/Ids") {
  /** Production ids: ULIDs from the clock and secrets from WebCrypto's `getRandomValues` (pooled). */
  static readonly layer = Layer.effect(
    Ids,
    Effect.gen(function*() {
      const random = yield* SecureRandom.SecureRandom
      return Ids.of({
        next: (kind) =>
          Effect.map(random.ulid, (ulid) => {
            const prefix = IdPrefixes[kind]
            return prefix + (prefix.endsWith("_") ? ulid.toLowerCase() : ulid)
          }),
        secret: (prefix, bytes) => Effect.map(random.randomBytes(bytes), (b) => prefix + toBase62(b))
      })
    })
  ).pipe(Layer.provide(SecureRandomPool.layer))

  /** Deterministic ids for tests: `TXN-000001`, `cs_000002`, ... and counter-based secrets. */
  static readonly layerTest = Layer.effect(
    Ids,
    Effect.gen(function*() {
      const counter = yield* Ref.make(0)
      const tick = Ref.updateAndGet(counter, (n) => n + 1)
      return Ids.of({
        next: (kind) => Effect.map(tick, (n) => IdPrefixes[kind] + String(n).padStart(6, "0")),
        secret: (prefix, bytes) =>
          Effect.map(tick, (n) => prefix + String(n).padStart(Math.ceil((bytes * 8) / Math.log2(62)), "0"))
      })
    })
  )
}
