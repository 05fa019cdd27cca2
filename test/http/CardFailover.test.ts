/**
 * Card failover across acquirers, through the API as a merchant calls it: two card acquirers
 * (connector instances of a scripted test connector, in-process) route a shop's Visa payments in
 * that order. A soft decline from the first presents THE SAME card token to the second; a hard
 * decline stops the cascade; no answer never cascades (a retry with the same key asks the first
 * again, with the same upstream key). Every attempt is written ahead: each acquirer, when called,
 * reads the payment through the API and finds its own attempt in flight. The payment shows each
 * attempt's provider, outcome and normalized decline; `/metrics` counts card attempts by provider,
 * brand, outcome and decline. Routing rules pick an acquirer by brand and BIN range, and a card
 * condition that can never hold is refused 422 `routing_rule_invalid`.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { type StoreLayer, storeTargets } from "../support/Stores.ts"
import { type ChargeAccepted, type PaymentProvider, ProviderError } from "../../core/ports/PaymentProvider.ts"
import type { Connector } from "../../providers/kit/Connector.ts"
import { stubProvider } from "../support/Engine.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, signInMerchant } from "../support/Console.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, reachableHost, testHost } from "../support/Host.ts"

type Answer = "approve" | "soft" | "hard" | "no_answer"

interface Seen {
  readonly provider: string
  readonly transactionId: string
  readonly idempotencyKey: string
  readonly token: string | undefined
  /** The instalment count the charge asked (`ChargeRequest.installments`), if any. */
  readonly installments?: number | undefined
  /** The payment's last attempt as the API showed it while this acquirer was being called. */
  readonly written: { readonly provider: string; readonly outcome: string } | undefined
}

/** What the scripted acquirers answer, and what they were asked; set by each test. */
const world = {
  answers: new Map<string, Answer>(),
  seen: [] as Array<Seen>,
  sk: "",
  keys: undefined as { readonly publishableKey: string; readonly secretKey: string } | undefined
}

const answerOf = (id: string, transactionId: string): Effect.Effect<ChargeAccepted, ProviderError> => {
  switch (world.answers.get(id) ?? "approve") {
    case "approve":
      return Effect.succeed({ providerRef: `${id}_${transactionId}`, status: "pending", paymentFormUrl: "", paymentData: {} })
    case "soft":
      return Effect.fail(ProviderError.failed({ providerId: id, code: "do_not_honour", message: "issuer answered 05, do not honour" }))
    case "hard":
      return Effect.fail(ProviderError.declined({ providerId: id, code: "insufficient_funds", message: "issuer answered 51, insufficient funds" }))
    case "no_answer":
      return Effect.fail(ProviderError.outcomeUnknown({ providerId: id, code: "timeout", message: "no answer in time" }))
  }
}

/** A card acquirer whose answers the test scripts; it reads the payment through the API before answering. */
const acquirer = (id: string, base: () => string): PaymentProvider =>
  stubProvider(id, {
    supports: (m) => m.channel === "CREDIT_CARD",
    charge: (request) =>
      Effect.gen(function*() {
        const read = yield* Effect.promise(() =>
          fetch(`${base()}/api/v1/payments/${request.transactionId}`, { headers: { authorization: `Bearer ${world.sk}` } }).then((r) => r.json() as Promise<any>)
        )
        const last = read?.routing?.attempts?.at(-1)
        world.seen.push({
          provider: id,
          transactionId: request.transactionId,
          idempotencyKey: request.idempotencyKey,
          token: request.card?.token,
          installments: request.installments?.count,
          written: last === undefined ? undefined : { provider: last.provider, outcome: last.outcome }
        })
        return yield* answerOf(id, request.transactionId)
      })
  })

class Harness extends Context.Service<Harness, { readonly vault: Effect.Success<ReturnType<typeof fakeVault>>; readonly base: { url: string } }>()("test/CardFailover/Harness") {}

const scripted = (base: { url: string }): Connector => ({
  kind: "scripted-card",
  secrets: [],
  paymentProvider: (settings) => Effect.succeed(acquirer(settings.id, () => base.url))
})

const hostWithAcquirers = (store: StoreLayer, host: typeof testHost = testHost) => Layer.unwrap(Effect.gen(function*() {
  const vault = yield* fakeVault()
  const base = { url: "" }
  const instance = (id: string) => connectorInstance(scripted(base), { id, environment: "sandbox", baseUrl: "http://127.0.0.1:9" }, {})
  return Layer.merge(
    host(store, {
      connectors: [instance("acq-a"), instance("acq-b")],
      vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") })
    }),
    Layer.succeed(Harness, { vault, base })
  )
}))

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }

/** A new merchant whose shop routes Visa (1004) to acq-a then acq-b, statically; its sandbox key. */
const setup = Effect.gen(function*() {
  const { vault, base } = yield* Harness
  base.url = yield* baseUrl
  const { keys, merchant, shops } = yield* createMerchant()
  const shopId = shops[0]!.id
  for (const [providerId, priority, enabled] of [["acq-a", 1, true], ["acq-b", 2, true], ["sandbox", 3, false]] as const) {
    const put = yield* call("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })
    assert.strictEqual(put.status, 200)
  }
  const routing = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", strategy: "static", rules: [] } })
  assert.strictEqual(routing.status, 200)
  world.sk = keys.sandbox.secretKey
  world.keys = keys.sandbox
  world.seen = []
  world.answers = new Map()
  const card = (token: string, number = "4111111111111111") => vault.add(testCard(merchant.id, token, { brand: "visa", number }))
  return { sk: keys.sandbox.secretKey, shopId, card }
})

const pay = (sk: string, token: string, idempotencyKey?: string) =>
  call("POST", "/api/v1/payments", {
    bearer: sk,
    body: { amount: 50, paymentMethodId: "1004", ...buyer, card: { token } },
    ...(idempotencyKey === undefined ? {} : { headers: { "idempotency-key": idempotencyKey } })
  })

const attemptsOf = (sk: string, id: string) =>
  Effect.map(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) =>
    (r.body.routing.attempts as Array<any>).map((a) => ({ provider: a.provider, outcome: a.outcome, decline: a.decline })))

/** The value of the Prometheus sample whose name and labels include these. */
const sample = (text: string, name: string, labels: Record<string, string>) =>
  text.split("\n")
    .filter((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0)

const scrape = Effect.flatMap(baseUrl, (base) =>
  Effect.promise(() => fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } }).then((r) => r.text())))

const softDecline = () =>
  Effect.gen(function*() {
    const { sk, card } = yield* setup
    card("card_softaaaaaaaaaaaaaaaaaaaa")
    world.answers.set("acq-a", "soft")
    const metricsBefore = yield* scrape
    const created = yield* pay(sk, "card_softaaaaaaaaaaaaaaaaaaaa")
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    const id = created.body.transactionId as string
    assert.deepStrictEqual(world.seen.map((s) => [s.provider, s.token, s.idempotencyKey]), [
      ["acq-a", "card_softaaaaaaaaaaaaaaaaaaaa", `${id}:acq-a`],
      ["acq-b", "card_softaaaaaaaaaaaaaaaaaaaa", `${id}:acq-b`]
    ])
    // Write-ahead: each acquirer, when called, finds its own attempt committed in flight.
    assert.deepStrictEqual(world.seen.map((s) => s.written), [{ provider: "acq-a", outcome: "in_flight" }, { provider: "acq-b", outcome: "in_flight" }])
    assert.deepStrictEqual(yield* attemptsOf(sk, id), [
      { provider: "acq-a", outcome: "failed", decline: "do_not_honour" },
      { provider: "acq-b", outcome: "accepted", decline: null }
    ])
    const admin = yield* call("GET", `/admin/v1/payments/${id}/routing`, { bearer: adminToken })
    assert.deepStrictEqual((admin.body.attempts as Array<any>).map((a) => a.decline), ["do_not_honour", null])
    const metrics = yield* scrape
    const moved = (labels: Record<string, string>) => sample(metrics, "card_attempts_total", labels) - sample(metricsBefore, "card_attempts_total", labels)
    assert.strictEqual(moved({ provider: "acq-a", brand: "visa", outcome: "failed", decline: "do_not_honour" }), 1)
    assert.strictEqual(moved({ provider: "acq-b", brand: "visa", outcome: "accepted", decline: "none" }), 1)
    assert.notInclude(metrics, "411111", "no BIN digits in any label")
  })

describe("card failover across acquirers", () => {
  // The soft decline's record (both attempts, their declines) on every store.
  for (const target of storeTargets("card_failover")) {
    layer(hostWithAcquirers(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect(`${target.name}: a soft decline presents the same token to the next acquirer, which approves; each attempt written ahead; the payment shows both with their declines`, softDecline)
    })
  }

  layer(hostWithAcquirers(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a hard decline stops the cascade: the next acquirer is never called, and the error names the decline", () =>
      Effect.gen(function*() {
        const { sk, card } = yield* setup
        card("card_hardaaaaaaaaaaaaaaaaaaaa")
        world.answers.set("acq-a", "hard")
        const refused = yield* pay(sk, "card_hardaaaaaaaaaaaaaaaaaaaa")
        assert.strictEqual(refused.body.error.code, "cascade_exhausted")
        assert.strictEqual(refused.body.error.details.reason, "provider_declined")
        assert.deepStrictEqual(
          (refused.body.error.details.attempts as Array<any>).map((a) => [a.provider, a.outcome, a.decline]),
          [["acq-a", "declined", "insufficient_funds"]]
        )
        assert.deepStrictEqual(world.seen.map((s) => s.provider), ["acq-a"])
        assert.deepStrictEqual(yield* attemptsOf(sk, refused.body.error.details.transactionId), [{ provider: "acq-a", outcome: "declined", decline: "insufficient_funds" }])
      }))

    it.effect("no answer never cascades: 503, the next acquirer is never called; a retry with the key asks the first again with the same upstream key", () =>
      Effect.gen(function*() {
        const { sk, card } = yield* setup
        card("card_timeoutaaaaaaaaaaaaaaaaa")
        world.answers.set("acq-a", "no_answer")
        const lost = yield* pay(sk, "card_timeoutaaaaaaaaaaaaaaaaa", "order-timeout-1")
        assert.strictEqual(lost.status, 503)
        assert.strictEqual(lost.body.error.code, "provider_outcome_unknown")
        const id = lost.body.error.details.transactionId as string
        assert.deepStrictEqual(world.seen.map((s) => s.provider), ["acq-a"])
        assert.deepStrictEqual(yield* attemptsOf(sk, id), [{ provider: "acq-a", outcome: "unknown", decline: null }])
        world.answers.set("acq-a", "approve")
        const retried = yield* pay(sk, "card_timeoutaaaaaaaaaaaaaaaaa", "order-timeout-1")
        assert.strictEqual(retried.status, 201, JSON.stringify(retried.body))
        assert.strictEqual(retried.body.transactionId, id)
        assert.deepStrictEqual(world.seen.map((s) => [s.provider, s.idempotencyKey]), [["acq-a", `${id}:acq-a`], ["acq-a", `${id}:acq-a`]])
      }))

    it.effect("soft declines are answers: a run of them never opens the acquirer's circuit, which keeps its place under the health strategy", () =>
      Effect.gen(function*() {
        const { sk, shopId, card } = yield* setup
        const health = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", strategy: "health", rules: [] } })
        assert.strictEqual(health.status, 200)
        card("card_runaaaaaaaaaaaaaaaaaaaaa")
        world.answers.set("acq-a", "soft")
        const firsts: Array<string> = []
        for (let i = 0; i < 5; i++) {
          const before = world.seen.length
          assert.strictEqual((yield* pay(sk, "card_runaaaaaaaaaaaaaaaaaaaaa")).status, 201)
          firsts.push(world.seen[before]!.provider)
        }
        assert.deepStrictEqual(firsts, ["acq-a", "acq-a", "acq-a", "acq-a", "acq-a"])
      }))

    it.effect("routing rules pick the acquirer by brand and BIN range; other cards follow the shop's routes", () =>
      Effect.gen(function*() {
        const { sk, shopId, card } = yield* setup
        const put = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, {
          bearer: adminToken,
          body: {
            environment: "sandbox",
            strategy: "static",
            rules: [{ id: "visa-4111", when: { brands: ["visa"], bins: [{ prefix: "4111" }, { from: "450000", to: "459999" }] }, providers: ["acq-b", "acq-a"] }]
          }
        })
        assert.strictEqual(put.status, 200, JSON.stringify(put.body))
        card("card_bin4111aaaaaaaaaaaaaaaaa", "4111111111111111")
        card("card_bin4532aaaaaaaaaaaaaaaaa", "4532015112830366")
        card("card_bin4000aaaaaaaaaaaaaaaaa", "4000056655665556")
        for (const token of ["card_bin4111aaaaaaaaaaaaaaaaa", "card_bin4532aaaaaaaaaaaaaaaaa", "card_bin4000aaaaaaaaaaaaaaaaa"]) {
          assert.strictEqual((yield* pay(sk, token)).status, 201)
        }
        assert.deepStrictEqual(world.seen.map((s) => [s.token, s.provider]), [
          ["card_bin4111aaaaaaaaaaaaaaaaa", "acq-b"],
          ["card_bin4532aaaaaaaaaaaaaaaaa", "acq-b"],
          ["card_bin4000aaaaaaaaaaaaaaaaa", "acq-a"]
        ])
      }))

    it.effect("a rule on installments routes a card payment by its instalment count, which reaches the acquirer; one without counts 1", () =>
      Effect.gen(function*() {
        const { sk, shopId, card } = yield* setup
        const put = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, {
          bearer: adminToken,
          body: { environment: "sandbox", strategy: "static", rules: [{ id: "in-parts", when: { installments: { min: 2 } }, providers: ["acq-b", "acq-a"] }] }
        })
        assert.strictEqual(put.status, 200, JSON.stringify(put.body))
        card("card_instaaaaaaaaaaaaaaaaaaaa")
        const body = (extra: Record<string, unknown>) => ({ amount: 50, paymentMethodId: "1004", ...buyer, card: { token: "card_instaaaaaaaaaaaaaaaaaaaa" }, ...extra })
        assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: sk, body: body({ installments: { count: 3 } }) })).status, 201)
        assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: sk, body: body({}) })).status, 201)
        assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: sk, body: body({ installments: { count: 1 } }) })).status, 201)
        assert.deepStrictEqual(world.seen.map((s) => [s.provider, s.installments]), [["acq-b", 3], ["acq-a", undefined], ["acq-a", 1]])
      }))

    it.effect("a card condition that can never hold is 422 routing_rule_invalid naming the field; a malformed BIN is 400 invalid_request", () =>
      Effect.gen(function*() {
        const { shopId } = yield* setup
        const put = (when: unknown) =>
          call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", strategy: "static", rules: [{ id: "r", when, providers: ["acq-a"] }] } })
        const uneven = yield* put({ bins: [{ prefix: "4" }, { from: "5500", to: "559999" }] })
        assert.strictEqual(uneven.status, 422)
        assert.strictEqual(uneven.body.error.code, "routing_rule_invalid")
        assert.deepStrictEqual((uneven.body.error.details.issues as Array<any>).map((i) => i.path), ["rules[0].when.bins[1]"])
        const reversed = yield* put({ bins: [{ from: "559999", to: "550000" }], installments: { min: 6, max: 3 } })
        assert.deepStrictEqual([reversed.status, (reversed.body.error.details.issues as Array<any>).map((i) => i.path)], [422, ["rules[0].when.bins[0]", "rules[0].when.installments"]])
        const noCardRail = yield* put({ methods: ["pix"], brands: ["visa"] })
        assert.deepStrictEqual([noCardRail.status, noCardRail.body.error.code, noCardRail.body.error.details.issues[0].path], [422, "routing_rule_invalid", "rules[0].when"])
        const wrongBrand = yield* put({ paymentMethodIds: ["1004"], brands: ["mastercard"] })
        assert.strictEqual(wrongBrand.status, 422)
        const malformed = yield* put({ bins: [{ prefix: "41a" }] })
        assert.deepStrictEqual([malformed.status, malformed.body.error.code], [400, "invalid_request"])
        const fine = yield* put({ brands: ["visa"], installments: { min: 1, max: 1 } })
        assert.strictEqual(fine.status, 200, JSON.stringify(fine.body))
      }))
  })
})

describe.skipIf(chromiumPath === undefined)("card failover on the merchant's payment page", () => {
  layer(hostWithAcquirers(MemoryStore.layer, reachableHost), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("each acquirer tried shows with its normalized decline", () =>
      Effect.gen(function*() {
        const { card } = yield* setup
        card("card_pageaaaaaaaaaaaaaaaaaaaa")
        world.answers.set("acq-a", "soft")
        const created = yield* pay(world.sk, "card_pageaaaaaaaaaaaaaaaaaaaa")
        assert.strictEqual(created.status, 201)
        const id = created.body.transactionId as string
        const base = yield* baseUrl
        const chromium = yield* browser
        const declines = yield* Effect.promise(async () => {
          const { context, page } = await consoleContext(chromium, base)
          await signInMerchant(page, base, world.keys!, `/console/payments/${id}`)
          await page.goto(`${base}/console/payments/${id}`)
          const shown = await page.$$eval("[data-testid=timeline] [data-testid=decline]", (cs) => cs.map((c) => c.textContent))
          const timeline = await page.textContent("[data-testid=timeline]") ?? ""
          await context.close()
          return { shown, timeline }
        })
        assert.deepStrictEqual(declines.shown, ["do_not_honour"])
        assert.include(declines.timeline, "acq-a")
        assert.include(declines.timeline, "acq-b")
      }))
  })
})
