/**
 * A record's secret part (number, expiry, holder name) sealed with AES-256-GCM under a data key of
 * its own, the token and merchant bound as associated data so a sealed blob copied onto another
 * record does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"

export interface CardSecret {
  readonly number: string
  readonly expMonth: number
  readonly expYear: number
  readonly holderName: string
}

const ivBytes = 12
const tagBytes = 16

export const newDataKey = (): Uint8Array => Uint8Array.from(randomBytes(32))

const aad = (token: string, merchantId: string) => Buffer.from(`${token}\u0000${merchantId}`, "utf8")

export const seal = (dataKey: Uint8Array, token: string, merchantId: string, secret: CardSecret): string => {
  const iv = randomBytes(ivBytes)
  const cipher = createCipheriv("aes-256-gcm", dataKey, iv)
  cipher.setAAD(aad(token, merchantId))
  const sealed = Buffer.concat([cipher.update(JSON.stringify(secret), "utf8"), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")
}

/** Throws when the blob does not open under the key (tampered, or another record's). */
export const open = (dataKey: Uint8Array, token: string, merchantId: string, sealed: string): CardSecret => {
  const bytes = Buffer.from(sealed, "base64")
  const decipher = createDecipheriv("aes-256-gcm", dataKey, bytes.subarray(0, ivBytes))
  decipher.setAAD(aad(token, merchantId))
  decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes))
  const text = Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString("utf8")
  return JSON.parse(text) as CardSecret
}
