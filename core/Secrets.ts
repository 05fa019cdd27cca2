/**
 * Hashing and constant-time comparison of secrets (API keys, refresh tokens, admin token).
 * API secrets are 24+ random bytes, so a single SHA-256 is the right storage hash: there is
 * nothing to brute-force, and lookups by hash stay one indexed read.
 */
import { Effect } from "effect"
import { Digest, Mac } from "effect/crypto"

const encoder = new TextEncoder()

/**
 * Lowercase hex SHA-256 of a secret, as stored, with the `Digest` of the layer that builds the
 * hasher: a service hashing on every request takes it once rather than providing its `Digest` to
 * each call (providing a context copies the request fiber's whole context, every service of the
 * engine).
 */
export const secretHasher: Effect.Effect<(secret: string) => Effect.Effect<string>, never, Digest.Digest> = Effect.gen(function*() {
  const digest = yield* Digest.Digest
  return (secret) => digest.digestHex(Digest.sha256, encoder.encode(secret))
})

/** Compares two strings in constant time (their lengths are not secret). */
export const safeEqual = (a: string, b: string): boolean => Mac.timingSafeEqual(encoder.encode(a), encoder.encode(b))

/** `sk_test_abcd…wxyz` -> `sk_test_…wxyz` (`whsec_` too): enough to recognise a key, never enough to use it. */
export const maskKey = (key: string): string => {
  const prefix = /^(?:(?:sk|pk|rt)_(?:test|live)_|whsec_)/.exec(key)?.[0] ?? ""
  return `${prefix}…${key.slice(-4)}`
}
