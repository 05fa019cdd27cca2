/**
 * Installments through the API as a merchant uses them: the quote (`GET /installments`), a card
 * payment created with a count (kept on the record, shown on the create answer and reads),
 * and the refusals (not a card rail, interest paid by the buyer, a count the country does not
 * allow for the amount), each before anything is written.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import type { ErrorCode } from "../../core/ApiError.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }

interface Quote {
  readonly paymentMethodId: string
  readonly currency: string
  readonly amountLocal: number
  readonly options: ReadonlyArray<{ count: number; instalmentAmount: number; firstInstalmentAmount: number; total: number; interest: string }>
}

const refusal = (answer: { status: number; body: any }, code: ErrorCode) => {
  assert.strictEqual(answer.body?.error?.code, code, JSON.stringify(answer.body))
  assert.strictEqual(answer.status, httpStatus[code])
  return answer.body.error as { code: string; details: Record<string, unknown> }
}

describe("installments", () => {
  for (const target of storeTargets("installments")) {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect(`${target.name}: a card payment made in 3 keeps its installments: the create answer, the read and the list show them`, () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const bearer = keys.sandbox.secretKey
          const created = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 20, paymentMethodId: "sbx_card", ...buyer, installments: { count: 3 } } })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          const quote = (yield* call("GET", "/api/v1/installments?paymentMethodId=sbx_card&amount=20", { bearer })).body as Quote
          const three = quote.options.find((o) => o.count === 3)!
          const shown = { count: 3, interest: "merchant", instalmentAmount: three.instalmentAmount, firstInstalmentAmount: three.firstInstalmentAmount }
          assert.deepStrictEqual(created.body.installments, shown)
          const read = yield* call("GET", `/api/v1/payments/${created.body.transactionId}`, { bearer })
          assert.deepStrictEqual(read.body.installments, shown)
          const list = yield* call("GET", "/api/v1/payments", { bearer })
          assert.deepStrictEqual(list.body.data.find((p: any) => p.id === created.body.transactionId).installments, shown)
          const plain = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 20, paymentMethodId: "sbx_card", ...buyer } })
          assert.isUndefined(plain.body.installments)
        }))
    })
  }

  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the quote converts the USD amount as a create does and lists each count with its instalments, summing to the total", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const bearer = keys.sandbox.secretKey
        const quoted = yield* call("GET", "/api/v1/installments?paymentMethodId=sbx_card&amount=20", { bearer })
        assert.strictEqual(quoted.status, 200, JSON.stringify(quoted.body))
        const quote = quoted.body as Quote
        assert.strictEqual(quote.currency, "BRL")
        assert.isAbove(quote.amountLocal, 20)
        const created = yield* call("POST", "/api/v1/payments", { bearer, body: { amount: 20, paymentMethodId: "sbx_card", ...buyer } })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        assert.strictEqual(created.body.amountLocal, quote.amountLocal)
        assert.strictEqual(quote.options[0]!.count, 1)
        const counts = quote.options.map((o) => o.count)
        // Brazil: 1 to 12, each instalment at least 5 BRL.
        assert.deepStrictEqual(counts, Array.from({ length: Math.min(12, Math.floor(quote.amountLocal / 5)) }, (_, i) => i + 1))
        for (const o of quote.options) {
          const cents = Math.round(o.firstInstalmentAmount * 100) + Math.round(o.instalmentAmount * 100) * (o.count - 1)
          assert.strictEqual(cents, Math.round(quote.amountLocal * 100))
          assert.strictEqual(o.total, quote.amountLocal)
          assert.strictEqual(o.interest, "merchant")
          if (o.count > 1) assert.isAtLeast(o.instalmentAmount, 5)
        }
      }))

    it.effect("refusals before anything is written: not a card rail, interest paid by the buyer, a count Brazil does not allow or the amount cannot carry", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const bearer = keys.sandbox.secretKey
        const before = (yield* call("GET", "/api/v1/payments", { bearer })).body.pagination.total as number
        const create = (body: Record<string, unknown>) => call("POST", "/api/v1/payments", { bearer, body: { amount: 20, paymentMethodId: "sbx_card", ...buyer, ...body } })
        refusal(yield* create({ paymentMethodId: "sbx_pix", installments: { count: 2 } }), "installments_not_accepted")
        refusal(yield* create({ installments: { count: 2, interest: "buyer" } }), "installment_interest_not_supported")
        const quote = (yield* call("GET", "/api/v1/installments?paymentMethodId=sbx_card&amount=20", { bearer })).body as Quote
        const allowed = quote.options.map((o) => o.count)
        const tooMany = refusal(yield* create({ installments: { count: 13 } }), "installments_invalid")
        assert.deepStrictEqual(tooMany.details, { allowed, minimumInstalment: 5, currency: "BRL" })
        // 1 USD is a few BRL: in 2 each instalment would be below 5 BRL.
        const small = refusal(yield* create({ amount: 1, installments: { count: 2 } }), "installments_invalid")
        assert.deepStrictEqual(small.details, { allowed: [1], minimumInstalment: 5, currency: "BRL" })
        assert.strictEqual((yield* create({ installments: { count: 0 } })).status, 400)
        assert.strictEqual((yield* call("GET", "/api/v1/payments", { bearer })).body.pagination.total, before)
        refusal(yield* call("GET", "/api/v1/installments?paymentMethodId=sbx_pix&amount=20", { bearer }), "installments_not_accepted")
        // Mexico (production's Visa rail): meses sin intereses, 3, 6, 9 or 12, each at least 100 MXN.
        const mx = (yield* call("GET", "/api/v1/installments?paymentMethodId=1042&amount=100", { bearer: keys.production.secretKey })).body as Quote
        assert.strictEqual(mx.currency, "MXN")
        assert.deepStrictEqual(mx.options.map((o) => o.count), [1, 3, 6, 9, 12].filter((c) => c === 1 || Math.floor(mx.amountLocal * 100 / c) >= 10_000))
        assert.include(mx.options.map((o) => o.count), 3)
        // Colombia: 1 only.
        const co = (yield* call("GET", "/api/v1/installments?paymentMethodId=1057&amount=100", { bearer: keys.production.secretKey })).body as Quote
        assert.deepStrictEqual(co.options.map((o) => o.count), [1])
        refusal(yield* call("GET", "/api/v1/installments?paymentMethodId=nope&amount=20", { bearer }), "cascade_exhausted")
        assert.strictEqual((yield* call("GET", "/api/v1/installments?paymentMethodId=sbx_card&amount=abc", { bearer })).status, 400)
      }))
  })
})
