/**
 * The id generator as an embedder's engine uses it: the time in an id is the real clock's, whatever
 * test clock the caller runs on, ids sort by creation, and each draws fresh random bytes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { ShopClocks } from "../../core/clock/ShopClocks.ts"
import { Ids, idText, makeIdClock } from "../../core/Ids.ts"
import { SandboxClockStore } from "../../core/ports/SandboxClockStore.ts"

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const bits = (id: string) => [...id.slice(-26).toUpperCase()].reduce((n, c) => (n << 5n) | BigInt(crockford.indexOf(c)), 0n)

describe("Ids", () => {
  it("writes time, count and random bytes in order, and sorts as the numbers do", () => {
    const text = idText(1_733_100_000_000, 0x123456, new Uint8Array([1, 2, 3, 4, 5, 6, 7]))
    assert.strictEqual(text.length, 26)
    assert.strictEqual(bits(text) >> 80n, 1_733_100_000_000n)
    assert.strictEqual((bits(text) >> 56n) & 0xffffffn, 0x123456n)
    assert.strictEqual(bits(text) & ((1n << 56n) - 1n), 0x01020304050607n)
  })

  it("inside one millisecond and when the clock steps back: in creation order, each with the bytes it drew", () => {
    let drawn = 0
    // A source whose draws are known: an id's random part is its own draw, never the last one's plus one.
    const mint = makeIdClock((size) => new Uint8Array(size).fill(++drawn * 17))
    const ids = [mint(5_000), mint(5_000), mint(5_000), mint(4_000), mint(6_000)]
    assert.deepStrictEqual([...ids].sort(), ids)
    assert.deepStrictEqual(ids.map((id) => Number(bits(id) & 0xffn)), [17, 34, 51, 68, 85])
    assert.deepStrictEqual(ids.map((id) => Number(bits(id) >> 80n)), [5_000, 5_000, 5_000, 5_000, 6_000])
  })

  it.effect("a shop's shifted clock does not move the time in its ids", () =>
    Effect.gen(function*() {
      const ids = yield* Ids
      const clocks = yield* ShopClocks
      yield* TestClock.setTime(1_733_100_000_000)
      const real = yield* ids.next("transaction")
      const shifted = yield* clocks.withinOffset("shop_1", 30 * 86_400_000, Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.map(ids.next("transaction"), (id) => ({ id, now }))))
      assert.strictEqual(shifted.now, 1_733_100_000_000 + 30 * 86_400_000, "the shop's clock runs ahead")
      assert.strictEqual(Number(bits(shifted.id) >> 80n), 1_733_100_000_000)
      assert.strictEqual(Number(bits(real.slice(4)) >> 80n), 1_733_100_000_000)
    }).pipe(Effect.provide(Layer.mergeAll(Ids.layer, ShopClocks.layer.pipe(Layer.provide(Layer.succeed(SandboxClockStore, {} as never)))))))
})
