/** Pooled randomness hands each byte out once, in fresh arrays, across refills of the pool. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SecureRandom } from "effect/crypto"
import * as SecureRandomPool from "../../core/SecureRandomPool.ts"

describe("SecureRandomPool", () => {
  it.effect("draws across several refills never repeat, and a caller may mutate what it got", () =>
    Effect.gen(function*() {
      const random = yield* SecureRandom.SecureRandom
      const seen = new Set<string>()
      // 16-byte draws: 256 per 4 KiB pool, so this crosses about 8 refills.
      for (let i = 0; i < 2_000; i++) {
        const bytes = yield* random.randomBytes(16)
        assert.strictEqual(bytes.length, 16)
        const hex = Buffer.from(bytes).toString("hex")
        assert.isFalse(seen.has(hex), `draw ${i} repeated an earlier one`)
        seen.add(hex)
        bytes.fill(0)
      }
      // A large draw bypasses the pool and still has its size.
      assert.strictEqual((yield* random.randomBytes(4_000)).length, 4_000)
    }).pipe(Effect.provide(SecureRandomPool.layer)))
})
