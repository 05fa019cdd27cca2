/**
 * The auth service as an embedder uses it, on the memory store, with time driven by TestClock:
 * token lifetimes, and a refresh token redeemed by racing requests.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Auth } from "../../core/auth/Auth.ts"
import { Merchants } from "../../core/tenancy/Merchants.ts"
import { EngineTest } from "../support/Engine.ts"

const login = Effect.gen(function*() {
  const { keys } = yield* (yield* Merchants).create({ name: "Acme", email: "a@acme.test" })
  const auth = yield* Auth
  return { auth, pair: yield* auth.exchange(keys.sandbox.publishableKey, keys.sandbox.secretKey) }
})

describe("Auth", () => {
  it.effect("an access token works for 3600 seconds, then answers token_expired", () =>
    Effect.gen(function*() {
      const { auth, pair } = yield* login
      yield* TestClock.adjust("3599 seconds")
      assert.strictEqual((yield* auth.authenticate(pair.accessToken)).keyKind, "secret")
      yield* TestClock.adjust("2 seconds")
      const error = yield* Effect.flip(auth.authenticate(pair.accessToken))
      assert.strictEqual(error.code, "token_expired")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("a refresh token lasts 30 days", () =>
    Effect.gen(function*() {
      const { auth, pair } = yield* login
      yield* TestClock.adjust("29 days")
      const next = yield* auth.refresh(pair.refreshToken)
      yield* TestClock.adjust("30 days")
      const error = yield* Effect.flip(auth.refresh(next.refreshToken))
      assert.strictEqual(error.code, "authentication_failed")
      assert.include(error.message, "expired")
    }).pipe(Effect.provide(EngineTest)))

  it.effect("ten racing redemptions of one refresh token: at most one wins and the family is revoked", () =>
    Effect.gen(function*() {
      const { auth, pair } = yield* login
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () => Effect.result(auth.refresh(pair.refreshToken))),
        { concurrency: "unbounded" }
      )
      const wins = results.filter((r) => r._tag === "Success")
      assert.isAtMost(wins.length, 1)
      // Any loser signals reuse, which revokes the family, including the winner's new token.
      for (const win of wins) {
        const error = yield* Effect.flip(auth.refresh(win.success.refreshToken))
        assert.strictEqual(error.code, "authentication_failed")
      }
    }).pipe(Effect.provide(EngineTest)))
})
