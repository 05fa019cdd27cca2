/**
 * KEKs given to the process (`VAULT_KEK`, or `VAULT_KEK_FILE` naming a file that holds the same
 * text): one 32-byte key in hex, or several as `id:hex,id:hex` with the first current. Rotation is
 * giving the new key first and the old one after it, running `rotateKeys`, then dropping the old.
 * A data key is wrapped with AES-256-GCM, the KEK's id bound as associated data.
 */
import { Effect, Layer } from "effect"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { KeyManagement, KeyUnavailable } from "./KeyManagement.ts"

export interface Kek {
  readonly id: string
  readonly key: Uint8Array
}

/** The key id a single unnamed `VAULT_KEK` gets. */
export const defaultKeyId = "k1"

const hexKey = (hex: string, id: string): Uint8Array => {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`VAULT_KEK key "${id}" must be 64 hex characters (32 bytes)`)
  return Uint8Array.from(Buffer.from(hex, "hex"))
}

/** Parses `hex` or `id:hex,id:hex`. Throws with a message that names no key material. */
export const parseKeks = (text: string): ReadonlyArray<Kek> => {
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0)
  if (entries.length === 0) throw new Error("VAULT_KEK is empty")
  const keks = entries.map((entry) => {
    const colon = entry.indexOf(":")
    if (colon < 0) {
      if (entries.length > 1) throw new Error("VAULT_KEK with several keys needs id:hex for each")
      return { id: defaultKeyId, key: hexKey(entry, defaultKeyId) }
    }
    const id = entry.slice(0, colon)
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw new Error("VAULT_KEK key ids are 1 to 64 of A-Z a-z 0-9 _ . -")
    return { id, key: hexKey(entry.slice(colon + 1), id) }
  })
  if (new Set(keks.map((kek) => kek.id)).size !== keks.length) throw new Error("VAULT_KEK names a key id twice")
  return keks
}

/** The KEKs from `VAULT_KEK` or, failing it, the file `VAULT_KEK_FILE` names. */
export const keksFromEnv = (env: Record<string, string | undefined>): ReadonlyArray<Kek> => {
  const inline = env["VAULT_KEK"]
  if (inline !== undefined && inline !== "") return parseKeks(inline)
  const file = env["VAULT_KEK_FILE"]
  if (file !== undefined && file !== "") return parseKeks(readFileSync(file, "utf8"))
  throw new Error("the vault needs VAULT_KEK or VAULT_KEK_FILE")
}

const ivBytes = 12
const tagBytes = 16

export const make = (keks: ReadonlyArray<Kek>): KeyManagement["Service"] => {
  const current = keks[0]
  if (current === undefined) throw new Error("the vault needs at least one KEK")
  const byId = new Map(keks.map((kek) => [kek.id, kek.key]))
  return KeyManagement.of({
    currentKeyId: current.id,
    wrap: (dataKey) =>
      Effect.sync(() => {
        const iv = randomBytes(ivBytes)
        const cipher = createCipheriv("aes-256-gcm", current.key, iv)
        cipher.setAAD(Buffer.from(current.id, "utf8"))
        const sealed = Buffer.concat([cipher.update(dataKey), cipher.final()])
        return { keyId: current.id, wrapped: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64") }
      }),
    unwrap: ({ keyId, wrapped }) => {
      const kek = byId.get(keyId)
      if (kek === undefined) return Effect.fail(new KeyUnavailable({ keyId, message: `no KEK "${keyId}" is configured` }))
      return Effect.try({
        try: () => {
          const bytes = Buffer.from(wrapped, "base64")
          const decipher = createDecipheriv("aes-256-gcm", kek, bytes.subarray(0, ivBytes))
          decipher.setAAD(Buffer.from(keyId, "utf8"))
          decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes))
          return Uint8Array.from(Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]))
        },
        catch: () => new KeyUnavailable({ keyId, message: `a data key did not open under KEK "${keyId}"` })
      })
    }
  })
}

export const layer = (keks: ReadonlyArray<Kek>): Layer.Layer<KeyManagement> => Layer.sync(KeyManagement, () => make(keks))
