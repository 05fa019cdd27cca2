/**
 * The shop's clock cannot be forgotten: a scope of a shop the request names exists only inside
 * `Scopes.within` / `withinOwning`, and what runs there (every core service the scope is passed
 * to) reads that shop's time and schedules on its clock, whatever clock the request was on. Real
 * time (`RealClock.ts`: ids, keys, leases, signatures, tokens) stays real inside it.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type { Principal } from "../../core/auth/Principal.ts"
import { FoundationTest } from "../../core/Engine.ts"
import { realNow } from "../../core/clock/RealClock.ts"
import { CurrentClockScope, ShopClocks } from "../../core/clock/ShopClocks.ts"
import { SandboxClockStore } from "../../core/ports/SandboxClockStore.ts"
import { TenancyStore } from "../../core/ports/TenancyStore.ts"
import type { Shop } from "../../core/tenancy/Merchant.ts"
import { parseSignatureHeader, signatureHeader, verifySignature } from "../../core/Signatures.ts"
import { Scopes, type ShopScope } from "../../core/tenancy/Scopes.ts"

const day = 86_400_000
const start = 1_733_100_000_000
const at = DateTime.makeUnsafe(start)
const shop = (id: string, merchantId = "mer_1"): Shop => ({ id, merchantId, name: id, createdAt: at })
const [north, south, elsewhere] = [shop("shop_north"), shop("shop_south"), shop("shop_other", "mer_2")]
const offsets: Record<string, number> = { [north.id]: 0, [south.id]: 3 * day, [elsewhere.id]: 9 * day }

/** A merchant-wide sandbox credential whose default shop is North (clock unmoved). */
const principal: Principal = {
  merchant: { id: "mer_1", name: "Acme", email: "ops@acme.test", industry: "retail", tier: "standard", trustScore: 500, createdAt: at },
  credential: {
    id: "cred_1",
    merchantId: "mer_1",
    shopId: null,
    environment: "sandbox",
    publishableKey: "pk_test_1",
    secretHash: "",
    secretLast4: "1234",
    version: 1,
    revokedAt: null,
    createdAt: at,
    permissions: null,
    name: null,
    userId: null
  },
  environment: "sandbox",
  keyKind: "secret",
  keyId: "sk_test_…1234",
  shop: north,
  clockOffsetMs: 0
}

const stores = Layer.mergeAll(
  Layer.succeed(SandboxClockStore, { offset: (id: string) => Effect.succeed(offsets[id] ?? 0) } as unknown as SandboxClockStore["Service"]),
  Layer.succeed(TenancyStore, {
    findShop: (id: string) => Effect.succeed(Option.fromNullishOr([north, south, elsewhere].find((s) => s.id === id)))
  } as unknown as TenancyStore["Service"])
)
const layer = Scopes.layer.pipe(Layer.provideMerge(ShopClocks.layer), Layer.provide(stores))

/** What a service given the scope reads: the shop's time, the clock its jobs are scheduled on, and real time. */
const observe = (scope: ShopScope) =>
  Effect.gen(function*() {
    const now = DateTime.toEpochMillis(yield* DateTime.now)
    return { shop: scope.shop.id, ahead: now - start, clockScope: yield* CurrentClockScope, real: DateTime.toEpochMillis(yield* realNow) }
  })

/** As a request of `principal` runs: on its default shop's clock (`RequestClock`). */
const asRequest = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(ShopClocks, (clocks) => clocks.withinOffset(principal.shop!.id, principal.clockOffsetMs, effect))

describe("the shop's clock", () => {
  it.effect("work given a named shop's scope runs on that shop's clock, from a request on another's", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start)
      const scopes = yield* Scopes
      const named = yield* asRequest(scopes.within(principal, { shopId: south.id }, observe))
      assert.deepStrictEqual(named, { shop: south.id, ahead: 3 * day, clockScope: south.id, real: start })
      const owning = yield* asRequest(scopes.withinOwning(principal, south.id, observe))
      assert.deepStrictEqual(owning, { shop: south.id, ahead: 3 * day, clockScope: south.id, real: start })
      const byDefault = yield* asRequest(scopes.within(principal, {}, observe))
      assert.deepStrictEqual(byDefault, { shop: north.id, ahead: 0, clockScope: north.id, real: start })
      // A record of a shop the credential does not cover: the default scope (where its id is a 404), on the default clock.
      const foreign = yield* asRequest(scopes.withinOwning(principal, elsewhere.id, observe))
      assert.deepStrictEqual(foreign, { shop: north.id, ahead: 0, clockScope: north.id, real: start })
      // The request's own clock is untouched after the work.
      const after = yield* asRequest(Effect.flatMap(scopes.resolve(principal), observe))
      assert.deepStrictEqual(after, { shop: north.id, ahead: 0, clockScope: north.id, real: start })
    }).pipe(Effect.provide(layer)))

  it.effect("a production scope runs on the real clock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start)
      const scopes = yield* Scopes
      const live = { ...principal, environment: "production" as const, credential: { ...principal.credential, environment: "production" as const } }
      const seen = yield* scopes.within(live, { shopId: south.id }, observe)
      assert.deepStrictEqual(seen, { shop: south.id, ahead: 0, clockScope: null, real: start })
    }).pipe(Effect.provide(layer)))

  it.effect("signatures are stamped and checked in real time on any shop's clock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start)
      const scopes = yield* Scopes
      const seen = yield* asRequest(scopes.within(principal, { shopId: south.id }, () =>
        Effect.gen(function*() {
          const header = yield* signatureHeader("{}", ["whsec_1"])
          return { t: parseSignatureHeader(header)!.timestamp, verdict: yield* verifySignature("{}", header, ["whsec_1"]) }
        })))
      assert.deepStrictEqual(seen, { t: start / 1000, verdict: "valid" })
    }).pipe(Effect.provide(Layer.merge(layer, FoundationTest))))

  it("a named shop's scope cannot be had outside its clock (type-level)", () => {
    const check = (scopes: Scopes["Service"]) => {
      // @ts-expect-error `resolve` hands out the default shop alone, whose clock the request runs on
      scopes.resolve(principal, { shopId: south.id })
      // @ts-expect-error there is no clock to remember to move to
      scopes.onClock
      return scopes.within(principal, { shopId: south.id }, (scope) => Effect.succeed(scope.shop.id))
    }
    assert.isFunction(check)
  })
})
