/**
 * Pagar.me's official Node SDK (`@pagarme/pagarme-nodejs-sdk`, the version in package.json)
 * driven against the simulator: the SDK's own requests must be accepted, and the SDK's own
 * schemas must read the answers (it validates every answer against its models).
 *
 * Pointing the SDK elsewhere: its base URL is fixed (`src/client.ts` `getBaseUri` answers
 * `https://api.pagar.me/core/v5` for its only environment), but the configuration's
 * `unstable_httpClientOptions` are handed to `axios.create` (`@apimatic/axios-client-adapter`
 * `HttpClient`, `clientConfigOverrides`). The test gives axios an `adapter` that rewrites that
 * origin to the simulator's and hands the request to axios's own `http` adapter, so everything
 * else (Basic auth, headers, JSON body, the SDK's serialization) is the SDK's own.
 */
import { assert, describe, it } from "@effect/vitest"
import axios, { type AxiosAdapter } from "axios"
import { Effect } from "effect"
import {
  ChargesController,
  Client,
  type CreateOrderRequest,
  CustomError,
  OrdersController
} from "@pagarme/pagarme-nodejs-sdk"
import { secretKey } from "../../providers/pagarme/ConformanceHarness.ts"
import { PagarmeSimulator } from "../../providers/pagarme/PagarmeSimulator.ts"
import * as Docs from "./fixtures/pagarme/docs.ts"

const sdkOrigin = "https://api.pagar.me/core/v5"

/** The simulator, and the SDK's controllers pointed at it. */
const sdkOnSimulator = (key = secretKey) =>
  Effect.gen(function*() {
    const sim = yield* PagarmeSimulator.start({ secretKey })
    const http = axios.getAdapter("http")
    const adapter: AxiosAdapter = (config) => http({ ...config, url: (config.url ?? "").replace(sdkOrigin, sim.baseUrl) })
    const client = new Client({
      basicAuthCredentials: { username: key, password: "" },
      timeout: 5_000,
      httpClientOptions: { timeout: 5_000, retryConfig: { maxNumberOfRetries: 0 } },
      unstable_httpClientOptions: { adapter }
    })
    return { sim, orders: new OrdersController(client), charges: new ChargesController(client) }
  })

const sdk = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (e) => e })

/** What the SDK's types require of a customer (its schemas refuse less), for the given method. */
const customer: CreateOrderRequest["customer"] = {
  name: "Tony Stark",
  email: "avengerstark@ligadajustica.com.br",
  document: "01234567890",
  type: "individual",
  documentType: "CPF",
  code: "cust-1",
  metadata: {},
  phones: { mobilePhone: { countryCode: "55", areaCode: "21", number: "922180513" } },
  address: {
    street: "Avenida Paulista", number: "1578", zipCode: "01310200", neighborhood: "Bela Vista", city: "São Paulo",
    state: "SP", country: "BR", complement: "", line1: "1578, Avenida Paulista, Bela Vista", line2: ""
  }
}

const pixOrder = (code: string, amount = 2990): CreateOrderRequest => ({
  code,
  closed: true,
  items: [{ amount, description: "Chaveiro do Tesseract", quantity: 1, category: "keys" }],
  customer,
  payments: [{ paymentMethod: "pix", pix: { expiresIn: 3600 } }]
})

const boletoOrder = (code: string): CreateOrderRequest => ({
  ...pixOrder(code, 10_000),
  payments: [{
    paymentMethod: "boleto",
    boleto: {
      retries: 0, instructions: "Pagar até o vencimento", billingAddress: customer.address, documentNumber: "123",
      statementDescriptor: "SHOP", dueAt: "2030-01-10T00:00:00Z"
    }
  }]
})

describe("Pagar.me official SDK against the simulator", () => {
  it.live("PIX: the SDK's order is accepted (with its Idempotency-Key) and the SDK reads the QR code", () =>
    Effect.gen(function*() {
      const { orders, sim } = yield* sdkOnSimulator()
      const created = yield* sdk(() => orders.createOrder(pixOrder("TXN-SDK-1"), "key-sdk-1"))
      assert.strictEqual(created.statusCode, 200)
      const order = created.result
      assert.match(order.id ?? "", /^or_/)
      assert.deepStrictEqual([order.code, order.status, order.amount], ["TXN-SDK-1", "pending", 2990])
      const charge = order.charges![0]!
      assert.match(charge.id ?? "", /^ch_/)
      const last = charge.lastTransaction as { qrCode?: string | null; qrCodeUrl?: string | null; transactionType?: string }
      assert.strictEqual(last.transactionType, "pix")
      assert.match(last.qrCode ?? "", /^000201/)
      assert.match(last.qrCodeUrl ?? "", /^http/)
      // The SDK sent the key as the `idempotency-key` header: the same key is the same order.
      const again = yield* sdk(() => orders.createOrder(pixOrder("TXN-SDK-1"), "key-sdk-1"))
      assert.strictEqual(again.result.id, order.id)
      assert.strictEqual(sim.orders.size, 1)
      assert.strictEqual(sim.requests.filter((r) => r.method === "POST")[0]!.idempotencyKey, "key-sdk-1")
    }))

  it.live("boleto: the SDK's order is accepted and the SDK reads the boleto's url, line and barcode", () =>
    Effect.gen(function*() {
      const { orders } = yield* sdkOnSimulator()
      const charge = (yield* sdk(() => orders.createOrder(boletoOrder("TXN-SDK-B")))).result.charges![0]!
      const last = charge.lastTransaction as { url?: string | null; line?: string | null; barcode?: string | null; transactionType?: string }
      assert.strictEqual(last.transactionType, "boleto")
      assert.match(last.url ?? "", /^http/)
      assert.match(last.line ?? "", /^\d{47}$/)
      assert.match(last.barcode ?? "", /^http/)
    }))

  it.live("the documentation's PIX order is accepted as written (raw JSON, no SDK)", () =>
    Effect.gen(function*() {
      const { sim } = yield* sdkOnSimulator()
      const response = yield* Effect.promise(() =>
        fetch(`${sim.baseUrl}/orders`, {
          method: "POST",
          headers: { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}`, "content-type": "application/json" },
          body: JSON.stringify(Docs.pixOrderRequest)
        })
      )
      const order = (yield* Effect.promise(() => response.json())) as { status: string; amount: number }
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual([order.status, order.amount], ["pending", 2990])
    }))

  it.live("refusals reach the SDK as its CustomError: a wrong key (401), a PIX without phone, a boleto without address, an amount of 0 (422)", () =>
    Effect.gen(function*() {
      const wrong = yield* sdkOnSimulator("sk_test_wrong")
      const unauthorized = yield* Effect.flip(sdk(() => wrong.orders.createOrder(pixOrder("TXN-SDK-401"))))
      assert.instanceOf(unauthorized, CustomError)
      assert.strictEqual((unauthorized as CustomError).statusCode, 401)

      const { orders, sim } = yield* sdkOnSimulator()
      const noPhone = { ...pixOrder("TXN-SDK-P"), customer: { ...customer, phones: {} } }
      const noAddress: CreateOrderRequest = {
        ...boletoOrder("TXN-SDK-A"),
        customer: { ...customer, address: { ...customer.address, zipCode: "", line1: "", street: "" } },
        payments: [{ ...boletoOrder("x").payments[0]!, boleto: { ...boletoOrder("x").payments[0]!.boleto!, billingAddress: { ...customer.address, zipCode: "" } } }]
      }
      for (const [body, field] of [[noPhone, "order.customer.phones"], [noAddress, "order.payments[0].boleto.billing_address"], [pixOrder("TXN-SDK-0", 0), "order.items[0].amount"]] as const) {
        const refused = yield* Effect.flip(sdk(() => orders.createOrder(body)))
        assert.instanceOf(refused, CustomError)
        assert.strictEqual((refused as CustomError).statusCode, 422)
        const result = (refused as CustomError).result as { errors?: Record<string, unknown> } | undefined
        assert.include(Object.keys(result?.errors ?? {}), field)
      }
      assert.strictEqual(sim.orders.size, 0)
    }))

  it.live("get the charge, full and partial refunds (DELETE /charges/{id}) and the charge's transactions, read by the SDK", () =>
    Effect.gen(function*() {
      const { charges, orders, sim } = yield* sdkOnSimulator()
      const whole = (yield* sdk(() => orders.createOrder(pixOrder("TXN-SDK-R1", 1050)))).result.charges![0]!.id!
      yield* sim.complete(whole)
      const read = (yield* sdk(() => charges.getCharge(whole))).result
      assert.deepStrictEqual([read.id, read.status, read.paidAmount, read.order?.code], [whole, "paid", 1050, "TXN-SDK-R1"])
      const full = (yield* sdk(() => charges.cancelCharge(whole, { operationReference: "R-1" }, "refund-key-1"))).result
      assert.deepStrictEqual([full.status, full.canceledAmount, full.lastTransaction?.status], ["canceled", 1050, "refunded"])

      const parts = (yield* sdk(() => orders.createOrder(pixOrder("TXN-SDK-R2", 1000)))).result.charges![0]!.id!
      yield* sim.complete(parts)
      const part = (yield* sdk(() => charges.cancelCharge(parts, { amount: 250, operationReference: "R-2" }, "refund-key-2"))).result
      assert.deepStrictEqual([part.status, part.canceledAmount, part.lastTransaction?.amount], ["paid", 250, 250])
      // The same key again is the same refund, not a second one.
      yield* sdk(() => charges.cancelCharge(parts, { amount: 250, operationReference: "R-2" }, "refund-key-2"))
      const listed = (yield* sdk(() => charges.getChargeTransactions(parts))).result
      assert.deepStrictEqual(listed.data?.map((t) => [t.status, t.amount]), [["paid", 1000], ["refunded", 250]])
      // Metadata: the SDK's PATCH /Charges/{id}/metadata.
      const marked = (yield* sdk(() => charges.updateChargeMetadata(parts, { metadata: { refund_R: "tran_x" } }))).result
      assert.deepStrictEqual(marked.metadata, { refund_R: "tran_x" })
    }))
})
