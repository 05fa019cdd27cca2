/**
 * A card's fingerprint: HMAC-SHA256 of its number under a key derived per merchant (HKDF-SHA256
 * from `VAULT_FINGERPRINT_SECRET`, the merchant id as info). The same card gives the same
 * fingerprint within a merchant and an unrelated one across merchants, so fingerprints cannot be
 * joined between merchants, and without the secret they cannot be computed from a guessed number.
 */
import { createHmac, hkdfSync } from "node:crypto"
import { Redacted } from "effect"

export const fingerprinter = (secret: Redacted.Redacted<string>) => {
  const keys = new Map<string, Buffer>()
  const keyFor = (merchantId: string) => {
    let key = keys.get(merchantId)
    if (key === undefined) {
      key = Buffer.from(hkdfSync("sha256", Buffer.from(Redacted.value(secret), "utf8"), "vault-fingerprint", `merchant:${merchantId}`, 32))
      keys.set(merchantId, key)
    }
    return key
  }
  return (merchantId: string, number: string): string =>
    `fp_${createHmac("sha256", keyFor(merchantId)).update(number, "utf8").digest("base64url")}`
}
