/**
 * `payment.captured` is the sandbox simulator's alias of `payment.completed` (spec 6): a bank
 * transfer credited to a deposit account fires `payment.completed` and `deposit.credited`, never
 * `payment.captured`; a payment the sandbox provider completes still fires both. Requests go
 * through the typed client (TypedApi.ts).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { createMerchant, eventually, testHost } from "../support/Host.ts"
import { apiAs } from "../support/TypedApi.ts"

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

describe("events of a deposit credit", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a deposit credit: payment.completed and deposit.credited, no payment.captured; a sandbox card payment: completed and captured", () =>
      Effect.gen(function*() {
        const api = yield* apiAs((yield* createMerchant()).keys.sandbox.secretKey)
        const events = (relatedId: string) => Effect.map(api.events.list({ query: { relatedId } }), (r) => r.data.map((e) => e.type).sort())

        const { account } = yield* api.deposits.getOrCreate({ payload: { endUserRef: "u-1", name: Redacted.make("María López"), email: Redacted.make("maria@example.com") } })
        const [credited, creditedReply] = yield* api.deposits.simulate({
          params: { id: account.id },
          payload: { amount: Money.decimal("1850"), payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" },
          ...withResponse
        })
        assert.strictEqual(creditedReply.status, 201)
        const transactionId = credited.deposit.transactionId!
        assert.deepStrictEqual(yield* events(transactionId), ["deposit.credited", "payment.completed"])

        const [card, cardReply] = yield* api.payments.create({
          payload: { amount: Money.decimal("100"), paymentMethodId: "sbx_card", userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com") },
          headers: { "sandbox-simulate": "paid" },
          ...withResponse
        })
        assert.strictEqual(cardReply.status, 201)
        yield* api.sandbox.advance({ payload: { seconds: 1 }, headers: {} })
        const paid = yield* eventually(events(card.transactionId), (t) => t.includes("payment.completed"))
        assert.deepStrictEqual(paid, ["payment.captured", "payment.completed"])
      }))
  })
})
