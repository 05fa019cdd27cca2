/**
 * Mercado Pago's official Node SDK (`mercadopago`) drives the simulator's card endpoints: the
 * SDK's `CardToken.create` / `get` (`POST` / `GET /v1/card_tokens`), `Payment.create` with the
 * token as the Checkout API's card payment page documents it (`token`, `installments`,
 * `payment_method_id`, `payer.email`), `Payment.search`, and the 3-D Secure fields
 * (`three_d_secure_mode`, `three_ds_info`). The SDK is pointed at the simulator as in
 * MercadoPagoSdk.test.ts (its static `AppConfig.BASE_URL`), retries off.
 *
 * The cardholder: the SDK's `CardTokenCreateBody` type has no `cardholder`, which the test
 * cards' outcomes are driven by (https://mercadopago.com.br/developers/en/docs/checkout-bricks/integration-test/test-cards)
 * and which the PCI page's token body carries
 * (https://www.mercadopago.com.br/developers/es/docs/resources-pci-compliant-merchants/receiving-payment-by-card):
 * the SDK sends its body as given, so the test passes it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { CardToken, MercadoPagoConfig, MPBadRequestError, Payment, PaymentRefund } from "mercadopago"
import type { CardTokenCreateBody } from "mercadopago/dist/clients/cardToken/create/types.js"
import { AppConfig } from "mercadopago/dist/utils/config/index.js"
import { accessToken, webhookSecret } from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import * as Docs from "./fixtures/mercadopago/cards.ts"

const sdkOnSimulator = Effect.gen(function*() {
  const sim = yield* MercadoPagoSimulator.start({ accessToken, webhookSecret })
  const appConfig = AppConfig as { BASE_URL: string }
  const previous = appConfig.BASE_URL
  yield* Effect.acquireRelease(
    Effect.sync(() => void (appConfig.BASE_URL = sim.baseUrl)),
    () => Effect.sync(() => void (appConfig.BASE_URL = previous))
  )
  yield* sim.dropCallbacks(true)
  const config = new MercadoPagoConfig({ accessToken, options: { timeout: 5_000, maxRetries: 0 } })
  return { sim, tokens: new CardToken(config), payments: new Payment(config), refunds: new PaymentRefund(config) }
})

const sdk = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (e) => e })

/** The token body: the SDK's fields (strings for the expiry, as its types say) plus the cardholder. */
const tokenBody = (number: string, holder: string, securityCode = "123"): CardTokenCreateBody => {
  const body = { card_number: number, security_code: securityCode, expiration_month: "11", expiration_year: "2030", cardholder: { name: holder, identification: { type: "CPF", number: "12345678909" } } }
  return body
}

const cardPayment = (token: string, paymentMethodId: string, extra: Record<string, unknown> = {}) => ({
  transaction_amount: 100,
  token,
  description: "Blue shirt",
  installments: 1,
  payment_method_id: paymentMethodId,
  external_reference: `SDK-${token.slice(0, 8)}`,
  payer: { email: "test_user_123@testuser.com" },
  ...extra
})

describe("Mercado Pago official SDK: cards against the simulator", () => {
  it.live("APRO: the SDK tokenizes a documented test card and pays with the token; the SDK reads an approved credit_card payment", () =>
    Effect.gen(function*() {
      const { payments, sim, tokens } = yield* sdkOnSimulator
      const token = yield* sdk(() => tokens.create({ body: tokenBody(Docs.testCards.brVisa, "APRO") }))
      assert.strictEqual(token.api_response.status, 201)
      assert.match(token.id ?? "", /^[0-9a-f]{32}$/)
      assert.deepStrictEqual([token.first_six_digits, token.last_four_digits, token.expiration_month, token.expiration_year], ["423564", "5682", 11, 2030])
      assert.deepStrictEqual([token.luhn_validation, token.live_mode, token.status], [true, false, "active"])
      const read = yield* sdk(() => tokens.get({ id: token.id! }))
      assert.strictEqual(read.cardholder?.name, "APRO")
      const created = yield* sdk(() => payments.create({ body: cardPayment(token.id!, "visa") }))
      assert.deepStrictEqual([created.status, created.status_detail, created.payment_type_id, created.payment_method_id], ["approved", "accredited", "credit_card", "visa"])
      assert.deepStrictEqual([created.card?.first_six_digits, created.card?.last_four_digits], ["423564", "5682"])
      assert.notInclude(JSON.stringify(created), Docs.testCards.brVisa)
      assert.strictEqual((yield* sdk(() => tokens.get({ id: token.id! }))).status, "used")
      // A token is single use: the second payment with it is refused (cause 2062).
      const again = yield* Effect.flip(sdk(() => payments.create({ body: cardPayment(token.id!, "visa"), requestOptions: { idempotencyKey: "another" } })))
      assert.instanceOf(again, MPBadRequestError)
      assert.include((again as Error).message, "Invalid card token")
      assert.strictEqual(sim.charges.size, 1)
    }))

  it.live("FUND and OTHE are rejected with their status_detail; a number failing Luhn is refused at the token", () =>
    Effect.gen(function*() {
      const { payments, tokens } = yield* sdkOnSimulator
      for (const [holder, detail] of [["FUND", "cc_rejected_insufficient_amount"], ["OTHE", "cc_rejected_other_reason"]] as const) {
        const token = yield* sdk(() => tokens.create({ body: tokenBody(Docs.testCards.brMaster, holder) }))
        const created = yield* sdk(() => payments.create({ body: cardPayment(token.id!, "master") }))
        assert.deepStrictEqual([created.status, created.status_detail], ["rejected", detail])
      }
      const refused = yield* Effect.flip(sdk(() => tokens.create({ body: tokenBody("4235647728025683", "APRO") })))
      assert.instanceOf(refused, MPBadRequestError)
      const amexShortCode = yield* Effect.flip(sdk(() => tokens.create({ body: tokenBody(Docs.testCards.brAmex, "APRO", "123") })))
      assert.instanceOf(amexShortCode, MPBadRequestError)
    }))

  it.live("3DS: three_d_secure_mode optional on the challenge card answers pending_challenge with three_ds_info the SDK types read", () =>
    Effect.gen(function*() {
      const { payments, tokens } = yield* sdkOnSimulator
      const token = yield* sdk(() => tokens.create({ body: tokenBody(Docs.testCards.brMaster, "3DSC") }))
      const created = yield* sdk(() => payments.create({ body: cardPayment(token.id!, "master", { three_d_secure_mode: "optional" }) }))
      assert.deepStrictEqual([created.status, created.status_detail], ["pending", "pending_challenge"])
      assert.match(created.three_ds_info?.external_resource_url ?? "", /^http:\/\/127\.0\.0\.1:\d+\/3ds\/challenge\//)
      assert.isString(created.three_ds_info?.creq)
    }))

  it.live("search by external_reference finds the card payment; refunds of a card payment in part and in full", () =>
    Effect.gen(function*() {
      const { payments, refunds, tokens } = yield* sdkOnSimulator
      const token = yield* sdk(() => tokens.create({ body: tokenBody(Docs.testCards.brVisa, "APRO") }))
      const created = yield* sdk(() => payments.create({ body: { ...cardPayment(token.id!, "visa"), external_reference: "TXN-SDK-SEARCH" } }))
      const found = yield* sdk(() => payments.search({ options: { external_reference: "TXN-SDK-SEARCH" } }))
      assert.deepStrictEqual(found.results?.map((p) => String(p.id)), [String(created.id)])
      const none = yield* sdk(() => payments.search({ options: { external_reference: "TXN-SDK-NOTHING" } }))
      assert.deepStrictEqual(none.results, [])
      const part = yield* sdk(() => refunds.create({ payment_id: created.id!, body: { amount: 40 } }))
      assert.deepStrictEqual([part.amount, part.status], [40, "approved"])
      yield* sdk(() => refunds.total({ payment_id: created.id! }))
      const after = yield* sdk(() => payments.get({ id: created.id! }))
      assert.deepStrictEqual([after.status, after.transaction_amount_refunded], ["refunded", 100])
    }))
})
