/**
 * The `webhooks` section of `/openapi.json` says what receivers get: every event the host emits
 * for payments, refunds, claims, payouts, withdrawals and deposits validates against the schema
 * of its type, with `data` typed
 * (`$ref`s into the document's components), and a wrong `data` does not.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { eventTypes } from "../../core/webhooks/Webhook.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { apiAs } from "../support/TypedApi.ts"

describe("webhooks section of /openapi.json", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("every event type is documented, and the events the host emits match their schema", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        assert.sameMembers(Object.keys(spec.webhooks), [...eventTypes])
        const ajv = new Ajv2020({ strict: false, allErrors: true })
        ajv.addSchema({ $id: "doc", components: spec.components })
        const validatorOf = (type: string) => {
          const schema = JSON.parse(JSON.stringify(spec.webhooks[type].post.requestBody.content["application/json"].schema).replace(/"#\/components/g, "\"doc#/components"))
          return ajv.compile(schema)
        }

        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const api = yield* apiAs(sk)
        const pay = (simulate: SandboxSimulate) =>
          Effect.map(api.payments.create({
            headers: { "sandbox-simulate": simulate },
            payload: { amount: Money.decimal("40"), paymentMethodId: "sbx_pix", merchantOrderId: `o-${simulate}`, userName: "Ana Souza", userEmail: "ana@example.com" }
          }), (created) => created.transactionId)
        const advance = (seconds: number) => api.sandbox.advance({ payload: { seconds }, headers: {} })
        const paid = yield* pay("paid")
        yield* pay("failed")
        yield* advance(1)
        const [, refunded] = yield* api.claims.refund({ params: { id: paid }, payload: { amount: Money.decimal("10") }, headers: {}, responseMode: "decoded-and-response" })
        assert.strictEqual(refunded.status, 201)
        yield* advance(3600)

        // Sandbox payouts (one completed, one failed), a withdrawal, a credited deposit.
        const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }
        for (const action of ["completed", "failed"] as const) {
          const [sent, sentResponse] = yield* api.payouts.send({ payload: { methodId: "sbx_po_mx_spei", amount: Money.decimal("100"), recipient: spei }, headers: {}, responseMode: "decoded-and-response" })
          assert.strictEqual(sentResponse.status, 201)
          const [, simulated] = yield* api.payouts.simulate({ params: { id: sent.payout.id }, payload: { action }, responseMode: "decoded-and-response" })
          assert.strictEqual(simulated.status, 200)
        }
        yield* api.identity.fundSandbox({ payload: { currency: "USD", amount: Money.decimal("100") } })
        const [withdrawal, withdrawalResponse] = yield* api.withdrawals.create({
          payload: { amount: Money.decimal("50"), destination: { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "0321 8000 0118 3597 19", swiftCode: "bcmrmxmm" } },
          headers: {},
          responseMode: "decoded-and-response"
        })
        assert.strictEqual(withdrawalResponse.status, 201)
        yield* api.withdrawals.simulate({ params: { id: withdrawal.withdrawal.id }, payload: { action: "completed" } })
        const [account, accountResponse] = yield* api.deposits.getOrCreate({ payload: { endUserRef: "u1", name: "María López", email: "maria@example.com" }, responseMode: "decoded-and-response" })
        assert.strictEqual(accountResponse.status, 201)
        const [, deposited] = yield* api.deposits.simulate({
          params: { id: account.account.id },
          payload: { amount: Money.decimal("1850"), payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" },
          responseMode: "decoded-and-response"
        })
        assert.isBelow(deposited.status, 300)

        // Raw: the events as the wire carries them, validated against the document's schemas.
        const emitted = (yield* call("GET", "/api/v1/events?limit=100", { bearer: sk })).body.data as ReadonlyArray<{ type: string; data: object }>
        const types = new Set(emitted.map((e) => e.type))
        for (
          const expected of [
            "payment.completed", "payment.failed", "payment.refunded", "claim.opened", "claim.resolved",
            "payout.completed", "payout.failed", "withdrawal.completed", "deposit.credited"
          ]
        ) assert.isTrue(types.has(expected), expected)
        for (const event of emitted) {
          const validate = validatorOf(event.type)
          assert.isTrue(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`)
        }
        const completed = emitted.find((e) => e.type === "payment.completed")!
        assert.isFalse(validatorOf("payment.completed")({ ...completed, data: { id: 1 } }), "a wrong data is refused")
      }))
  })
})
