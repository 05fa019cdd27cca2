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
import { eventTypes } from "../../core/webhooks/Webhook.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"

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
        const pay = (simulate: string) =>
          Effect.map(call("POST", "/api/v1/payments", {
            bearer: sk,
            headers: { "sandbox-simulate": simulate },
            body: { amount: 40, paymentMethodId: "sbx_pix", merchantOrderId: `o-${simulate}`, userName: "Ana Souza", userEmail: "ana@example.com" }
          }), (r) => r.body.transactionId as string)
        const paid = yield* pay("paid")
        yield* pay("failed")
        yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 1 } })
        assert.strictEqual((yield* call("POST", `/api/v1/payments/${paid}/refund`, { bearer: sk, body: { amount: 10 } })).status, 201)
        yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 3600 } })

        // Sandbox payouts (one completed, one failed), a withdrawal, a credited deposit.
        const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }
        for (const action of ["completed", "failed"]) {
          const sent = yield* call("POST", "/api/v1/me/payout/send", { bearer: sk, body: { methodId: "sbx_po_mx_spei", amount: 100, recipient: spei } })
          assert.strictEqual(sent.status, 201, JSON.stringify(sent.body))
          assert.strictEqual((yield* call("POST", `/api/v1/me/payout/send/${sent.body.payout.id}/simulate`, { bearer: sk, body: { action } })).status, 200)
        }
        yield* call("POST", "/api/v1/me/balance/fund-sandbox", { bearer: sk, body: { currency: "USD", amount: 100 } })
        const withdrawal = yield* call("POST", "/api/v1/me/withdrawals", {
          bearer: sk,
          body: { amount: 50, destination: { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "0321 8000 0118 3597 19", swiftCode: "bcmrmxmm" } }
        })
        assert.strictEqual(withdrawal.status, 201, JSON.stringify(withdrawal.body))
        yield* call("POST", `/api/v1/me/withdrawals/${withdrawal.body.withdrawal.id}/simulate`, { bearer: sk, body: { action: "completed" } })
        const account = yield* call("POST", "/api/v1/me/deposit-accounts", { bearer: sk, body: { endUserRef: "u1", name: "María López", email: "maria@example.com" } })
        assert.strictEqual(account.status, 201, JSON.stringify(account.body))
        const deposited = yield* call("POST", `/api/v1/me/deposit-accounts/${account.body.account.id}/simulate-deposit`, {
          bearer: sk,
          body: { amount: 1850, payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" }
        })
        assert.isBelow(deposited.status, 300, JSON.stringify(deposited.body))

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
