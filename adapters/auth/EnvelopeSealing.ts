/**
 * `Sealing` with AES-256-GCM on `node:crypto`, as envelope encryption: every value is encrypted
 * under a fresh 256-bit data key, and the data key is stored wrapped (AES-256-GCM too) by the
 * key-encryption key. A sealed value reads
 *
 *     sealed.v1.<kid>.<wrapped data key>.<ciphertext>
 *
 * (base64url parts, each `iv | ciphertext | tag`), where `kid` names the key-encryption key (the
 * first 16 hex digits of its SHA-256). Keys are given current first, then previous ones: sealing
 * uses the current key, unsealing the key its `kid` names, so a key rotates by adding the new one
 * in front. The value's storage context is the data encryption's additional data.
 *
 * Tampered or unknown-key values are defects: the store is broken or the key is wrong, nothing a
 * caller can handle, and the message names the key id and context only.
 */
import { Effect, Layer, Redacted } from "effect"
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Sealing } from "../../core/ports/Sealing.ts"

const prefix = "sealed.v1."
const keyBytes = 32

/** A 32-byte key as 64 hex digits or base64 (standard or url-safe); undefined otherwise. */
export const parseSealingKey = (text: string): Uint8Array | undefined => {
  const trimmed = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Uint8Array.from(Buffer.from(trimmed, "hex"))
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replaceAll("-", "+").replaceAll("_", "/"), "base64")
    if (bytes.length === keyBytes) return Uint8Array.from(bytes)
  }
  return undefined
}

/** A new random key, as `parseSealingKey` reads it (hex). */
export const generateSealingKey = () => randomBytes(keyBytes).toString("hex")

const kidOf = (key: Uint8Array) => createHash("sha256").update(key).digest("hex").slice(0, 16)

const encrypt = (key: Uint8Array, plaintext: Uint8Array, aad: string) => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(Buffer.from(aad, "utf8"))
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")
}

const decrypt = (key: Uint8Array, part: string, aad: string): Buffer => {
  const bytes = Buffer.from(part, "base64url")
  if (bytes.length < 12 + 16) throw new Error("truncated")
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12))
  decipher.setAAD(Buffer.from(aad, "utf8"))
  decipher.setAuthTag(bytes.subarray(bytes.length - 16))
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()])
}

/** The `Sealing` service over keys given current first (32 bytes each). */
export const make = (keys: readonly [Uint8Array, ...Array<Uint8Array>]): Sealing["Service"] => {
  for (const key of keys) if (key.length !== keyBytes) throw new Error(`A sealing key is ${keyBytes} bytes`)
  const byKid = new Map(keys.map((key) => [kidOf(key), key] as const))
  const currentKid = kidOf(keys[0])
  const current = keys[0]
  const isSealed = (stored: string) => stored.startsWith(prefix)
  // Signing keys derived from each key-encryption key: the KEK itself only wraps data keys.
  const macKeys = new Map(Array.from(byKid, ([kid, key]) => [kid, createHmac("sha256", key).update("mac.v1").digest()] as const))
  const macOf = (key: Uint8Array, data: string, context: string) => createHmac("sha256", key).update(`${context}\n${data}`, "utf8").digest("hex")
  return Sealing.of({
    isSealed,
    sign: (data, context) => Effect.sync(() => `${currentKid}.${macOf(macKeys.get(currentKid)!, data, context)}`),
    verifySigned: (data, context, signature) =>
      Effect.sync(() => {
        const [kid = "", hex = ""] = signature.split(".")
        const key = macKeys.get(kid)
        if (key === undefined || !/^[0-9a-f]{64}$/.test(hex)) return false
        return timingSafeEqual(Buffer.from(macOf(key, data, context), "hex"), Buffer.from(hex, "hex"))
      }),
    seal: (plaintext, context) =>
      Effect.sync(() => {
        const dataKey = randomBytes(keyBytes)
        const wrapped = encrypt(current, dataKey, `${currentKid}:data-key`)
        return `${prefix}${currentKid}.${wrapped}.${encrypt(dataKey, Buffer.from(plaintext, "utf8"), context)}`
      }),
    unseal: (stored, context) => {
      if (!isSealed(stored)) return Effect.succeed(stored)
      const [kid = "", wrapped = "", body = ""] = stored.slice(prefix.length).split(".")
      const kek = byKid.get(kid)
      if (kek === undefined) return Effect.die(new Error(`A value stored under ${context} is sealed with key ${kid}, which this host was not given`))
      return Effect.try({
        try: () => decrypt(decrypt(kek, wrapped, `${kid}:data-key`), body, context).toString("utf8"),
        catch: () => new Error(`A value stored under ${context} does not unseal with key ${kid} (tampered, or moved from another row)`)
      }).pipe(Effect.orDie)
    }
  })
}

/** The layer for keys given as text (hex or base64), current first. */
export const layer = (keys: readonly [Redacted.Redacted<string>, ...Array<Redacted.Redacted<string>>]) =>
  Layer.effect(Sealing, Effect.suspend(() => {
    const parsed = keys.map((k) => parseSealingKey(Redacted.value(k)))
    const bad = parsed.findIndex((k) => k === undefined)
    return bad >= 0
      ? Effect.die(new Error(`The ${bad === 0 ? "sealing key" : `previous sealing key number ${bad}`} is not 32 bytes as 64 hex digits or base64`))
      : Effect.succeed(make(parsed as unknown as readonly [Uint8Array, ...Array<Uint8Array>]))
  }))

let processKey: Uint8Array | undefined

/**
 * A key made for this process, the same for every store built in it: what a store seals with
 * when nobody gave it a key (tests, an embedded development engine). Values sealed with it do
 * not survive the process; a host gives its store a real key (`layer`).
 */
export const processSealing = (): Sealing["Service"] => make([(processKey ??= Uint8Array.from(randomBytes(keyBytes)))])

export const EnvelopeSealing = { layer, make, parseSealingKey, generateSealingKey, processSealing }
