/**
 * Team members' passwords hashed with scrypt (`node:crypto`, N = 2^15, r = 8, p = 1, a 16-byte
 * salt, 32 bytes out; OWASP's minimum for scrypt), stored as `scrypt$<N>$<r>$<p>$<salt>$<hash>`
 * (base64url), so that its cost can rise later and old hashes still verify.
 */
import { Effect, Layer } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Passwords } from "../../core/ports/Passwords.ts"

const cost = { N: 2 ** 15, r: 8, p: 1 }
const keyLength = 32

const derive = (password: string, salt: Buffer, N: number, r: number, p: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: 128 * N * r * 2 }, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

export const ScryptPasswords = Layer.succeed(Passwords, Passwords.of({
  hash: (password) =>
    Effect.suspend(() => {
      const salt = randomBytes(16)
      return Effect.map(derive(password, salt, cost.N, cost.r, cost.p), (key) =>
        `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString("base64url")}$${key.toString("base64url")}`)
    }),
  verify: (password, stored) =>
    Effect.suspend(() => {
      const [scheme, n, r, p, salt, hash] = stored.split("$")
      if (scheme !== "scrypt" || salt === undefined || hash === undefined) return Effect.succeed(false)
      const expected = Buffer.from(hash, "base64url")
      return Effect.map(derive(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p)), (key) =>
        key.length === expected.length && timingSafeEqual(key, expected))
    })
}))
