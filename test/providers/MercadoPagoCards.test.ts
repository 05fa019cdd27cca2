/**
 * Mercado Pago card payments (the plugin against its simulator, the card through the kit's
 * TestCardVault): Mercado Pago's documented test cards and cardholder-name outcomes
 * (https://mercadopago.com.br/developers/en/docs/checkout-bricks/integration-test/test-cards),
 * the token request of https://www.mercadopago.com.br/developers/es/docs/resources-pci-compliant-merchants/receiving-payment-by-card,
 * the 3-D Secure answer of https://www.mercadopago.com.br/developers/en/docs/checkout-api-payments/how-tos/integrate-3ds
 * (the simulator's challenge card is ours), refunds through `POST /v1/payments/{id}/refunds`, and
 * no card number anywhere but the vault's forward.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Logger, Option, Redacted, References, Schema } from "effect"
import { findMethod } from "../../core/index.ts"
import * as Money from "../../core/Money.ts"
import { isHardDecline } from "../../core/ports/CardDeclines.ts"
import { CardVault, type ChargeCard } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { type TestCard, TestCardVault } from "../../providers/kit/TestCardVault.ts"
import * as CardWire from "../../providers/mercadopago/CardWire.ts"
import { accessToken, Live, optionsFor, pix, webhookSecret } from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoProvider, type Options } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import { documentedCards } from "../../providers/mercadopago/SimulatorCards.ts"
import * as Docs from "./fixtures/mercadopago/cards.ts"
import { view } from "./Verdict.ts"

const visa = findMethod("1004")!
const mastercard = findMethod("1005")!
const amex = findMethod("1008")!
const mxVisa = findMethod("1042")!

const card = (number: string, holderName: string, brand: TestCard["brand"] = "visa", securityCode = "123"): TestCard => ({
  number, brand, securityCode, expMonth: 11, expYear: 2030, holderName, merchantId: "test-merchant"
})

const cards: Record<string, TestCard> = {
  card_apro: card(Docs.testCards.brVisa, "APRO"),
  card_fund: card(Docs.testCards.brMaster, "FUND", "mastercard"),
  card_othe: card(Docs.testCards.brVisa, "OTHE"),
  card_call: card(Docs.testCards.brVisa, "CALL"),
  card_secu: card(Docs.testCards.brVisa, "SECU"),
  card_cont: card(Docs.testCards.brVisa, "CONT"),
  card_dupl: card(Docs.testCards.brVisa, "DUPL"),
  card_3ds: card(Docs.testCards.brMaster, "3DSC", "mastercard"),
  card_3ds_plain: card(Docs.testCards.brMaster, "3DSC", "mastercard"),
  card_3ds_fail: card(Docs.testCards.brMaster, "3DSC", "mastercard"),
  card_late: card(Docs.testCards.brVisa, "LATE"),
  card_amex: card(Docs.testCards.brAmex, "APRO", "amex", "1234"),
  card_mx: card(Docs.testCards.mxVisa, "APRO"),
  card_refund: card(Docs.testCards.brVisa, "APRO")
}
const numbers = [...new Set(Object.values(cards).map((c) => c.number))]

const setup = (overrides: Partial<Options> = {}, slowMs?: number, accountCurrency?: string) =>
  Effect.gen(function*() {
    const sim = yield* MercadoPagoSimulator.start({ accessToken, webhookSecret, slowMs, accountCurrency })
    const vault = yield* TestCardVault.make(cards)
    const provider = yield* MercadoPagoProvider.make(optionsFor(sim.baseUrl, overrides)).pipe(Effect.provideService(CardVault, vault.vault))
    yield* sim.dropCallbacks(true)
    const request = (token: string, transactionId: string, method = visa, amount = "100.00", extra: Partial<ChargeRequest> = {}) =>
      Effect.gen(function*() {
        const described = yield* vault.vault.describe("test-merchant", token)
        const chargeCard: ChargeCard = { ...described, holderName: Redacted.make(described.holderName) }
        return { ...defaultChargeRequest(provider, method, transactionId), amount: Money.decimal(amount), card: chargeCard, ...extra } satisfies ChargeRequest
      })
    return { sim, vault, provider, request }
  }).pipe(Effect.provide(Live))

const failureOf = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

describe("Mercado Pago cards through the card vault", () => {
  it.live("approved (APRO): the token through the vault with placeholders, the payment with the plugin's own client and no card data", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_apro", "TXN-MP-CARD-OK"))
      assert.strictEqual(accepted.status, "completed")
      assert.deepInclude(accepted.paymentData, { paymentMethod: "credit_card", paymentMethodId: "visa", last4: "5682" })
      assert.strictEqual(accepted.nextAction, undefined)
      assert.strictEqual(vault.forwards.length, 1)
      const forward = vault.forwards[0]!
      assert.strictEqual(forward.url, `${sim.baseUrl}/v1/card_tokens`)
      assert.strictEqual(forward.headers["authorization"], `Bearer ${accessToken}`)
      assert.deepStrictEqual(JSON.parse(forward.body!), {
        card_number: "{{card.number}}", security_code: "{{card.security_code}}", expiration_month: 11, expiration_year: 2030,
        cardholder: { name: "{{card.holder_name}}", identification: { type: "CPF", number: "52998224725" } }
      })
      // The documentation's token body has the same fields (its number masked by the page itself).
      assert.deepStrictEqual(Object.keys(JSON.parse(forward.body!)).sort(), Object.keys(Docs.pciCardTokenRequest).sort())
      const payment = sim.charges.get(accepted.providerRef)!
      const body = JSON.parse(payment.rawBody) as Record<string, unknown>
      assert.deepInclude(body, { installments: 1, payment_method_id: "visa", external_reference: "TXN-MP-CARD-OK", transaction_amount: 100 })
      assert.match(String(body["token"]), /^[0-9a-f]{32}$/)
      assert.notProperty(body, "three_d_secure_mode")
      assert.strictEqual(payment.idempotencyKey, "TXN-MP-CARD-OK:mercadopago")
      // Every call the plugin made itself (search, payment) carried no card number.
      for (const r of sim.requests.filter((r) => r.path !== "/v1/card_tokens")) {
        for (const number of numbers) assert.notInclude(JSON.stringify(r), number)
      }
      assert.deepStrictEqual([sim.view(accepted.providerRef).status, sim.view(accepted.providerRef).status_detail], ["approved", "accredited"])
    }))

  it.live("insufficient funds (FUND) is a hard decline: Declined insufficient_funds", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      const failure = failureOf(yield* Effect.exit(provider.charge(yield* request("card_fund", "TXN-MP-FUND", mastercard))))
      assert.deepInclude(failure, { reason: "insufficient_funds", retryable: false, outcomeUnknown: false })
      assert.include((failure as { readonly message: string }).message, "cc_rejected_insufficient_amount")
    }))

  it.live("other reason (OTHE) and call for authorize (CALL) are soft: Failed do_not_honour; a bad security code (SECU) is hard invalid_card", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      for (const [token, txn] of [["card_othe", "TXN-MP-OTHE"], ["card_call", "TXN-MP-CALL"]] as const) {
        assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(yield* request(token, txn)))), { reason: "do_not_honour", retryable: true, outcomeUnknown: false })
      }
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(yield* request("card_secu", "TXN-MP-SECU")))), { reason: "invalid_card", retryable: false })
    }))

  it.live("a duplicated payment (DUPL) stops the cascade (Declined duplicated_payment); pending (CONT) is pending", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(yield* request("card_dupl", "TXN-MP-DUPL")))), { reason: "duplicated_payment", retryable: false })
      assert.strictEqual((yield* provider.charge(yield* request("card_cont", "TXN-MP-CONT"))).status, "pending")
    }))

  it.live("3DS: threeDSecure required sends three_d_secure_mode optional; the challenge is pending with nextAction, and completes by status", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_3ds", "TXN-MP-3DS", mastercard, "100.00", { threeDSecure: "required", returnUrl: "https://engine.example/return" }))
      assert.strictEqual(accepted.status, "pending")
      assert.strictEqual(accepted.nextAction?.type, "redirect_to_url")
      assert.strictEqual(accepted.nextAction?.url, `${sim.baseUrl}/3ds/challenge/${accepted.providerRef}`)
      assert.isString(accepted.paymentData["threeDSecureCreq"])
      assert.strictEqual(JSON.parse(sim.charges.get(accepted.providerRef)!.rawBody).three_d_secure_mode, "optional")
      yield* sim.complete(accepted.providerRef)
      assert.strictEqual((yield* provider.status(accepted.providerRef, "TXN-MP-3DS")).status, "completed")
      // A challenge the buyer fails: the status read says failed, with Mercado Pago's detail.
      const failing = yield* provider.charge(yield* request("card_3ds_fail", "TXN-MP-3DS-FAIL", mastercard, "100.00", { threeDSecure: "required" }))
      assert.strictEqual(failing.nextAction?.type, "redirect_to_url")
      yield* sim.fail(failing.providerRef, "cc_rejected_3ds_challenge")
      assert.deepInclude(yield* provider.status(failing.providerRef, "TXN-MP-3DS-FAIL"), { status: "failed", detail: "cc_rejected_3ds_challenge" })
      // Without 3DS asked, the same card is refused as needing it: soft, authentication_required.
      const plain = failureOf(yield* Effect.exit(provider.charge(yield* request("card_3ds_plain", "TXN-MP-3DS-NO", mastercard))))
      assert.deepInclude(plain, { reason: "authentication_required", retryable: true, outcomeUnknown: false })
    }))

  it.live("no answer in time (ours: LATE) is OutcomeUnknown; asked again it finds the payment by external_reference, with no second token or payment", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup({ timeoutMs: 300 }, 1_500)
      const charge = yield* request("card_late", "TXN-MP-LATE")
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(charge))), { reason: "timeout", outcomeUnknown: true })
      const again = yield* provider.charge(charge)
      assert.strictEqual(again.status, "completed")
      assert.strictEqual(sim.charges.size, 1)
      assert.strictEqual(vault.forwards.length, 1)
      assert.strictEqual(sim.requests.filter((r) => r.method === "POST" && r.path === "/v1/payments").length, 1)
      // Even a retry that finds no security code any more answers the payment made first.
      const withoutCode = { ...charge, card: { ...charge.card!, securityCodeHeld: false } }
      assert.strictEqual((yield* provider.charge(withoutCode)).providerRef, again.providerRef)
    }))

  it.live("a vault timeout on the token step is Failed tokenization_unknown (a token is not a charge): nothing was charged", () =>
    Effect.gen(function*() {
      const { request, sim } = yield* setup({ timeoutMs: 300 }, 1_500)
      // The vault's forward of the token request gets no answer in time (the simulator is slow only then).
      const vault = yield* TestCardVault.make(cards)
      const tokenOnly = yield* MercadoPagoProvider.make(optionsFor(sim.baseUrl, { timeoutMs: 300 })).pipe(
        Effect.provideService(CardVault, {
          ...vault.vault,
          forward: (r) => Effect.flatMap(sim.setMode("slow"), () => Effect.ensuring(vault.vault.forward(r), sim.setMode("ok")))
        }),
        Effect.provide(Live)
      )
      const lost = failureOf(yield* Effect.exit(tokenOnly.charge(yield* request("card_refund", "TXN-MP-TOKLOST"))))
      assert.deepInclude(lost, { reason: "tokenization_unknown", retryable: true, outcomeUnknown: false })
      assert.strictEqual([...sim.charges.values()].filter((p) => p.reference === "TXN-MP-TOKLOST").length, 0)
    }).pipe(Effect.provide(Live)))

  it.live("partial then full refund of a card payment: succeeded at once; the payment ends refunded", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(yield* request("card_refund", "TXN-MP-REF"))
      const refund = (id: string, amount: string) =>
        provider.refund({ transactionId: "TXN-MP-REF", providerRef, refundId: id, idempotencyKey: `${id}:mercadopago`, amount: Money.decimal(amount), currency: "BRL" })
      const part = yield* refund("RF-1", "30.00")
      assert.strictEqual(part.status, "succeeded")
      assert.deepStrictEqual([sim.view(providerRef).status, sim.view(providerRef).transaction_amount_refunded], ["approved", 30])
      const rest = yield* refund("RF-2", "70.00")
      assert.strictEqual(rest.status, "succeeded")
      assert.notStrictEqual(rest.providerRef, part.providerRef)
      assert.deepStrictEqual([sim.view(providerRef).status, sim.view(providerRef).transaction_amount_refunded], ["refunded", 100])
      assert.deepStrictEqual(sim.charges.get(providerRef)!.refunds.map((r) => [r.amount, r.status]), [["30", "approved"], ["70", "approved"]])
    }))

  it.live("refused before any call: no card, another brand's card, authorize-only; card rails are served only with a vault", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const { card: _card, ...noCard } = yield* request("card_apro", "TXN-MP-NONE")
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(noCard))), { reason: "card_required", retryable: false })
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(yield* request("card_apro", "TXN-MP-BRAND", mastercard)))), { reason: "card_brand_mismatch" })
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(yield* request("card_apro", "TXN-MP-AUTH", visa, "100.00", { capture: false })))), {
        reason: "capture_later_unsupported", retryable: true
      })
      assert.strictEqual(sim.requests.length, 0)
      assert.strictEqual((yield* provider.charge(yield* request("card_amex", "TXN-MP-AMEX", amex))).status, "completed")
      assert.isTrue(provider.supports(visa))
      assert.isTrue(provider.supports(findMethod("sbx_card")!))
      const without = yield* MercadoPagoProvider.make(optionsFor(sim.baseUrl))
      assert.isFalse(without.supports(visa))
      assert.isTrue(without.supports(pix))
      const unconfigured = yield* MercadoPagoProvider.make(optionsFor(sim.baseUrl)).pipe(Effect.provide(CardVault.unconfigured))
      assert.isFalse(unconfigured.supports(visa))
      assert.isFalse(provider.supports(findMethod("1009")!))
    }).pipe(Effect.provide(Live)))

  it.live("Mexico: a documented Mexican test card on the MXN visa rail", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup({}, undefined, "MXN")
      const accepted = yield* provider.charge({ ...(yield* request("card_mx", "TXN-MP-MX", mxVisa, "250.00")), currency: "MXN", country: "MX" })
      assert.strictEqual(accepted.status, "completed")
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.currency, "MXN")
    }))

  it.effect("documentation: the rejection example reads as a hard insufficient_funds; every bad-filled detail is hard; the simulator's cards are the pages'", () =>
    Effect.gen(function*() {
      const payment = yield* Schema.decodeUnknownEffect(CardWire.CardPayment)(Docs.rejectedInsufficientAmount)
      assert.strictEqual(CardWire.declineOf(payment.status_detail), "insufficient_funds")
      for (const detail of Docs.badFilledDetails) assert.isTrue(isHardDecline(CardWire.declineOf(detail)), detail)
      assert.strictEqual(CardWire.declineOf("cc_rejected_something_new"), "do_not_honour")
      yield* Schema.decodeUnknownEffect(CardWire.CardTokenBody)(Docs.pciCardTokenRequest)
      assert.deepStrictEqual([documentedCards.BR.visa, documentedCards.BR.master, documentedCards.BR.amex], [Docs.testCards.brVisa, Docs.testCards.brMaster, Docs.testCards.brAmex])
    }))

  it.live("no card number reaches the plugin's logs, its errors or its answers, on any path", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const texts: Array<string> = []
      yield* Effect.gen(function*() {
        const { provider, request } = yield* setup({ timeoutMs: 300 }, 1_500)
        for (const [token, txn, method] of [["card_apro", "L-1", visa], ["card_fund", "L-2", mastercard], ["card_othe", "L-3", visa], ["card_late", "L-4", visa], ["card_3ds", "L-5", mastercard]] as const) {
          const exit = yield* Effect.exit(provider.charge(yield* request(token, txn, method, "100.00", { threeDSecure: "required" })))
          texts.push(JSON.stringify(Exit.isSuccess(exit) ? exit.value : failureOf(exit)))
          yield* Effect.logError("charge answered", exit)
        }
      }).pipe(
        Effect.provide(Logger.layer([Logger.map(Logger.formatLogFmt, (line) => void lines.push(line))])),
        Effect.provideService(References.MinimumLogLevel, "All")
      )
      assert.isAbove(lines.length, 0)
      const all = [...lines, ...texts].join("\n")
      for (const number of numbers) assert.notInclude(all, number)
    }))
})
