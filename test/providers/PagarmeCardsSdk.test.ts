/**
 * Pagar.me's official Node SDK (`@pagarme/pagarme-nodejs-sdk`) creates credit card orders
 * against the simulator, as https://docs.pagar.me/reference/cart%C3%A3o-de-cr%C3%A9dito-1
 * documents them (`payment_method: "credit_card"`, `credit_card.card`): the SDK's own request is
 * accepted and the SDK's own models read the answer (the SDK validates every answer). The SDK is
 * pointed at the simulator as in PagarmeSdk.test.ts (an axios adapter rewriting its fixed origin).
 */
import { assert, describe, it } from "@effect/vitest"
import axios, { type AxiosAdapter } from "axios"
import { Effect } from "effect"
import { ChargesController, Client, type CreateOrderRequest, CustomError, OrdersController } from "@pagarme/pagarme-nodejs-sdk"
import { secretKey } from "../../providers/pagarme/ConformanceHarness.ts"
import { PagarmeSimulator } from "../../providers/pagarme/PagarmeSimulator.ts"

const sdkOrigin = "https://api.pagar.me/core/v5"

const sdkOnSimulator = Effect.gen(function*() {
  const sim = yield* PagarmeSimulator.start({ secretKey })
  const http = axios.getAdapter("http")
  const adapter: AxiosAdapter = (config) => http({ ...config, url: (config.url ?? "").replace(sdkOrigin, sim.baseUrl) })
  const client = new Client({
    basicAuthCredentials: { username: secretKey, password: "" },
    timeout: 5_000,
    httpClientOptions: { timeout: 5_000, retryConfig: { maxNumberOfRetries: 0 } },
    unstable_httpClientOptions: { adapter }
  })
  return { sim, orders: new OrdersController(client), charges: new ChargesController(client) }
})

const sdk = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (e) => e })

const cardOrder = (code: string, number: string, cvv = "123", operationType = "auth_and_capture"): CreateOrderRequest => ({
  code,
  closed: true,
  items: [{ amount: 2990, description: "Chaveiro do Tesseract", quantity: 1, category: "keys" }],
  customer: {
    name: "Tony Stark", email: "avengerstark@ligadajustica.com.br", document: "01234567890", type: "individual",
    documentType: "CPF", code: "cust-1", metadata: {},
    phones: { mobilePhone: { countryCode: "55", areaCode: "21", number: "922180513" } },
    address: {
      street: "Avenida Paulista", number: "1578", zipCode: "01310200", neighborhood: "Bela Vista", city: "São Paulo",
      state: "SP", country: "BR", complement: "", line1: "1578, Avenida Paulista, Bela Vista", line2: ""
    }
  },
  payments: [{
    paymentMethod: "credit_card",
    creditCard: {
      installments: 1,
      statementDescriptor: "AVENGERS",
      operationType,
      card: { number, holderName: "Tony Stark", expMonth: 1, expYear: 2030, cvv }
    }
  }]
})

describe("Pagar.me official SDK: card orders against the simulator", () => {
  it.live("an approved card (4000000000000010): the SDK reads a paid order, a captured transaction and the masked card", () =>
    Effect.gen(function*() {
      const { orders, sim } = yield* sdkOnSimulator
      const order = (yield* sdk(() => orders.createOrder(cardOrder("TXN-SDK-CARD", "4000000000000010"), "key-card-1"))).result
      assert.deepStrictEqual([order.code, order.status], ["TXN-SDK-CARD", "paid"])
      const charge = order.charges![0]!
      assert.deepStrictEqual([charge.status, charge.paymentMethod], ["paid", "credit_card"])
      const last = charge.lastTransaction as { status?: string; transactionType?: string; card?: { firstSixDigits?: string; lastFourDigits?: string } | null }
      assert.deepStrictEqual([last.transactionType, last.status], ["credit_card", "captured"])
      assert.deepStrictEqual([last.card?.firstSixDigits, last.card?.lastFourDigits], ["400000", "0010"])
      assert.notInclude(JSON.stringify(order), "4000000000000010")
      assert.strictEqual(sim.orders.size, 1)
    }))

  it.live("a refused card (4000000000000028): a failed order, a not_authorized transaction; a bad number is 422 to the SDK", () =>
    Effect.gen(function*() {
      const { orders, charges } = yield* sdkOnSimulator
      const order = (yield* sdk(() => orders.createOrder(cardOrder("TXN-SDK-CARD-NO", "4000000000000028")))).result
      assert.strictEqual(order.status, "failed")
      const charge = order.charges![0]!
      assert.strictEqual((charge.lastTransaction as { status?: string }).status, "not_authorized")
      const read = (yield* sdk(() => charges.getCharge(charge.id!))).result
      assert.strictEqual(read.status, "failed")
      const refused = yield* Effect.flip(sdk(() => orders.createOrder(cardOrder("TXN-SDK-CARD-BAD", "4000000000000011"))))
      assert.instanceOf(refused, CustomError)
      assert.strictEqual((refused as CustomError).statusCode, 422)
    }))

  it.live("a card charge refunded in part with the SDK's cancelCharge (DELETE /charges/{id} with amount)", () =>
    Effect.gen(function*() {
      const { charges, orders } = yield* sdkOnSimulator
      const id = (yield* sdk(() => orders.createOrder(cardOrder("TXN-SDK-CARD-R", "5555555555554444")))).result.charges![0]!.id!
      const part = (yield* sdk(() => charges.cancelCharge(id, { amount: 990, operationReference: "R-1" }, "refund-card-1"))).result
      assert.deepStrictEqual([part.status, part.canceledAmount, part.lastTransaction?.status], ["paid", 990, "refunded"])
    }))

  it.live("an auth_only order is held; the SDK's captureCharge (POST /charges/{id}/capture, partial) and cancelCharge (a void) are read by its models", () =>
    Effect.gen(function*() {
      const { charges, orders } = yield* sdkOnSimulator
      const held = (yield* sdk(() => orders.createOrder(cardOrder("TXN-SDK-AUTH", "4000000000000010", "123", "auth_only")))).result.charges![0]!
      assert.deepStrictEqual([held.status, held.lastTransaction?.status], ["pending", "authorized_pending_capture"])
      const captured = (yield* sdk(() =>
        charges.captureCharge(held.id!, { code: "TXN-SDK-AUTH", amount: 1990, operationReference: "TXN-SDK-AUTH:capture:1" }, "TXN-SDK-AUTH:capture:1")
      )).result
      assert.deepStrictEqual([captured.status, captured.paidAmount, captured.lastTransaction?.status], ["paid", 1990, "captured"])
      // The same key answers the same capture; a capture of a captured charge is refused (412).
      const again = (yield* sdk(() => charges.captureCharge(held.id!, { code: "TXN-SDK-AUTH", amount: 1990, operationReference: "x" }, "TXN-SDK-AUTH:capture:1"))).result
      assert.strictEqual(again.paidAmount, 1990)
      const twice = yield* Effect.flip(sdk(() => charges.captureCharge(held.id!, { code: "TXN-SDK-AUTH", amount: 1990, operationReference: "y" }, "other-key")))
      assert.strictEqual((twice as CustomError).statusCode, 412)
      const other = (yield* sdk(() => orders.createOrder(cardOrder("TXN-SDK-VOID", "4000000000000010", "123", "auth_only")))).result.charges![0]!
      const voided = (yield* sdk(() => charges.cancelCharge(other.id!, { operationReference: "TXN-SDK-VOID:void:1" }, "TXN-SDK-VOID:void:1"))).result
      assert.deepStrictEqual([voided.status, voided.lastTransaction?.status, voided.paidAmount ?? 0], ["canceled", "voided", 0])
    }))
})
