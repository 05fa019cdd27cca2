/**
 * Mercado Pago's official Node SDK (`mercadopago` on npm, the version in package.json) driven
 * against the simulator: the SDK's own requests must be accepted, and the SDK's own types must read
 * the answers. The SDK has no base-URL option: every call goes through `RestClient.fetch`, which
 * reads the static `AppConfig.BASE_URL` at call time, so the test points that at the simulator
 * (and puts it back). Automatic retries are turned off so a refusal is seen as the SDK raises it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  MercadoPagoConfig,
  MPBadRequestError,
  Payment,
  PaymentRefund,
  WebhookSignatureValidator
} from "mercadopago"
import { AppConfig } from "mercadopago/dist/utils/config/index.js"
import { accessToken, webhookSecret } from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import * as Docs from "./fixtures/mercadopago/docs.ts"

/** The simulator with the SDK pointed at it for the test's scope. */
const sdkOnSimulator = Effect.gen(function*() {
  const sim = yield* MercadoPagoSimulator.start({ accessToken, webhookSecret })
  // `BASE_URL` is declared readonly in the SDK's types; it is a plain static property at run time.
  const appConfig = AppConfig as { BASE_URL: string }
  const previous = appConfig.BASE_URL
  yield* Effect.acquireRelease(
    Effect.sync(() => void (appConfig.BASE_URL = sim.baseUrl)),
    () => Effect.sync(() => void (appConfig.BASE_URL = previous))
  )
  const config = new MercadoPagoConfig({ accessToken, options: { timeout: 5_000, maxRetries: 0 } })
  return { sim, payments: new Payment(config), refunds: new PaymentRefund(config) }
})

const sdk = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (e) => e })

describe("Mercado Pago official SDK against the simulator", () => {
  it.live("PIX: the documentation's minimal body, sent by the SDK, is accepted and the SDK reads the QR code", () =>
    Effect.gen(function*() {
      const { payments, sim } = yield* sdkOnSimulator
      const created = yield* sdk(() => payments.create({ body: Docs.pixMinimalRequest }))
      assert.strictEqual(created.api_response.status, 201)
      assert.isNumber(created.id)
      assert.strictEqual(created.status, "pending")
      assert.strictEqual(created.payment_method_id, "pix")
      assert.match(created.point_of_interaction?.transaction_data?.qr_code ?? "", /^000201/)
      assert.isString(created.point_of_interaction?.transaction_data?.qr_code_base64)
      assert.match(created.point_of_interaction?.transaction_data?.ticket_url ?? "", /^http/)
      // The SDK generated its own X-Idempotency-Key (a UUID v4) and sent it.
      const post = sim.requests.find((r) => r.method === "POST" && r.path === "/v1/payments")!
      assert.match(post.idempotencyKey ?? "", /^[0-9a-f-]{36}$/)
    }))

  it.live("boleto: the SDK's body with a full payer address is accepted; the barcode and ticket URL are under transaction_details", () =>
    Effect.gen(function*() {
      const { payments } = yield* sdkOnSimulator
      const created = yield* sdk(() => payments.create({ body: Docs.boletoRequest }))
      assert.strictEqual(created.status, "pending")
      assert.strictEqual(created.status_detail, "pending_waiting_payment")
      assert.match(created.transaction_details?.external_resource_url ?? "", /^http/)
      assert.match(created.transaction_details?.barcode?.content ?? "", /^\d{44}$/)
      assert.match(created.transaction_details?.digitable_line ?? "", /^\d{47}$/)
      assert.strictEqual(created.date_of_expiration, Docs.boletoRequest.date_of_expiration)
    }))

  it.live("boleto without the payer's address or identification is refused, as the API does since 2024", () =>
    Effect.gen(function*() {
      const { payments, sim } = yield* sdkOnSimulator
      const { address: _address, ...payerWithoutAddress } = Docs.boletoRequest.payer
      const noAddress = yield* Effect.flip(sdk(() => payments.create({ body: { ...Docs.boletoRequest, payer: payerWithoutAddress } })))
      const { identification: _id, ...payerWithoutId } = Docs.boletoRequest.payer
      const noId = yield* Effect.flip(sdk(() => payments.create({ body: { ...Docs.boletoRequest, payer: payerWithoutId } })))
      const { neighborhood: _n, ...partialAddress } = Docs.boletoRequest.payer.address
      const noNeighborhood = yield* Effect.flip(sdk(() =>
        payments.create({ body: { ...Docs.boletoRequest, payer: { ...Docs.boletoRequest.payer, address: partialAddress } } })
      ))
      for (const [e, missing] of [[noAddress, "zip_code"], [noId, "identification"], [noNeighborhood, "neighborhood"]] as const) {
        assert.instanceOf(e, MPBadRequestError)
        assert.include((e as Error).message, missing)
      }
      assert.strictEqual(sim.charges.size, 0)
    }))

  it.live("get, full refund (the SDK sends {}), partial refund, list and get refunds", () =>
    Effect.gen(function*() {
      const { payments, refunds, sim } = yield* sdkOnSimulator
      const whole = yield* sdk(() => payments.create({ body: { ...Docs.pixMinimalRequest, transaction_amount: 10.5 } }))
      yield* sim.setCallbackTarget("http://127.0.0.1:9/unused")
      yield* sim.dropCallbacks(true)
      yield* sim.complete(String(whole.id))
      const read = yield* sdk(() => payments.get({ id: whole.id! }))
      assert.deepStrictEqual([read.id, read.status, read.status_detail, read.transaction_amount], [whole.id, "approved", "accredited", 10.5])

      const total = yield* sdk(() => refunds.total({ payment_id: whole.id! }))
      const totalPost = sim.requests.filter((r) => r.method === "POST" && r.path.endsWith("/refunds"))
      assert.strictEqual(sim.charges.get(String(whole.id))!.refunds[0]!.rawBody, "{}")
      assert.strictEqual(totalPost.length, 1)
      assert.deepStrictEqual([total.payment_id, total.amount, total.status], [whole.id, 10.5, "approved"])
      assert.strictEqual((yield* sdk(() => payments.get({ id: whole.id! }))).status, "refunded")

      const parts = yield* sdk(() => payments.create({ body: { ...Docs.pixMinimalRequest, transaction_amount: 10 } }))
      yield* sim.complete(String(parts.id))
      const part = yield* sdk(() => refunds.create({ payment_id: parts.id!, body: { amount: 2.5 } }))
      assert.deepStrictEqual([part.amount, part.status], [2.5, "approved"])
      const listed = yield* sdk(() => refunds.list({ payment_id: parts.id! }))
      assert.deepStrictEqual(listed.map((r) => [r.id, r.amount, r.status]), [[part.id, 2.5, "approved"]])
      const one = yield* sdk(() => refunds.get({ payment_id: parts.id!, refund_id: part.id! }))
      assert.deepStrictEqual([one.id, one.payment_id, one.amount], [part.id, parts.id, 2.5])
      assert.strictEqual((yield* sdk(() => payments.get({ id: parts.id! }))).transaction_amount_refunded, 2.5)
    }))

  it.live("the notifications the simulator signs pass the SDK's WebhookSignatureValidator (data.id from the URL query)", () =>
    Effect.gen(function*() {
      const { payments, sim } = yield* sdkOnSimulator
      const created = yield* sdk(() =>
        payments.create({ body: { ...Docs.pixMinimalRequest, notification_url: "https://shop.example/mp?source_news=webhooks" } })
      )
      yield* sim.dropCallbacks(true)
      yield* sim.complete(String(created.id))
      const sent = sim.callbacksSent.at(-1)!
      const url = new URL(sent.url)
      assert.strictEqual(url.searchParams.get("source_news"), "webhooks")
      assert.strictEqual(url.searchParams.get("data.id"), String(created.id))
      WebhookSignatureValidator.validate({
        xSignature: sent.headers["x-signature"],
        xRequestId: sent.headers["x-request-id"],
        dataId: url.searchParams.get("data.id"),
        secret: webhookSecret,
        toleranceSeconds: 300
      })
      assert.throws(() =>
        WebhookSignatureValidator.validate({
          xSignature: sent.headers["x-signature"],
          xRequestId: sent.headers["x-request-id"],
          dataId: url.searchParams.get("data.id"),
          secret: "someone-else"
        })
      )
    }))
})
