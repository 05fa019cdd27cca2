/**
 * A payment is routed from the snapshot of its shop's routing that its engine keeps for
 * `routesCacheMs`: what this engine changes or learns counts at once; what another replica
 * changes or records counts once the kept snapshot is older than that; a payment that would probe
 * a half-open circuit reads afresh, so two replicas do not probe together. Two engines on one
 * memory store are the two replicas; time is TestClock's.
 */
import { assert, describe, it } from "@effect/vitest"
import { type Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import { type PaymentProvider, ProviderError } from "../../core/ports/PaymentProvider.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { ProviderRegistry } from "../../core/ports/ProviderRegistry.ts"
import { Routing, routesCacheMs } from "../../core/routing/Routing.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { EngineTestWith, newScope } from "../support/Engine.ts"

/** A provider that takes every charge, or fails each one as unavailable while `failing`. */
const upstream = (id: string, state: { failing: boolean }): PaymentProvider => ({
  id,
  displayName: id,
  environments: ["sandbox"],
  supports: () => true,
  charge: (request) =>
    Effect.suspend(() =>
      state.failing
        ? Effect.fail(ProviderError.failed({ providerId: id, code: "upstream_unavailable", message: "down" }))
        : Effect.succeed({ providerRef: `${id}_${request.idempotencyKey}`, status: "pending" as const, paymentFormUrl: "", paymentData: {} })
    ),
  status: (providerRef) => Effect.succeed({ providerRef, status: "pending" }),
  verifyCallback: () => Effect.succeed([]),
  refund: () => Effect.succeed({ providerRef: "r", status: "succeeded" as const })
})

const pix = findMethod("sbx_pix")!
const facts = { country: pix.country, paymentMethodId: pix.id, method: pix.method, currency: pix.currencies[0]!, amountUsd: Money.decimal("30"), tags: {} }

/** Two engines on one memory store, providers `a` (priority 1) and `b` (2) on a new shop's routes. */
const twoEngines = (states: { readonly a: { failing: boolean }; readonly b: { failing: boolean } }) =>
  Effect.gen(function*() {
    const store = Layer.succeedContext(yield* Layer.build(MemoryStore.layer))
    const one = yield* Layer.build(EngineTestWith(Payouts.noProviders, store))
    const two = yield* Layer.build(EngineTestWith(Payouts.noProviders, store))
    const on = <A, E>(engine: Context.Context<never>, effect: Effect.Effect<A, E, any>) => Effect.provide(effect, engine) as Effect.Effect<A, E>
    const scope = yield* on(one, newScope())
    const [idA, idB] = [`a_${scope.shop.id}`, `b_${scope.shop.id}`]
    for (const engine of [one, two]) {
      yield* on(engine, Effect.flatMap(ProviderRegistry, (registry) =>
        Effect.andThen(registry.register(upstream(idA, states.a)), registry.register(upstream(idB, states.b)))))
    }
    const route = (providerId: string, priority: number, enabled: boolean) =>
      on(one, Effect.flatMap(Routing, (routing) =>
        routing.putRoute({ environment: "sandbox", shopId: scope.shop.id, providerId, priority, methodIds: null, enabled })))
    yield* route(idA, 1, true)
    yield* route(idB, 2, true)
    // The sandbox provider serves a shop with routes only when one names it: here it takes what a and b do not.
    yield* route("sandbox", 3, true)
    /** The providers a payment would try on an engine, each with its circuit. */
    const plan = (engine: Context.Context<never>) =>
      on(engine, Effect.map(Effect.flatMap(Routing, (routing) => routing.plan("sandbox", scope.shop.id, pix, facts)), (planned) =>
        planned.providers.map((p) => `${p.provider.id.slice(0, 1)}:${p.routing.circuit}`)))
    const pay = (engine: Context.Context<never>) =>
      on(engine, Effect.flatMap(Payments, (payments) => payments.create(scope, { amount: Money.decimal("30"), paymentMethodId: pix.id })))
    return { one, two, idA, idB, route, plan, pay }
  })

describe("routing snapshots kept per engine", () => {
  it.effect("a replica's route change and outcomes count here within routesCacheMs, this engine's at once; a probe reads afresh", () =>
    Effect.gen(function*() {
      const b = { failing: false }
      const { one, two, idA, route, plan, pay } = yield* twoEngines({ a: { failing: false }, b })
      assert.deepStrictEqual(yield* plan(two), ["a:closed", "b:closed", "s:closed"])
      // Engine one takes `a` out of the shop's routes: at once there, on two once its snapshot is old.
      yield* route(idA, 1, false)
      assert.deepStrictEqual(yield* plan(one), ["b:closed", "s:closed"])
      assert.deepStrictEqual(yield* plan(two), ["a:closed", "b:closed", "s:closed"])
      yield* TestClock.adjust(routesCacheMs + 1)
      assert.deepStrictEqual(yield* plan(two), ["b:closed", "s:closed"])

      // `b` fails three payments on engine one (the sandbox takes them): its circuit opens there at
      // once, on two within routesCacheMs.
      b.failing = true
      for (let i = 0; i < 3; i++) assert.strictEqual((yield* pay(one)).provider, "sandbox")
      assert.deepStrictEqual(yield* plan(one), ["s:closed"])
      assert.deepStrictEqual(yield* plan(two), ["b:closed", "s:closed"])
      yield* TestClock.adjust(routesCacheMs + 1)
      assert.deepStrictEqual(yield* plan(two), ["s:closed"])

      // A minute after its last failure `b` is half-open. Two keeps a snapshot read just before;
      // one probes first; two, whose snapshot would lead with that half-open circuit, reads afresh
      // and waits for the probe's answer.
      yield* TestClock.adjust("58500 millis")
      assert.deepStrictEqual(yield* plan(two), ["s:closed"])
      yield* TestClock.adjust("600 millis")
      b.failing = false
      assert.deepStrictEqual(yield* plan(one), ["b:half_open", "s:closed"])
      assert.deepStrictEqual(yield* plan(two), ["s:closed"])
    }))

  it.effect("this engine's newest outcomes count at once however many it recorded since its snapshot was read", () =>
    Effect.gen(function*() {
      const a = { failing: false }
      const { one, plan, pay } = yield* twoEngines({ a, b: { failing: false } })
      assert.deepStrictEqual(yield* plan(one), ["a:closed", "b:closed", "s:closed"])
      // More successes of `a` than routing's health window, then three failures, all within one
      // kept snapshot: the failures are the newest, and open `a`'s circuit at once.
      for (let i = 0; i < 60; i++) assert.strictEqual((yield* pay(one)).provider.slice(0, 2), "a_")
      a.failing = true
      for (let i = 0; i < 3; i++) assert.strictEqual((yield* pay(one)).provider.slice(0, 2), "b_")
      assert.deepStrictEqual(yield* plan(one), ["b:closed", "s:closed"])
    }))
})
