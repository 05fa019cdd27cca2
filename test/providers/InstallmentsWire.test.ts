/**
 * A charge's installments on the providers' wires, through the kit's TestCardVault: Pagar.me's
 * order sends `payments[0].credit_card.installments` (https://docs.pagar.me/reference/cart%C3%A3o-de-cr%C3%A9dito-1:
 * `installments`, "Quantidade de parcelas"), Mercado Pago's payment sends `installments`
 * (https://www.mercadopago.com.co/developers/en/reference/payments/_payments/post); both 1 when
 * the charge asks none.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Redacted, Result } from "effect"
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
import { pagarmePayablesReport } from "../../providers/pagarme/Report.ts"
import { PagarmeReportSource } from "../../providers/pagarme/ReportSource.ts"
import { PagarmeSimulator } from "../../providers/pagarme/PagarmeSimulator.ts"
import { match } from "../../core/reconciliation/Matching.ts"
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

  it.live("Pagar.me: a charge in 6 is 6 payables, read as one report line of the whole charge that reconciles", () =>
    Effect.gen(function*() {
      const sim = yield* PagarmeSimulator.start({ secretKey: PagarmeHarness.secretKey })
      sim.reports.setFeeRule({ percent: "3.19", flat: "0" })
      const vault = yield* TestCardVault.make({ card_a: testCard("4000000000000010", "Tony Stark") })
      const provider = yield* PagarmeProvider.make(PagarmeHarness.optionsFor(sim.baseUrl, sim.jwksUrl)).pipe(Effect.provideService(CardVault, vault.vault))
      yield* sim.dropCallbacks(true)
      const base = PagarmeHarness.chargeRequestFor(provider, PagarmeHarness.visa)
      const accepted = yield* provider.charge({ ...base("TXN-INST-R6"), amount: Money.decimal("100.01"), card: yield* chargeCardOf(vault.vault, "card_a"), ...six })
      assert.strictEqual(accepted.status, "completed")
      const now = yield* DateTime.now
      const period = { start: DateTime.subtract(now, { hours: 1 }), end: DateTime.add(now, { hours: 1 }) }
      const source = yield* PagarmeReportSource.make({ id: "pagarme", baseUrl: sim.baseUrl, secretKey: Redacted.make(PagarmeHarness.secretKey) })
      const text = yield* source.fetch(period)
      const payables = (JSON.parse(text) as { data: Array<{ installment: number; amount: number; fee: number }> }).data
      assert.deepStrictEqual(payables.map((p) => p.installment), [1, 2, 3, 4, 5, 6], "one payable per installment")
      assert.deepStrictEqual(payables.map((p) => p.amount), [1671, 1666, 1666, 1666, 1666, 1666])
      const parsed = pagarmePayablesReport.parse(text)
      if (Result.isFailure(parsed)) return assert.fail(parsed.failure.message)
      const lines = parsed.success
      assert.deepStrictEqual(lines.map((l) => [l.kind, l.providerRef, Money.toText(l.amount), l.fee && Money.toText(l.fee)]), [["payment", accepted.providerRef, "100.01", "3.19"]])
      const outcomes = match(lines, [{
        kind: "payment",
        id: "TXN-INST-R6",
        shopId: "shop_1",
        paymentId: null,
        providerRef: accepted.providerRef,
        reference: "TXN-INST-R6:pagarme",
        moved: true,
        status: "completed",
        amount: Money.decimal("100.01"),
        currency: "BRL",
        fee: null,
        clearingUsd: Money.decimal("0"),
        movedAt: now
      }], { periodStart: period.start, periodEnd: period.end })
      assert.deepStrictEqual(outcomes.map((o) => o._tag), ["matched"])
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
