/**
 * The swaps speak one vocabulary: the payout swap's quote takes the names its execution takes
 * (`toCurrency`, `amountUsd`; `to` and `amount` still work), the pay-in swap's quote takes its
 * execution's `fromCurrency` beside the spec's `from`, and a refusal names the field the client
 * sent, not the engine's own word for it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

/** The part of a refusal's error envelope this test reads: its code and the paths of its issues. */
const Refusal = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, details: Schema.Struct({ issues: Schema.Array(Schema.Struct({ path: Schema.String })) }) })
})
type Reply = { readonly status: number; readonly body: unknown }
const refusedNaming = (reply: Reply, field: string) => {
  assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
  const { error } = Schema.decodeUnknownSync(Refusal)(reply.body)
  assert.strictEqual(error.code, "invalid_request")
  assert.deepStrictEqual(error.details.issues.map((i) => i.path), [field], JSON.stringify(reply.body))
}

describe("swap vocabulary", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("payout swap: quote and execution share toCurrency and amountUsd; errors name the field sent", () =>
      Effect.gen(function*() {
        const bearer = (yield* createMerchant()).keys.sandbox.secretKey
        const quote = yield* call("GET", "/api/v1/me/payout/swap?toCurrency=MXN&amountUsd=10", { bearer })
        assert.strictEqual(quote.status, 200, JSON.stringify(quote.body))
        assert.strictEqual(quote.body.quote.toCurrency, "MXN")
        assert.strictEqual(quote.body.quote.amountUsd, 10)
        const legacy = yield* call("GET", "/api/v1/me/payout/swap?to=MXN&amount=10", { bearer })
        assert.strictEqual(legacy.status, 200, JSON.stringify(legacy.body))
        assert.deepStrictEqual(legacy.body.quote.amount, quote.body.quote.amount)

        refusedNaming(yield* call("GET", "/api/v1/me/payout/swap?toCurrency=EUR&amountUsd=10", { bearer }), "toCurrency")
        refusedNaming(yield* call("GET", "/api/v1/me/payout/swap?to=EUR&amount=10", { bearer }), "to")
        refusedNaming(yield* call("GET", "/api/v1/me/payout/swap?amountUsd=10", { bearer }), "toCurrency")
        refusedNaming(yield* call("GET", "/api/v1/me/payout/swap?toCurrency=MXN", { bearer }), "amountUsd")
        refusedNaming(yield* call("GET", "/api/v1/me/payout/swap?to=MXN&toCurrency=BRL&amountUsd=10", { bearer }), "to")
        refusedNaming(yield* call("POST", "/api/v1/me/payout/swap", { bearer, body: { toCurrency: "EUR", amountUsd: 1 } }), "toCurrency")
      }))

    it.effect("pay-in swap: the quote takes from or fromCurrency; errors name the field sent", () =>
      Effect.gen(function*() {
        const bearer = (yield* createMerchant()).keys.sandbox.secretKey
        const spec = yield* call("GET", "/api/v1/me/balance/swap?from=BRL&amount=100", { bearer })
        assert.strictEqual(spec.status, 200, JSON.stringify(spec.body))
        const body = yield* call("GET", "/api/v1/me/balance/swap?fromCurrency=BRL&amount=100", { bearer })
        assert.strictEqual(body.status, 200, JSON.stringify(body.body))
        assert.deepStrictEqual(body.body.quote, spec.body.quote)

        refusedNaming(yield* call("GET", "/api/v1/me/balance/swap?from=USD&amount=1", { bearer }), "from")
        refusedNaming(yield* call("GET", "/api/v1/me/balance/swap?fromCurrency=USD&amount=1", { bearer }), "fromCurrency")
        refusedNaming(yield* call("GET", "/api/v1/me/balance/swap?amount=1", { bearer }), "from")
        refusedNaming(yield* call("POST", "/api/v1/me/balance/swap", { bearer, body: { fromCurrency: "USD", amount: 1 } }), "fromCurrency")
      }))
  })
})
