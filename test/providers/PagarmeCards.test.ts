/**
 * Pagar.me credit card charges (the plugin against its simulator, the card through the kit's
 * TestCardVault): Pagar.me's documented test cards
 * (https://docs.pagar.me/docs/simulador-de-cart%C3%A3o-de-cr%C3%A9dito,
 * https://docs.pagar.me/docs/simulador-psp) and the simulator's own numbers for outcomes those
 * pages do not document (`providers/pagarme/SimulatorCards.ts`), the order's shape as
 * https://docs.pagar.me/reference/cart%C3%A3o-de-cr%C3%A9dito-1 documents it, refunds by
 * `DELETE /charges/{id}`, and no card number anywhere but the vault's forward.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Logger, Option, Redacted, References } from "effect"
import { findMethod } from "../../core/index.ts"
import * as Money from "../../core/Money.ts"
import { CardVault, type ChargeCard } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { TestCardVault, type TestCard } from "../../providers/kit/TestCardVault.ts"
import { chargeRequestFor, Live, optionsFor, secretKey, visa } from "../../providers/pagarme/ConformanceHarness.ts"
import { type Options, PagarmeProvider } from "../../providers/pagarme/PagarmeProvider.ts"
import { PagarmeSimulator } from "../../providers/pagarme/PagarmeSimulator.ts"
import { view } from "./Verdict.ts"

const mastercard = findMethod("1005")!

const card = (number: string, brand: TestCard["brand"] = "visa", securityCode = "123"): TestCard => ({
  number, brand, securityCode, expMonth: 12, expYear: 2031, holderName: "Tony Stark", merchantId: "test-merchant"
})

const cards: Record<string, TestCard> = {
  card_approved: card("4000000000000010"),
  card_refused: card("4000000000000028"),
  card_processing: card("4000000000000036"),
  card_stolen: card("4000000000009979"),
  card_funds: card("4000000000009953"),
  card_issuer_down: card("4000000000000911"),
  card_late: card("4000000000000341"),
  card_cvv6: card("4111111111111111", "visa", "612"),
  card_master: card("5555555555554444", "mastercard")
}
const numbers = Object.values(cards).map((c) => c.number)

const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* PagarmeSimulator.start({ secretKey, slowMs })
    const vault = yield* TestCardVault.make(cards)
    const provider = yield* PagarmeProvider.make(optionsFor(sim.baseUrl, sim.jwksUrl, overrides)).pipe(Effect.provideService(CardVault, vault.vault))
    yield* sim.dropCallbacks(true)
    const request = (token: string, transactionId: string, method = visa, amount = "100.00") =>
      Effect.gen(function*() {
        const described = yield* vault.vault.describe("test-merchant", token)
        const chargeCard: ChargeCard = { ...described, holderName: Redacted.make(described.holderName) }
        return { ...chargeRequestFor(provider, method)(transactionId), amount: Money.decimal(amount), card: chargeCard } satisfies ChargeRequest
      })
    return { sim, vault, provider, request }
  }).pipe(Effect.provide(Live))

const failureOf = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

describe("Pagar.me credit cards through the card vault", () => {
  it.live("approved (4000000000000010): paid at once; the forward carries placeholders, the simulator got the number", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_approved", "TXN-CARD-OK"))
      assert.strictEqual(accepted.status, "completed")
      assert.match(accepted.providerRef, /^ch_/)
      assert.strictEqual(accepted.paymentData["paymentMethod"], "credit_card")
      const [forward] = vault.forwards
      assert.strictEqual(vault.forwards.length, 1)
      assert.strictEqual(forward!.url, `${sim.baseUrl}/orders`)
      assert.strictEqual(forward!.headers["idempotency-key"], "TXN-CARD-OK:pagarme")
      const body = JSON.parse(forward!.body!) as { payments: Array<{ payment_method: string; credit_card: Record<string, unknown> }> }
      assert.deepStrictEqual(body.payments[0], {
        payment_method: "credit_card",
        credit_card: {
          installments: 1, statement_descriptor: "PAGAMENTO", operation_type: "auth_and_capture",
          card: { number: "{{card.number}}", holder_name: "{{card.holder_name}}", exp_month: 12, exp_year: 2031, cvv: "{{card.security_code}}" }
        }
      })
      const order = [...sim.orders.values()][0]!
      assert.strictEqual(order.body.payments[0]!.credit_card?.card?.number, "4000000000000010")
      // Every other call the plugin made (the lookup by code) went without the vault and without the number.
      for (const r of sim.requests.filter((r) => !(r.method === "POST" && r.path === "/orders"))) {
        assert.notInclude(JSON.stringify(r), "4000000000000010")
      }
      assert.deepStrictEqual(sim.view(accepted.providerRef).status, "paid")
    }))

  it.live("Pagar.me's documented refusal (4000000000000028, no return code) and a security code starting with 6 are soft: Failed do_not_honour", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      for (const [token, txn] of [["card_refused", "TXN-CARD-NO"], ["card_cvv6", "TXN-CARD-CVV6"]] as const) {
        const failure = failureOf(yield* Effect.exit(provider.charge(yield* request(token, txn))))
        assert.deepInclude(failure, { reason: "do_not_honour", retryable: true, outcomeUnknown: false })
      }
    }))

  it.live("hard declines (ours: stolen 43, insufficient funds 51) are Declined with the normalized word; a soft one (91) is Failed", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      const stolen = failureOf(yield* Effect.exit(provider.charge(yield* request("card_stolen", "TXN-CARD-43"))))
      assert.deepInclude(stolen, { reason: "stolen_card", retryable: false })
      assert.include((stolen as { readonly message?: string } | undefined)?.message ?? "", "43")
      const funds = failureOf(yield* Effect.exit(provider.charge(yield* request("card_funds", "TXN-CARD-51"))))
      assert.deepInclude(funds, { reason: "insufficient_funds", retryable: false })
      const soft = failureOf(yield* Effect.exit(provider.charge(yield* request("card_issuer_down", "TXN-CARD-91"))))
      assert.deepInclude(soft, { reason: "issuer_unavailable", retryable: true, outcomeUnknown: false })
    }))

  it.live("no answer in time (ours: 4000000000000341) is OutcomeUnknown; asked again it finds the order made, with no second forward", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup({ timeoutMs: 300 }, 1_500)
      const charge = yield* request("card_late", "TXN-CARD-LATE")
      const lost = failureOf(yield* Effect.exit(provider.charge(charge)))
      assert.deepInclude(lost, { reason: "timeout", outcomeUnknown: true })
      const again = yield* provider.charge(charge)
      assert.strictEqual(again.status, "completed")
      assert.strictEqual(sim.orders.size, 1)
      assert.strictEqual(vault.forwards.length, 1)
    }))

  it.live("processing (4000000000000036) is pending; when the acquirer confirms it the status read says completed", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_processing", "TXN-CARD-PROC"))
      assert.strictEqual(accepted.status, "pending")
      yield* sim.complete(accepted.providerRef)
      assert.strictEqual((yield* provider.status(accepted.providerRef, "TXN-CARD-PROC")).status, "completed")
    }))

  it.live("a card rail without a card, or with another brand's card, is refused before any call", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const { card: _card, ...noCard } = yield* request("card_approved", "TXN-CARD-NONE")
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(noCard))), { reason: "card_required", retryable: false })
      const wrongBrand = yield* request("card_approved", "TXN-CARD-BRAND", mastercard)
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(wrongBrand))), { reason: "card_brand_mismatch" })
      assert.strictEqual(sim.requests.length, 0)
      assert.strictEqual((yield* provider.charge(yield* request("card_master", "TXN-CARD-MC", mastercard))).status, "completed")
    }))

  it.live("card rails are served only with a vault (none, or the host's CardVault.unconfigured: not served)", () =>
    Effect.gen(function*() {
      const { provider } = yield* setup()
      assert.isTrue(provider.supports(visa))
      const sim = yield* PagarmeSimulator.start({ secretKey })
      const without = yield* PagarmeProvider.make(optionsFor(sim.baseUrl, sim.jwksUrl))
      assert.isFalse(without.supports(visa))
      assert.isTrue(without.supports(findMethod("1001")!))
      // A host with no vault configured provides `CardVault.unconfigured`: no card rail either.
      const unconfigured = yield* PagarmeProvider.make(optionsFor(sim.baseUrl, sim.jwksUrl)).pipe(Effect.provide(CardVault.unconfigured))
      assert.isFalse(unconfigured.supports(visa))
      assert.isTrue(unconfigured.supports(findMethod("1001")!))
    }).pipe(Effect.provide(Live)))

  it.live("partial then full refund of a card charge (DELETE /charges/{id} with amount): succeeded at once, the charge canceled", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(yield* request("card_approved", "TXN-CARD-REF"))
      const refund = (id: string, amount: string) =>
        provider.refund({ transactionId: "TXN-CARD-REF", providerRef, refundId: id, idempotencyKey: `${id}:pagarme`, amount: Money.decimal(amount), currency: "BRL" })
      const part = yield* refund("RF-1", "30.00")
      assert.strictEqual(part.status, "succeeded")
      assert.deepStrictEqual([sim.view(providerRef).status, sim.view(providerRef).canceled_amount], ["paid", 3000])
      const rest = yield* refund("RF-2", "70.00")
      assert.strictEqual(rest.status, "succeeded")
      assert.notStrictEqual(rest.providerRef, part.providerRef)
      assert.deepStrictEqual([sim.view(providerRef).status, sim.view(providerRef).canceled_amount], ["canceled", 10000])
      assert.strictEqual(sim.requests.filter((r) => r.method === "DELETE").length, 2)
      const refunds = sim.charges.get(providerRef)!.transactions.filter((t) => t.kind === "refund")
      assert.deepStrictEqual(refunds.map((t) => [t.id, t.amount, t.status]), [[part.providerRef, 3000, "refunded"], [rest.providerRef, 7000, "refunded"]])
    }))

  it.live("no card number reaches the plugin's logs, its errors or its answers, on any path", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const texts: Array<string> = []
      yield* Effect.gen(function*() {
        const { provider, request } = yield* setup({ timeoutMs: 300 }, 1_500)
        for (const [token, txn] of [["card_approved", "L-1"], ["card_stolen", "L-2"], ["card_issuer_down", "L-3"], ["card_refused", "L-4"], ["card_late", "L-5"]] as const) {
          const exit = yield* Effect.exit(provider.charge(yield* request(token, txn)))
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
      // A three-digit code is found by chance in any timestamp; a security code that leaked would sit under its field's name.
      assert.notMatch(all, /(cvv|cvc|security_?code)["'\\]*\s*[:=]\s*["'\\]*\d{3,4}/i)
    }))

  it.live("the TestCardVault: masks numbers in answers, holds the security code for the payment that used it, refuses a host off its allowlist", () =>
    Effect.gen(function*() {
      assert.strictEqual(TestCardVault.maskCardNumbers(`{"n":"4000000000000010","t":1767225600000}`), `{"n":"400000******0010","t":1767225600000}`)
      const { provider, request, vault } = yield* setup()
      const charge = yield* request("card_master", "TXN-CARD-CVV", mastercard)
      yield* provider.charge(charge)
      assert.strictEqual(vault.forwards[0]!.purpose, "TXN-CARD-CVV")
      const forward = { ...vault.forwards[0]!, headers: { ...vault.forwards[0]!.headers, "idempotency-key": "other" }, purpose: "TXN-OTHER" }
      const gone = yield* Effect.flip(vault.vault.forward(forward))
      assert.deepInclude(gone, { _tag: "ForwardRefused", reason: "security_code_gone" })
      const elsewhere = yield* Effect.flip(vault.vault.forward({ ...forward, url: "https://api.example.com/orders" }))
      assert.deepInclude(elsewhere, { _tag: "ForwardRefused", reason: "host_not_allowed" })
      const strict = yield* TestCardVault.make(cards, { allowedHosts: ["api.pagar.me"] })
      const sim = yield* PagarmeSimulator.start({ secretKey })
      const refused = yield* PagarmeProvider.make(optionsFor(sim.baseUrl, sim.jwksUrl)).pipe(Effect.provideService(CardVault, strict.vault))
      const failure = failureOf(yield* Effect.exit(refused.charge(yield* request("card_approved", "TXN-CARD-HOST"))))
      assert.deepInclude(failure, { reason: "vault_host_not_allowed", retryable: true, outcomeUnknown: false })
      assert.strictEqual(sim.orders.size, 0)
    }).pipe(Effect.provide(Live)))
})
