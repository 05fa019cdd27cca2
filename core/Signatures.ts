/**
 * The signature scheme of every signed message the engine sends or receives (outbound webhooks,
 * provider callbacks): header `t=<unix seconds>,v1=<hex>[,v0=<hex>]` where each `v*` is the hex
 * HMAC-SHA256 of `<t>.<raw body>` keyed by a secret. Verification is constant time, accepts any
 * of the given secrets (rotation), refuses timestamps further than the tolerance from now, and
 * never throws on malformed input. "Now" is real time (`clock/RealClock.ts`): the other side of a
 * signed message lives on no shop's test clock.
 */
import { Effect } from "effect"
import { Mac } from "effect/crypto"
import { realMillis } from "./clock/RealClock.ts"

const encoder = new TextEncoder()

export const defaultToleranceSeconds = 300

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

const fromHex = (hex: string): Uint8Array | undefined => {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

const keyOf = (secret: string) => Mac.key(Mac.hmacSha256, encoder.encode(secret)).pipe(Effect.orDie)

/** Lowercase hex HMAC-SHA256 of `data` keyed by `secret` (UTF-8 both). */
export const hmacSha256Hex = Effect.fnUntraced(function*(secret: string, data: string): Effect.fn.Return<string, never, Mac.Mac> {
  const mac = yield* Mac.Mac
  return toHex(yield* mac.sign(yield* keyOf(secret), encoder.encode(data)).pipe(Effect.orDie))
})

/**
 * Whether `hexTag` (either case) is the HMAC-SHA256 of `data` keyed by `secret`, compared in
 * constant time; a malformed tag is simply `false`. For provider schemes that sign other strings
 * than the engine's own `<t>.<body>`.
 */
export const verifyHmacSha256Hex = Effect.fnUntraced(function*(secret: string, data: string, hexTag: string): Effect.fn.Return<boolean, never, Mac.Mac> {
  const tag = fromHex(hexTag)
  if (tag === undefined) return false
  const mac = yield* Mac.Mac
  return yield* mac.verify(yield* keyOf(secret), tag, encoder.encode(data)).pipe(Effect.orDie)
})

/** Hex HMAC-SHA256 of `<timestamp>.<body>`. */
export const signature = (secret: string, timestamp: number, body: string): Effect.Effect<string, never, Mac.Mac> =>
  hmacSha256Hex(secret, `${timestamp}.${body}`)

/**
 * The header value for `body`: `v1` with the first secret, `v0` with the second (the previous
 * secret during a rotation window).
 */
export const signatureHeader = Effect.fnUntraced(function*(
  body: string,
  secrets: readonly [string, ...Array<string>],
  timestamp?: number
): Effect.fn.Return<string, never, Mac.Mac> {
  const t = timestamp ?? Math.floor((yield* realMillis) / 1000)
  const parts = [`t=${t}`, `v1=${yield* signature(secrets[0], t, body)}`]
  if (secrets[1] !== undefined) parts.push(`v0=${yield* signature(secrets[1], t, body)}`)
  return parts.join(",")
})

export interface ParsedSignature {
  readonly timestamp: number
  readonly signatures: ReadonlyArray<string>
}

/** Reads `t=...,v1=...,v0=...`; undefined when malformed. */
export const parseSignatureHeader = (header: string | undefined): ParsedSignature | undefined => {
  if (header === undefined || header.length > 4096) return undefined
  let timestamp: number | undefined
  const signatures: Array<string> = []
  for (const part of header.split(",")) {
    const eq = part.indexOf("=")
    if (eq <= 0) return undefined
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value)) return undefined
      timestamp = Number(value)
    } else if (/^v\d+$/.test(key)) signatures.push(value)
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures }
}

export type VerifyResult = "valid" | "malformed" | "stale" | "mismatch"

/** Checks a signature header against the raw body with any of `secrets`. */
export const verifySignature = Effect.fnUntraced(function*(
  rawBody: string,
  header: string | undefined,
  secrets: ReadonlyArray<string>,
  toleranceSeconds: number = defaultToleranceSeconds
): Effect.fn.Return<VerifyResult, never, Mac.Mac> {
  const parsed = parseSignatureHeader(header)
  if (parsed === undefined) return "malformed"
  const nowSeconds = Math.floor((yield* realMillis) / 1000)
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return "stale"
  const mac = yield* Mac.Mac
  const data = encoder.encode(`${parsed.timestamp}.${rawBody}`)
  for (const secret of secrets) {
    const key = yield* keyOf(secret)
    for (const candidate of parsed.signatures) {
      const tag = fromHex(candidate)
      if (tag !== undefined && (yield* mac.verify(key, tag, data).pipe(Effect.orDie))) return "valid"
    }
  }
  return "mismatch"
})
