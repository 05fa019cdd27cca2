/**
 * A charge's installments on the providers' wires, through the kit's TestCardVault: Pagar.me's
 * order sends `payments[0].credit_card.installments` (https://docs.pagar.me/reference/cart%C3%A3o-de-cr%C3%A9dito-1:
 * `installments`, "Quantidade de parcelas"), Mercado Pago's payment sends `installments`
 * (https://www.mercadopago.com.co/developers/en/reference/payments/_payments/post); both 1 when
 * the charge asks none.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { CardVault, type ChargeCard } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { type TestCard, TestCardVault } from "../../providers/kit/TestCardVault.ts"
import * as MpHarness from "../../providers/mercadopago/ConformanceHarness.ts"
import { MercadoPagoProvider } from "../../providers/mercadopago/MercadoPagoProvider.ts"
import { MercadoPagoSimulator } from "../../providers/mercadopago/MercadoPagoSimulator.ts"
import * as PagarmeHarness from "../../providers/pagarme/ConformanceHarness.ts"
import { PagarmeProvider } from "../../providers/pagarme/PagarmeProvider.ts"
import { PagarmeSimulator } from "../../providers/pagarme/PagarmeSimulator.ts"
import * as Docs from "./fixtures/mercadopago/cards.ts"

const testCard = (number: string, holderName: string): TestCard => ({
  number, brand: "visa", securityCode: "123", expMonth: 12, expYear: 2031, holderName, merchantId: "test-merchant"
})

const chargeCardOf = (vault: CardVault["Service"], token: string) =>
  Effect.map(vault.describe("test-merchant", token), (d): ChargeCard => ({ ...d, holderName: Redacted.make(d.holderName) }))

const six = { installments: { count: 6, interest: "merchant" as const } }

describe("installments on the providers' wires", () => {
  it.live("Pagar.me: the order's credit_card.installments is the charge's count (1 without one)", () =>
    Effect.gen(function*() {
      const sim = yield* PagarmeSimulator.start({ secretKey: PagarmeHarness.secretKey })
      const vault = yield* TestCardVault.make({ card_a: testCard("4000000000000010", "Tony Stark"), card_b: testCard("4000000000000010", "Tony Stark") })
      const provider = yield* PagarmeProvider.make(PagarmeHarness.optionsFor(sim.baseUrl, sim.jwksUrl)).pipe(Effect.provideService(CardVault, vault.vault))
      yield* sim.dropCallbacks(true)
      const base = PagarmeHarness.chargeRequestFor(provider, PagarmeHarness.visa)
      const inSix: ChargeRequest = { ...base("TXN-INST-6"), amount: Money.decimal("600.00"), card: yield* chargeCardOf(vault.vault, "card_a"), ...six }
      const once: ChargeRequest = { ...base("TXN-INST-1"), amount: Money.decimal("100.00"), card: yield* chargeCardOf(vault.vault, "card_b") }
      assert.strictEqual((yield* provider.charge(inSix)).status, "completed")
      assert.strictEqual((yield* provider.charge(once)).status, "completed")
      const sent = vault.forwards.map((f) => (JSON.parse(f.body!) as { payments: Array<{ credit_card: { installments: number } }> }).payments[0]!.credit_card.installments)
      assert.deepStrictEqual(sent, [6, 1])
    }).pipe(Effect.provide(PagarmeHarness.Live)))

  it.live("Mercado Pago: the payment's installments is the charge's count (1 without one)", () =>
    Effect.gen(function*() {
      const sim = yield* MercadoPagoSimulator.start({ accessToken: MpHarness.accessToken, webhookSecret: MpHarness.webhookSecret })
      const vault = yield* TestCardVault.make({ card_a: testCard(Docs.testCards.brVisa, "APRO"), card_b: testCard(Docs.testCards.brVisa, "APRO") })
      const provider = yield* MercadoPagoProvider.make(MpHarness.optionsFor(sim.baseUrl)).pipe(Effect.provideService(CardVault, vault.vault))
      yield* sim.dropCallbacks(true)
      const method = PagarmeHarness.visa
      const inSix: ChargeRequest = {
        ...defaultChargeRequest(provider, method, "TXN-MP-INST-6"),
        amount: Money.decimal("600.00"),
        card: yield* chargeCardOf(vault.vault, "card_a"),
        ...six
      }
      const once: ChargeRequest = { ...defaultChargeRequest(provider, method, "TXN-MP-INST-1"), amount: Money.decimal("100.00"), card: yield* chargeCardOf(vault.vault, "card_b") }
      assert.strictEqual((yield* provider.charge(inSix)).status, "completed")
      assert.strictEqual((yield* provider.charge(once)).status, "completed")
      const sent = [...sim.charges.values()].map((p) => [p.reference, (JSON.parse(p.rawBody) as { installments: number }).installments])
      assert.deepStrictEqual(sent, [["TXN-MP-INST-6", 6], ["TXN-MP-INST-1", 1]])
    }).pipe(Effect.provide(MpHarness.Live)))
})
