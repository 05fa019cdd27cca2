/**
 * The `webhooks` section of `/openapi.json` says what receivers get: across a run that emits every
 * event type (payments, refunds, chargebacks, claims, payouts, withdrawals, deposits, settlement
 * batches), each body delivered to a subscribed endpoint validates against the schema the
 * published document names for its type, with `data` typed (`$ref`s into the document's own
 * components, so a component the generator renamed or mixed up fails here), and a wrong `data`
 * does not.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect, Redacted } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { eventTypes } from "../../core/webhooks/Webhook.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { webhookReceiver } from "../support/Receiver.ts"
import { apiAs } from "../support/TypedApi.ts"

describe("webhooks section of /openapi.json", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("every event type is documented, and every body the host delivers matches the schema its document names", () =>
      Effect.scoped(Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        assert.sameMembers(Object.keys(spec.webhooks), [...eventTypes])
        const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false })
        ajv.addSchema({ $id: "doc", components: spec.components })
        const validatorOf = (type: string) => {
          const schema = JSON.parse(JSON.stringify(spec.webhooks[type].post.requestBody.content["application/json"].schema).replace(/"#\/components/g, "\"doc#/components"))
          return ajv.compile(schema)
        }

        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const api = yield* apiAs(sk)
        const hooks = yield* webhookReceiver
        yield* api.webhooks.create({ payload: { url: hooks.url, events: ["*"] }, headers: {} })
        const pay = (simulate: SandboxSimulate) =>
          Effect.map(api.payments.create({
            headers: { "sandbox-simulate": simulate },
            payload: { amount: Money.decimal("40"), paymentMethodId: "sbx_pix", merchantOrderId: `o-${simulate}`, userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com") }
          }), (created) => created.transactionId)
        const advance = (seconds: number) => api.sandbox.advance({ payload: { seconds }, headers: {} })
        const paid = yield* pay("paid")
        yield* pay("failed")
        yield* pay("chargeback")
        // A card authorization (capture: false), voided: payment.authorized and payment.voided.
        const held = yield* api.payments.create({
          headers: {},
          payload: { amount: Money.decimal("40"), paymentMethodId: "sbx_card", capture: false, userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@example.com") }
        })
        yield* api.authorizations.void({ params: { id: held.transactionId }, payload: {}, headers: {} })
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
        const failing = yield* api.withdrawals.create({
          payload: { amount: Money.decimal("20"), destination: { accountHolder: "Tienda Sol SA de CV", bankName: "BBVA México", accountNumber: "0321 8000 0118 3597 19", swiftCode: "bcmrmxmm" } },
          headers: {}
        })
        yield* api.withdrawals.simulate({ params: { id: failing.withdrawal.id }, payload: { action: "failed" } })
        const [account, accountResponse] = yield* api.deposits.getOrCreate({ payload: { endUserRef: "u1", name: Redacted.make("María López"), email: Redacted.make("maria@example.com") }, responseMode: "decoded-and-response" })
        assert.strictEqual(accountResponse.status, 201)
        const [, deposited] = yield* api.deposits.simulate({
          params: { id: account.account.id },
          payload: { amount: Money.decimal("1850"), payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" },
          responseMode: "decoded-and-response"
        })
        assert.isBelow(deposited.status, 300)

        // Long enough for the payments to settle and a settlement batch to close and be stated.
        yield* advance(3 * 86_400)

        // Raw: the bodies as the wire carried them, validated against the document's schemas.
        const delivered = yield* eventually(Effect.sync(() => [...hooks.bodies] as ReadonlyArray<{ type: string; data: object }>), (bodies) => {
          const types = new Set(bodies.map((e) => e.type))
          return eventTypes.every((type) => types.has(type))
        })
        assert.sameMembers([...new Set(delivered.map((e) => e.type))], [...eventTypes])
        for (const event of delivered) {
          const validate = validatorOf(event.type)
          assert.isTrue(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`)
        }
        const closed = delivered.find((e) => e.type === "settlement.closed")!
        assert.match((closed.data as { id: string }).id, /^STL-/)
        const completed = delivered.find((e) => e.type === "payment.completed")!
        assert.isFalse(validatorOf("payment.completed")({ ...completed, data: { id: 1 } }), "a wrong data is refused")
        assert.isFalse(validatorOf("settlement.closed")({ ...closed, data: { type: "delayed", delay: "T+1", reserve: 10, status: "pending" } }), "a payment's settlement is not a batch")
      })))
  })
})
