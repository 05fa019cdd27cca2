/**
 * Identifiers and random secrets. Ids are a fixed prefix per resource plus a ULID-shaped text:
 * 48 bits of milliseconds from the real clock, then 24 bits counting the ids this process minted
 * in that millisecond, then 56 bits of fresh secure randomness. So ids sort by creation time
 * (and, inside one millisecond of one process, by creation order: events of one change list in
 * the order they were emitted), and nothing in an id follows from another: no shop's test clock
 * moves the time in it (a sandbox shop that advanced 30 days mints ids of today, like everyone),
 * and the random part of each is drawn anew (a ULID in monotonic mode is the previous id plus one
 * inside a millisecond, which let one merchant name the next merchant's payment).
 * Secrets are base62 text of secure random bytes.
 */
import { Context, Effect, Layer, Ref } from "effect"
import { realClock } from "./clock/RealClock.ts"
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
  discrepancy: "rcd_",
  audit: "aud_",
  connectorAccount: "ca_",
  teamMember: "usr_"
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

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const maxMillis = 2 ** 48 - 1
const maxInMillisecond = 2 ** 24 - 1
/** Random bytes in each id, after the time and the counter. */
export const idRandomBytes = 7

/**
 * Crockford base32 of `time` (48 bits), `count` (24 bits) and 7 random bytes: 26 characters,
 * ordered as the numbers are.
 */
export const idText = (time: number, count: number, random: Uint8Array): string => {
  let out = ""
  for (let shift = 45; shift >= 0; shift -= 5) out += crockford[Math.floor(time / 2 ** shift) & 0x1f]
  // 80 bits: the counter's 24, then the 56 random ones, five at a time.
  let accumulator = 0
  let bits = 0
  const push = (byte: number) => {
    accumulator = (accumulator << 8) | byte
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += crockford[(accumulator >>> bits) & 0x1f]
    }
    accumulator &= (1 << bits) - 1
  }
  push((count >>> 16) & 0xff)
  push((count >>> 8) & 0xff)
  push(count & 0xff)
  for (const b of random) push(b)
  return out
}

/**
 * The id generator of a process: reads the real clock (under any test-clock shift) and counts
 * the ids of each millisecond. A clock that steps back keeps the last millisecond (and its
 * count going), so the order holds; 2^24 ids in one millisecond move on to the next.
 */
export const makeIdClock = (randomBytes: (size: number) => Uint8Array) => {
  let last = -1
  let count = 0
  return (millis: number): string => {
    const now = Math.min(Math.max(0, Math.trunc(millis)), maxMillis)
    if (now > last) {
      last = now
      count = 0
    } else if (count < maxInMillisecond) {
      count++
    } else {
      last = Math.min(last + 1, maxMillis)
      count = 0
    }
    return idText(last, count, randomBytes(idRandomBytes))
  }
}

export class Ids extends Context.Service<Ids, {
  /** A new id for a resource kind, e.g. `TXN-01JD...` or `cs_01jd...`. */
  readonly next: (kind: IdKind) => Effect.Effect<string>
  /** A random secret: `prefix` + base62 of `bytes` secure random bytes. */
  readonly secret: (prefix: string, bytes: number) => Effect.Effect<string>
}>()("core/Ids") {
  /** Production ids: the real clock and fresh bytes of WebCrypto's `getRandomValues` (pooled). */
  static readonly layer = Layer.sync(Ids, () => {
    const draw = SecureRandomPool.make()
    const mint = makeIdClock(draw)
    return Ids.of({
      next: (kind) =>
        Effect.map(realClock, (clock) => {
          const id = mint(clock.currentTimeMillisUnsafe())
          const prefix = IdPrefixes[kind]
          return prefix + (prefix.endsWith("_") ? id.toLowerCase() : id)
        }),
      secret: (prefix, bytes) => Effect.sync(() => prefix + toBase62(draw(bytes)))
    })
  })

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
