/**
 * Pagar.me authorize now, capture later (the plugin against its simulator, the card through the
 * kit's TestCardVault): `capture: false` orders `credit_card.operation_type: "auth_only"` and
 * answers `authorized`; `POST /charges/{id}/capture` (full or partial,
 * https://connect-stone.stone.com.br/reference/captura-de-cobrança) and `DELETE /charges/{id}`
 * (void) through the provider port, exactly once on the core's key; 3-D Secure refused before
 * any call; the acquirer's `1A` read as `authentication_required`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Exit, Option, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { CardVault, type ChargeCard } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { TestCardVault, type TestCard } from "../../providers/kit/TestCardVault.ts"
import { chargeRequestFor, Live, optionsFor, secretKey, visa } from "../../providers/pagarme/ConformanceHarness.ts"
import { type Options, PagarmeProvider } from "../../providers/pagarme/PagarmeProvider.ts"
import { PagarmeSimulator } from "../../providers/pagarme/PagarmeSimulator.ts"
import { view } from "./Verdict.ts"

const card = (number: string): TestCard => ({
  number, brand: "visa", securityCode: "123", expMonth: 12, expYear: 2031, holderName: "Tony Stark", merchantId: "test-merchant"
})
const cards: Record<string, TestCard> = {
  card_approved: card("4000000000000010"),
  // The vault forwards a security code once: each authorization below has its own token.
  card_approved_2: card("4000000000000010"),
  card_refused: card("4000000000000028"),
  card_3ds: card("4000000000001018")
}

const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* PagarmeSimulator.start({ secretKey, slowMs })
    const vault = yield* TestCardVault.make(cards)
    const provider = yield* PagarmeProvider.make(optionsFor(sim.baseUrl, sim.jwksUrl, overrides)).pipe(Effect.provideService(CardVault, vault.vault))
    yield* sim.dropCallbacks(true)
    const request = (token: string, transactionId: string, extra: Partial<ChargeRequest> = { capture: false }) =>
      Effect.gen(function*() {
        const described = yield* vault.vault.describe("test-merchant", token)
        const chargeCard: ChargeCard = { ...described, holderName: Redacted.make(described.holderName) }
        return { ...chargeRequestFor(provider, visa)(transactionId), amount: Money.decimal("100.00"), card: chargeCard, ...extra } satisfies ChargeRequest
      })
    const authorize = (transactionId: string, token = "card_approved") =>
      Effect.gen(function*() {
        return yield* provider.charge(yield* request(token, transactionId))
      })
    const settle = (transactionId: string, providerRef: string, amount: string, kind: "capture" | "void" = "capture") => {
      const common = { transactionId, providerRef, idempotencyKey: `${transactionId}:${kind}:1`, amount: Money.decimal(amount), currency: "BRL" }
      return kind === "capture" ? provider.capture!({ ...common, authorizedAmount: Money.decimal("100.00") }) : provider.void!(common)
    }
    const asked = (path: string, method: string) => sim.requests.filter((r) => r.path === path && r.method === method)
    return { sim, vault, provider, request, authorize, settle, asked }
  }).pipe(Effect.provide(Live))

const failureOf = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

describe("Pagar.me authorize now, capture later", () => {
  it.live("capture: false orders auth_only and answers authorized: the charge is held pending, nothing paid", () =>
    Effect.gen(function*() {
      const { authorize, provider, sim, vault } = yield* setup()
      const accepted = yield* authorize("TXN-AUTH-1")
      assert.strictEqual(accepted.status, "authorized")
      const body = JSON.parse(vault.forwards[0]!.body!) as { payments: Array<{ credit_card: { operation_type: string } }> }
      assert.strictEqual(body.payments[0]!.credit_card.operation_type, "auth_only")
      const held = sim.view(accepted.providerRef)
      assert.deepStrictEqual([held.status, held.last_transaction?.status, held.paid_amount], ["pending", "authorized_pending_capture", undefined])
      assert.deepStrictEqual(provider.authorizationWindow, Duration.days(4))
      // Without capture: false the same card is captured at once, as before.
      const captured = yield* provider.charge(yield* (yield* setup()).request("card_approved_2", "TXN-AUTH-NOW", {}))
      assert.strictEqual(captured.status, "completed")
    }))

  it.live("a full capture: POST /charges/{id}/capture with the core's key; the charge is paid, its transaction captured", () =>
    Effect.gen(function*() {
      const { asked, authorize, settle, sim } = yield* setup()
      const { providerRef } = yield* authorize("TXN-CAP-FULL")
      const outcome = yield* settle("TXN-CAP-FULL", providerRef, "100.00")
      assert.deepStrictEqual(outcome, { providerRef, status: "succeeded" })
      const captures = asked(`/charges/${providerRef}/capture`, "POST")
      assert.deepStrictEqual(captures.map((r) => r.idempotencyKey), ["TXN-CAP-FULL:capture:1"])
      const charge = sim.view(providerRef)
      assert.deepStrictEqual([charge.status, charge.paid_amount, charge.last_transaction?.status], ["paid", 10000, "captured"])
    }))

  it.live("a partial capture sends the amount in centavos and releases the rest; more than authorized is Declined by Pagar.me", () =>
    Effect.gen(function*() {
      const { authorize, settle, sim } = yield* setup()
      const first = yield* authorize("TXN-CAP-PART")
      assert.strictEqual((yield* settle("TXN-CAP-PART", first.providerRef, "60.50")).status, "succeeded")
      assert.deepStrictEqual([sim.view(first.providerRef).status, sim.view(first.providerRef).paid_amount], ["paid", 6050])
      const second = yield* authorize("TXN-CAP-OVER", "card_approved_2")
      const over = failureOf(yield* Effect.exit(settle("TXN-CAP-OVER", second.providerRef, "100.01")))
      assert.deepInclude(over, { retryable: false, outcomeUnknown: false })
      assert.strictEqual(sim.view(second.providerRef).status, "pending")
    }))

  it.live("a void: DELETE /charges/{id}; the charge is canceled, its transaction voided, nothing paid; a capture after it is Declined without a call", () =>
    Effect.gen(function*() {
      const { asked, authorize, settle, sim } = yield* setup()
      const { providerRef } = yield* authorize("TXN-VOID")
      assert.deepStrictEqual(yield* settle("TXN-VOID", providerRef, "100.00", "void"), { providerRef, status: "succeeded" })
      assert.deepStrictEqual(asked(`/charges/${providerRef}`, "DELETE").map((r) => r.idempotencyKey), ["TXN-VOID:void:1"])
      const charge = sim.view(providerRef)
      assert.deepStrictEqual([charge.status, charge.last_transaction?.status, charge.paid_amount], ["canceled", "voided", undefined])
      // Voided again (a retry): answered from the charge, no second DELETE.
      assert.strictEqual((yield* settle("TXN-VOID", providerRef, "100.00", "void")).status, "succeeded")
      assert.strictEqual(asked(`/charges/${providerRef}`, "DELETE").length, 1)
      const late = failureOf(yield* Effect.exit(settle("TXN-VOID", providerRef, "100.00")))
      assert.deepInclude(late, { reason: "authorization_not_held", retryable: false })
      assert.strictEqual(asked(`/charges/${providerRef}/capture`, "POST").length, 0)
    }))

  it.live("a capture whose answer is lost is OutcomeUnknown; asked again with the same key it is found captured: one upstream capture", () =>
    Effect.gen(function*() {
      const { asked, authorize, settle, sim } = yield* setup({ timeoutMs: 300 }, 1_500)
      const { providerRef } = yield* authorize("TXN-CAP-LOST")
      yield* sim.setMode("slow_writes")
      const lost = failureOf(yield* Effect.exit(settle("TXN-CAP-LOST", providerRef, "100.00")))
      assert.deepInclude(lost, { outcomeUnknown: true })
      yield* sim.setMode("ok")
      assert.deepStrictEqual(yield* settle("TXN-CAP-LOST", providerRef, "100.00"), { providerRef, status: "succeeded" })
      assert.strictEqual(asked(`/charges/${providerRef}/capture`, "POST").length, 1)
      assert.strictEqual(sim.view(providerRef).paid_amount, 10000)
    }))

  it.live("a refused card with capture: false is refused as before (soft do_not_honour), nothing held", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      const failure = failureOf(yield* Effect.exit(provider.charge(yield* request("card_refused", "TXN-AUTH-NO"))))
      assert.deepInclude(failure, { reason: "do_not_honour", retryable: true })
    }))

  it.live("3-D Secure required is refused before any call (Failed three_d_secure_unsupported); the acquirer's 1A is authentication_required", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup()
      const refused = failureOf(yield* Effect.exit(provider.charge(yield* request("card_approved", "TXN-3DS", { threeDSecure: "required", returnUrl: "https://engine.test/3ds/return/x" }))))
      assert.deepInclude(refused, { reason: "three_d_secure_unsupported", retryable: true, outcomeUnknown: false })
      assert.strictEqual(vault.forwards.length, 0)
      assert.strictEqual(sim.orders.size, 0)
      const wants = failureOf(yield* Effect.exit(provider.charge(yield* request("card_3ds", "TXN-1A", {}))))
      assert.deepInclude(wants, { reason: "authentication_required", retryable: true, outcomeUnknown: false })
    }))
})
