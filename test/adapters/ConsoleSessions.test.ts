/**
 * The console's sessions on every store: a cookie opens its session and nothing else; the store
 * holds neither the cookie's secret nor the credential in the clear; a forged secret, a tampered
 * seal, an ended or an expired session opens nothing.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Digest, SecureRandom } from "effect/crypto"
import { Sessions } from "../../adapters/http/console/Sessions.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { ConsoleSessionStore } from "../../core/ports/ConsoleSessionStore.ts"
import { storeTargets } from "../support/Stores.ts"

const crypto = Layer.mergeAll(Digest.layerWebCrypto, SecureRandom.layerWebCrypto)
const merchant = { kind: "merchant" as const, accessToken: "eyJ.secret-access-token.sig", merchantId: "mer_1", merchantName: "Loja Azul" }

for (const target of storeTargets("console_sessions")) {
  describe(`console sessions on ${target.name}`, () => {
    layer(Layer.provideMerge(Sessions.layer, Layer.merge(target.layer(), crypto)) as Layer.Layer<Sessions | ConsoleSessionStore>, { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("opens with its cookie only, and keeps no secret in the clear", () =>
        Effect.gen(function*() {
          const sessions = yield* Sessions
          const store = yield* ConsoleSessionStore
          const { cookie, session } = yield* sessions.start(merchant, "sandbox", 3600)
          const opened = yield* sessions.open(cookie)
          assert.isTrue(Option.isSome(opened))
          assert.deepStrictEqual(Option.getOrThrow(opened).credential, merchant)
          assert.strictEqual(Option.getOrThrow(opened).environment, "sandbox")

          const row = Option.getOrThrow(yield* store.find(session.id))
          const [, secret] = cookie.split(".")
          assert.notInclude(row.sealed, "secret-access-token")
          assert.notInclude(JSON.stringify(row), secret!)

          const forged = `${session.id}.${"A".repeat(secret!.length)}`
          assert.isTrue(Option.isNone(yield* sessions.open(forged)), "another secret with the same id")
          assert.isTrue(Option.isNone(yield* sessions.open("cs_unknown.secret")))
          assert.isTrue(Option.isNone(yield* sessions.open("no-dot")))

          const rotated = { kind: "rotated" as const, merchantName: "Loja Azul", publishableKey: "pk_test_new", secretKey: "sk_test_new_secret" }
          yield* sessions.replace(forged, rotated)
          assert.deepStrictEqual(Option.getOrThrow(yield* sessions.open(cookie)).credential, merchant, "a forged cookie replaces nothing")
          yield* sessions.replace(cookie, rotated)
          assert.deepStrictEqual(Option.getOrThrow(yield* sessions.open(cookie)).credential, rotated)
          assert.notInclude(Option.getOrThrow(yield* store.find(session.id)).sealed, "sk_test_new_secret")

          yield* sessions.end(forged)
          assert.isTrue(Option.isSome(yield* sessions.open(cookie)), "a forged cookie cannot end a session")
          yield* sessions.end(cookie)
          assert.isTrue(Option.isNone(yield* sessions.open(cookie)), "ended")
        }))

      it.effect("a tampered seal opens nothing", () =>
        Effect.gen(function*() {
          const sessions = yield* Sessions
          const store = yield* ConsoleSessionStore
          const { cookie, session } = yield* sessions.start({ kind: "operator", adminToken: "admin" }, null, 3600)
          const row = Option.getOrThrow(yield* store.find(session.id))
          const [nonce, sealed] = row.sealed.split(".")
          const flipped = sealed!.slice(0, 5) + (sealed![5] === "A" ? "B" : "A") + sealed!.slice(6)
          yield* store.remove(session.id)
          yield* store.insert({ ...row, sealed: `${nonce}.${flipped}` })
          assert.isTrue(Option.isNone(yield* sessions.open(cookie)))
        }))
    })
  })
}

describe("console session expiry", () => {
  it.effect("a session opens until its lifetime ends, and is forgotten at the next sign-in", () =>
    Effect.gen(function*() {
      const sessions = yield* Sessions
      const store = yield* ConsoleSessionStore
      const { cookie, session } = yield* sessions.start(merchant, "production", 3600)
      yield* TestClock.adjust("3599 seconds")
      assert.isTrue(Option.isSome(yield* sessions.open(cookie)))
      yield* TestClock.adjust("1 second")
      assert.isTrue(Option.isNone(yield* sessions.open(cookie)), "expired")
      yield* sessions.start(merchant, "production", 3600)
      assert.isTrue(Option.isNone(yield* store.find(session.id)), "removed once expired")
    }).pipe(Effect.provide(Layer.provideMerge(Sessions.layer, Layer.merge(MemoryStore.layer, crypto)))))
})
