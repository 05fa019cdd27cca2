/**
 * `SecureRandom` drawn from a pool: `getRandomValues` fills 4 KiB at a time and each draw copies
 * its bytes out, as Node's own `crypto.randomUUID` does. Every id draws 7 fresh random bytes
 * (`Ids.ts`), and a call into the CSPRNG per id cost more than the id (`npm run bench`). The bytes
 * are the same CSPRNG output; each is handed out once.
 */
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"

const poolBytes = 4096

/** A draw from a new pool: `size` bytes, each handed out once. */
export const make = () => {
  let pool = new Uint8Array(0)
  let offset = 0
  return (size: number): Uint8Array => {
    // A draw of more than a quarter of the pool goes straight to the source.
    if (size > poolBytes / 4) return globalThis.crypto.getRandomValues(new Uint8Array(size))
    if (offset + size > pool.length) {
      pool = globalThis.crypto.getRandomValues(new Uint8Array(poolBytes))
      offset = 0
    }
    // A copy: callers own (and UUID formatting mutates) what they get.
    const bytes = pool.slice(offset, offset + size)
    offset += size
    return bytes
  }
}

export const layer: Layer.Layer<SecureRandom.SecureRandom> = Layer.sync(SecureRandom.SecureRandom, () => SecureRandom.make(make()))
