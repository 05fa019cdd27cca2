/**
 * Conekta's official Node SDK (`conekta@9.0.0`, an OpenAPI client on axios) driven against the
 * simulator: the SDK's own requests must be accepted, and the SDK's own types must read the
 * answers. The SDK is pointed elsewhere by its documented `Configuration.basePath` (its own tests
 * point it at a mock server the same way, `__tests__/base-test.ts`).
 */
import { assert, describe, it } from "@effect/vitest"
import { Configuration, type OrderResponse, OrdersApi, type PaymentMethodBankTransfer, type PaymentMethodCash } from "conekta"
import { Effect } from "effect"
import { privateKey } from "../../providers/conekta/ConformanceHarness.ts"
import { ConektaSimulator } from "../../providers/conekta/ConektaSimulator.ts"
import * as Wire from "../../providers/conekta/Wire.ts"
import * as Docs from "./fixtures/conekta/docs.ts"

const sdkOnSimulator = (key = privateKey) =>
  Effect.gen(function*() {
    const sim = yield* ConektaSimulator.start({ privateKey })
    const orders = new OrdersApi(new Configuration({ accessToken: key, basePath: sim.baseUrl, baseOptions: { timeout: 5_000 } }))
    return { sim, orders }
  })

const sdk = <A>(f: () => Promise<{ readonly data: A; readonly status: number }>) =>
  Effect.tryPromise({ try: f, catch: (e) => e as { response?: { status: number; data: any } } })

/** The answer the SDK raised, as axios carries it. */
const refusal = <A>(f: () => Promise<A>) =>
  Effect.flip(Effect.tryPromise({ try: f, catch: (e) => e as { response?: { status: number; data: any } } })).pipe(
    Effect.map((e) => ({ status: e.response?.status, body: e.response?.data }))
  )

const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * 86_400

const chargeOf = (order: OrderResponse) => order.charges!.data![0]!

describe("Conekta official SDK against the simulator", () => {
  it.live("cash: the documented order, sent by the SDK, is answered with the OXXO reference and barcode, read by the SDK's types", () =>
    Effect.gen(function*() {
      const { orders, sim } = yield* sdkOnSimulator()
      const expiresAt = inDays(3)
      const created = yield* sdk(() => orders.createOrder(Docs.cashOrderRequest(expiresAt), "es"))
      assert.strictEqual(created.status, 200)
      const order: OrderResponse = created.data
      assert.match(order.id ?? "", /^ord_/)
      assert.strictEqual(order.payment_status, "pending_payment")
      assert.strictEqual(order.amount, 1560)
      assert.strictEqual(order.metadata?.["transaction_id"], "TXN-DOCS-CASH-0001")
      const method = chargeOf(order).payment_method as PaymentMethodCash
      assert.strictEqual(method.object, "cash_payment")
      assert.strictEqual(method.type, "oxxo")
      assert.match(method.reference ?? "", /^\d{14}$/)
      assert.match(method.barcode_url ?? "", /^https?:\/\//)
      assert.strictEqual(method.expires_at, expiresAt)
      // The API version the SDK asks for is the one the connector sends.
      assert.deepStrictEqual(sim.acceptHeaders, [Wire.acceptHeader])
    }))

  it.live("cash: the SDK's own test body (an existing customer_id, pre_authorize, shipping contact) is accepted", () =>
    Effect.gen(function*() {
      const { orders } = yield* sdkOnSimulator()
      const created = yield* sdk(() => orders.createOrder(Docs.sdkCashOrderRequest(inDays(30)) as never))
      assert.strictEqual(created.data.payment_status, "pending_payment")
      assert.strictEqual(created.data.customer_info?.["customer_id" as never], "cus_2tKcHxhTz7xU5SymF")
    }))

  it.live("SPEI: the SDK's order is answered with an 18-digit CLABE, read by the SDK's types", () =>
    Effect.gen(function*() {
      const { orders } = yield* sdkOnSimulator()
      const created = yield* sdk(() => orders.createOrder(Docs.speiOrderRequest(inDays(1))))
      const method = chargeOf(created.data).payment_method as PaymentMethodBankTransfer
      assert.strictEqual(method.object, "bank_transfer_payment")
      assert.strictEqual(method.type, "spei")
      assert.match(method.clabe ?? "", /^\d{18}$/)
      assert.strictEqual(method.bank, "STP")
    }))

  it.live("the charge's reference_id, sent with the SDK's ChargeRequest, is answered in the SDK's ChargeResponse and found by getOrders' search", () =>
    Effect.gen(function*() {
      const { orders } = yield* sdkOnSimulator()
      const { metadata: _metadata, ...withoutMetadata } = Docs.cashOrderRequest(inDays(3))
      const created = (yield* sdk(() =>
        orders.createOrder({ ...withoutMetadata, charges: [{ payment_method: { type: "cash" }, reference_id: "TXN-SDK-REF-1" }] })
      )).data
      assert.strictEqual(chargeOf(created).reference_id, "TXN-SDK-REF-1")
      const found = (yield* sdk(() => orders.getOrders("es", undefined, 10, "TXN-SDK-REF-1"))).data
      assert.deepStrictEqual(found.data.map((o) => [o.id, o.charges?.data?.[0]?.reference_id]), [[created.id, "TXN-SDK-REF-1"]])
    }))

  it.live("read, search and metadata update by the SDK; full and partial refunds with the SDK's request", () =>
    Effect.gen(function*() {
      const { orders, sim } = yield* sdkOnSimulator()
      const created = (yield* sdk(() => orders.createOrder({ ...Docs.cashOrderRequest(inDays(3)), line_items: [{ name: "Pago", unit_price: 40000, quantity: 1 }], charges: [{ amount: 40000, payment_method: { type: "cash" } }] }))).data
      const read = (yield* sdk(() => orders.getOrderById(created.id!))).data
      assert.strictEqual(read.id, created.id!)
      const found = (yield* sdk(() => orders.getOrders("es", undefined, 10, "TXN-DOCS-CASH-0001"))).data
      assert.deepStrictEqual(found.data.map((o) => o.id), [created.id])
      const updated = (yield* sdk(() => orders.updateOrder(created.id!, { metadata: { note: "sdk" } }))).data
      assert.deepStrictEqual(updated.metadata, { transaction_id: "TXN-DOCS-CASH-0001", note: "sdk" })

      // A pending voucher is not refundable.
      const early = yield* refusal(() => orders.orderRefund(created.id!, Docs.sdkRefundRequest))
      assert.strictEqual(early.status, 422)

      yield* sim.complete(created.id!)
      const partial = (yield* sdk(() => orders.orderRefund(created.id!, Docs.sdkRefundRequest))).data
      assert.strictEqual(partial.payment_status, "partially_refunded")
      assert.strictEqual(partial.amount_refunded, 15000)
      const refunds = chargeOf(partial).refunds!.data!
      assert.strictEqual(refunds.length, 1)
      assert.strictEqual(-refunds[0]!.amount, 15000)
      assert.strictEqual(refunds[0]!.object, "refund")
      assert.isUndefined(refunds[0]!.status, "a settled refund carries no status, as in the documented example")

      const rest = (yield* sdk(() => orders.orderRefund(created.id!, { amount: 25000, reason: "other" }))).data
      assert.strictEqual(rest.payment_status, "refunded")
      assert.strictEqual(chargeOf(rest).status, "refunded")
      const tooMuch = yield* refusal(() => orders.orderRefund(created.id!, { amount: 1, reason: "other" }))
      assert.strictEqual(tooMuch.status, 422)
    }))

  it.live("a pending refund is cancelled with the SDK's orderCancelRefund", () =>
    Effect.gen(function*() {
      const { orders, sim } = yield* sdkOnSimulator()
      const created = (yield* sdk(() => orders.createOrder(Docs.speiOrderRequest(inDays(1))))).data
      yield* sim.complete(created.id!)
      yield* sim.setRefundsPending(true)
      const refunded = (yield* sdk(() => orders.orderRefund(created.id!, { amount: 1000, reason: "requested_by_client" }))).data
      const refund = chargeOf(refunded).refunds!.data![0]!
      assert.strictEqual(refund.status, "pending")
      const cancelled = (yield* sdk(() => orders.orderCancelRefund(created.id!, refund.id!))).data
      assert.strictEqual(chargeOf(cancelled).refunds!.data![0]!.status, "canceled")
      assert.strictEqual(cancelled.payment_status, "paid")
    }))

  it.live("refusals the documentation lists: bad key (401), missing buyer phone, card without a token, amounts out of bounds, bad refund reason (422), unknown order (404)", () =>
    Effect.gen(function*() {
      const { orders: wrongKey } = yield* sdkOnSimulator("key_test_wrong")
      const unauthorized = yield* refusal(() => wrongKey.createOrder(Docs.cashOrderRequest(inDays(1))))
      assert.strictEqual(unauthorized.status, 401)
      assert.deepStrictEqual(
        [unauthorized.body.type, unauthorized.body.details[0].code],
        [Docs.authenticationError.type, Docs.authenticationError.details[0]!.code]
      )

      const { orders, sim } = yield* sdkOnSimulator()
      const { phone: _phone, ...withoutPhone } = Docs.cashOrderRequest(inDays(1)).customer_info
      const noPhone = yield* refusal(() => orders.createOrder({ ...Docs.cashOrderRequest(inDays(1)), customer_info: withoutPhone as never }))
      assert.strictEqual(noPhone.status, 422)
      assert.strictEqual(noPhone.body.type, "parameter_validation_error")
      assert.strictEqual(noPhone.body.details[0].param, "customer_info.phone")

      const card = yield* refusal(() => orders.createOrder({ ...Docs.cashOrderRequest(inDays(1)), charges: [{ payment_method: { type: "card" } }] }))
      assert.strictEqual(card.status, 422)
      assert.deepStrictEqual(card.body.details[0].message, Docs.tokenError.details[0]!.message)

      const below = { ...Docs.cashOrderRequest(inDays(1)), line_items: [{ name: "Poco", unit_price: 999, quantity: 1 }], charges: [{ payment_method: { type: "cash" } }] }
      assert.strictEqual((yield* refusal(() => orders.createOrder(below))).status, 422)
      const above = { ...Docs.cashOrderRequest(inDays(1)), line_items: [{ name: "Mucho", unit_price: 1_000_001, quantity: 1 }], charges: [{ payment_method: { type: "cash" } }] }
      assert.strictEqual((yield* refusal(() => orders.createOrder(above))).status, 422)
      const mismatch = { ...Docs.cashOrderRequest(inDays(1)), charges: [{ amount: 1561, payment_method: { type: "cash" } }] }
      assert.strictEqual((yield* refusal(() => orders.createOrder(mismatch))).status, 422)
      const past = yield* refusal(() => orders.createOrder(Docs.cashOrderRequest(inDays(-1))))
      assert.strictEqual(past.status, 422)

      const created = (yield* sdk(() => orders.createOrder(Docs.cashOrderRequest(inDays(1))))).data
      yield* sim.complete(created.id!)
      const badReason = yield* refusal(() => orders.orderRefund(created.id!, { amount: 100, reason: "because" }))
      assert.strictEqual(badReason.status, 422)
      for (const reason of Docs.refundReasons) {
        assert.strictEqual((yield* sdk(() => orders.orderRefund(created.id!, { amount: 100, reason }))).status, 200)
      }

      const missing = yield* refusal(() => orders.getOrderById("ord_2tUhuyzqLi6UJE9D12"))
      assert.strictEqual(missing.status, 404)
      assert.deepStrictEqual([missing.body.type, missing.body.details[0].code], [Docs.notFoundError.type, Docs.notFoundError.details[0]!.code])
    }))
})
