/**
 * dLocal card payments (the plugin against its simulator, the card through the kit's
 * TestCardVault): `POST /secure_payments` with placeholders, signed by the vault over the filled
 * body (`ForwardRequest.bodyHmac`), declines by dLocal's rejection status codes
 * (https://docs.dlocal.com/reference/payment-status-codes), 3-D Secure as `nextAction`
 * (https://docs.dlocal.com/docs/3d-secure), refunds, and no card number anywhere but the vault's
 * forward. dLocal's own examples (`fixtures/dlocal/card-payment-*.json`) are run too.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Logger, Option, Redacted, References, Schema } from "effect"
import { readFileSync } from "node:fs"
import { findMethod } from "../../core/index.ts"
import * as Money from "../../core/Money.ts"
import { CardVault, type ChargeCard } from "../../core/ports/CardVault.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { TestCardVault, type TestCard } from "../../providers/kit/TestCardVault.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import * as CardWire from "../../providers/dlocal/CardWire.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make, type Options } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import { authorizationOf } from "../../providers/dlocal/SimulatorSigning.ts"
import { view } from "./Verdict.ts"

const visa = findMethod("1004")!
const mastercard = findMethod("1005")!

const card = (number: string, brand: TestCard["brand"] = "visa"): TestCard => ({
  number, brand, securityCode: "123", expMonth: 10, expYear: 2040, holderName: "Thiago O'Gabriel", merchantId: "test-merchant"
})
const { securityCode: _code, ...withoutCode } = card("4111111111111111")

const cards: Record<string, TestCard> = {
  card_ok: card("4111111111111111"),
  card_funds: card("4000000000000002"),
  card_stolen: card("4000000000000010"),
  card_bank: card("4000000000000028"),
  card_3ds: card("4000000000000036"),
  card_3ds_required: card("4000000000000044"),
  card_acquirer: card("4000000000000051"),
  card_late: card("4000000000000069"),
  card_dupl: card("4000000000000077"),
  card_nocvv: withoutCode,
  card_master: card("5555555555554444", "mastercard")
}
const numbers = Object.values(cards).map((c) => c.number)

const setup = (overrides: Partial<Options> = {}, slowMs?: number) =>
  Effect.gen(function*() {
    const sim = yield* DLocalSimulator.start(credentials, { slowMs })
    yield* sim.dropCallbacks(true)
    const vault = yield* TestCardVault.make(cards)
    const provider = yield* make(optionsFor(sim.baseUrl, overrides)).pipe(Effect.provideService(CardVault, vault.vault))
    const request = (token: string, transactionId: string, method = visa, amount = "100.00") =>
      Effect.gen(function*() {
        const described = yield* vault.vault.describe("test-merchant", token)
        const chargeCard: ChargeCard = { ...described, holderName: Redacted.make(described.holderName) }
        return { ...defaultChargeRequest(provider, method, transactionId), amount: Money.decimal(amount), card: chargeCard } satisfies ChargeRequest
      })
    return { sim, vault, provider, request }
  }).pipe(Effect.provide(Live))

const failureOf = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const fixture = (name: string): string => JSON.parse(readFileSync(new URL(`./fixtures/dlocal/${name}`, import.meta.url), "utf8")).body

describe("dLocal cards through the card vault", () => {
  it.live("4111111111111111 is paid: the forward carries placeholders and no signature; the vault signed the filled body and dLocal's check passed", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_ok", "TXN-DL-OK"))
      assert.strictEqual(accepted.status, "completed")
      assert.deepInclude(accepted.paymentData, { paymentMethod: "credit_card", brand: "visa", last4: "1111", statusCode: "200" })
      assert.strictEqual(vault.forwards.length, 1)
      const forward = vault.forwards[0]!
      assert.strictEqual(forward.url, `${sim.baseUrl}/secure_payments`)
      assert.notProperty(forward.headers, "authorization")
      const body = JSON.parse(forward.body!) as Record<string, unknown>
      assert.deepStrictEqual(body["card"], {
        holder_name: "{{card.holder_name}}", number: "{{card.number}}", cvv: "{{card.security_code}}", expiration_month: 10, expiration_year: 2040
      })
      assert.deepInclude(body, { payment_method_id: "CARD", payment_method_flow: "DIRECT", country: "BR", currency: "BRL", order_id: "TXN-DL-OK" })
      const hmac = forward.bodyHmac!
      assert.deepStrictEqual([hmac.header, hmac.prefix, hmac.template], [
        "authorization", `${credentials.login}${forward.headers["x-date"]}`, "V2-HMAC-SHA256, Signature: {{hmac.sha256_hex}}"
      ])
      // The secret travels Redacted: what a log or a trace of the forward shows is not it.
      assert.strictEqual(Redacted.value(hmac.key), credentials.secretKey)
      assert.notInclude(`${String(hmac.key)} ${JSON.stringify(forward)}`, credentials.secretKey)
      // dLocal got the card, its signature over those exact bytes checked (else 403 3001).
      const held = sim.charges.get(accepted.providerRef)!
      assert.include(held.raw, `"number":"4111111111111111"`)
      assert.include(held.raw, `"holder_name":"Thiago O'Gabriel"`)
      const [sent] = sim.requests.filter((r) => r.path === "/secure_payments")
      assert.deepInclude(sent, { authorized: true, status: 200 })
      for (const r of sim.requests.filter((r) => r.path !== "/secure_payments")) assert.notInclude(JSON.stringify(r), "4111111111111111")
    }))

  it.live("a body signed before the vault fills it is refused by dLocal (403 3001): signing after the fill is what makes the charge go", () =>
    Effect.gen(function*() {
      const { provider, request, vault } = yield* setup()
      yield* provider.charge(yield* request("card_nocvv", "TXN-DL-SIG"))
      const { bodyHmac: _signed, ...forward } = vault.forwards[0]!
      const date = forward.headers["x-date"]!
      const refused = yield* vault.vault.forward({
        ...forward,
        body: forward.body!.replace("TXN-DL-SIG", "TXN-DL-SIG-2"),
        headers: { ...forward.headers, authorization: authorizationOf(credentials, date, forward.body!.replace("TXN-DL-SIG", "TXN-DL-SIG-2")) }
      })
      assert.strictEqual(refused.status, 403)
      assert.include(refused.body, "3001")
    }))

  it.live("hard declines (302 insufficient amount, 313 stolen) are Declined with the word; soft ones (301, 321, 320) Failed; 307 duplicated_payment", () =>
    Effect.gen(function*() {
      const { provider, request } = yield* setup()
      const outcome = (token: string, txn: string) => Effect.map(Effect.exit(Effect.flatMap(request(token, txn), provider.charge)), failureOf)
      assert.deepInclude(yield* outcome("card_funds", "TXN-DL-302"), { reason: "insufficient_funds", retryable: false })
      const stolen = yield* outcome("card_stolen", "TXN-DL-313")
      assert.deepInclude(stolen, { reason: "stolen_card", retryable: false })
      assert.include((stolen as { readonly message?: string }).message ?? "", "313")
      assert.deepInclude(yield* outcome("card_bank", "TXN-DL-301"), { reason: "do_not_honour", retryable: true, outcomeUnknown: false })
      assert.deepInclude(yield* outcome("card_acquirer", "TXN-DL-321"), { reason: "processing_error", retryable: true, outcomeUnknown: false })
      assert.deepInclude(yield* outcome("card_3ds_required", "TXN-DL-320"), { reason: "authentication_required", retryable: true })
      assert.deepInclude(yield* outcome("card_dupl", "TXN-DL-307"), { reason: "duplicated_payment", retryable: false })
    }))

  it.live("3-D Secure (PENDING 101): pending with nextAction to three_dsecure.redirect_url; when dLocal pays it the status read says completed", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_3ds", "TXN-DL-3DS"))
      assert.strictEqual(accepted.status, "pending")
      assert.deepStrictEqual(accepted.nextAction, { type: "redirect_to_url", url: `${sim.baseUrl}/three-ds/${accepted.providerRef}` })
      yield* sim.complete(accepted.providerRef)
      assert.strictEqual((yield* provider.status(accepted.providerRef, "TXN-DL-3DS")).status, "completed")
    }))

  it.live("no answer in time is OutcomeUnknown; asked again it finds the order by order_id, with no second forward", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup({ timeoutMs: 300 }, 1_500)
      const charge = yield* request("card_late", "TXN-DL-LATE")
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(charge))), { reason: "timeout", outcomeUnknown: true })
      const again = yield* provider.charge(charge)
      assert.strictEqual(again.status, "completed")
      assert.strictEqual(sim.charges.size, 1)
      assert.strictEqual(vault.forwards.length, 1)
    }))

  it.live("a card whose security code the vault no longer holds is charged without cvv (optional at dLocal outside India)", () =>
    Effect.gen(function*() {
      const { provider, request, sim, vault } = yield* setup()
      const accepted = yield* provider.charge(yield* request("card_nocvv", "TXN-DL-NOCVV"))
      assert.strictEqual(accepted.status, "completed")
      assert.notInclude(vault.forwards[0]!.body!, "security_code")
      assert.notInclude(sim.charges.get(accepted.providerRef)!.raw, "cvv")
    }))

  it.live("refused before any call: no card, another brand's card; card rails served only with a vault", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const { card: _card, ...noCard } = yield* request("card_ok", "TXN-DL-NONE")
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(noCard))), { reason: "card_required", retryable: false })
      assert.deepInclude(failureOf(yield* Effect.exit(provider.charge(yield* request("card_ok", "TXN-DL-BR", mastercard)))), { reason: "card_brand_mismatch" })
      assert.strictEqual(sim.requests.length, 0)
      assert.strictEqual((yield* provider.charge(yield* request("card_master", "TXN-DL-MC", mastercard))).status, "completed")
      assert.isTrue(provider.supports(visa))
      assert.isTrue(provider.supports(findMethod("1042")!))
      assert.isFalse(provider.supports(findMethod("1006")!), "Elo is not confirmed at dLocal")
      const without = yield* make(optionsFor(sim.baseUrl))
      assert.isFalse(without.supports(visa))
      assert.isTrue(without.supports(findMethod("1001")!))
      const unconfigured = yield* make(optionsFor(sim.baseUrl)).pipe(Effect.provide(CardVault.unconfigured))
      assert.isFalse(unconfigured.supports(visa))
    }).pipe(Effect.provide(Live)))

  it.live("partial then full refund of a card payment (POST /refunds): both succeed, never more than was paid", () =>
    Effect.gen(function*() {
      const { provider, request, sim } = yield* setup()
      const { providerRef } = yield* provider.charge(yield* request("card_ok", "TXN-DL-REF"))
      const refund = (id: string, amount: string) =>
        provider.refund({ transactionId: "TXN-DL-REF", providerRef, refundId: id, idempotencyKey: `${id}:dlocal`, amount: Money.decimal(amount), currency: "BRL" })
      const part = yield* refund("RF-DL-1", "30.00")
      assert.strictEqual(part.status, "succeeded")
      const rest = yield* refund("RF-DL-2", "70.00")
      assert.strictEqual(rest.status, "succeeded")
      assert.notStrictEqual(rest.providerRef, part.providerRef)
      assert.strictEqual(sim.charges.get(providerRef)!.refunded, "100")
      const over = yield* Effect.exit(refund("RF-DL-3", "1.00"))
      assert.isTrue(Exit.isFailure(over))
    }))

  it.live("no card number or secret reaches the plugin's logs, errors or answers, on any path", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const texts: Array<string> = []
      yield* Effect.gen(function*() {
        const { provider, request } = yield* setup({ timeoutMs: 300 }, 1_500)
        for (const [token, txn] of [["card_ok", "L-1"], ["card_stolen", "L-2"], ["card_bank", "L-3"], ["card_3ds", "L-4"], ["card_late", "L-5"]] as const) {
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
      assert.notInclude(all, credentials.secretKey)
    }))

  it.live("dLocal's documented examples: the simulator takes the card request signed as documented; the connector reads the 3-D Secure answer", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      const body = fixture("card-payment-request.json")
      const date = new Date().toISOString()
      const answer = yield* Effect.promise(async () => {
        const response = await fetch(`${sim.baseUrl}/secure_payments`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-date": date, "x-login": credentials.login, "x-trans-key": credentials.transKey, "x-version": "2.1", authorization: authorizationOf(credentials, date, body) },
          body
        })
        return { status: response.status, body: await response.json() as Record<string, unknown> }
      })
      assert.strictEqual(answer.status, 200)
      assert.deepInclude(answer.body, { status: "PAID", order_id: "657434343", payment_method_type: "CARD" })
      assert.deepInclude(answer.body["card"] as object, { brand: "VI", last4: "1111" })
      const threeDs = Schema.decodeUnknownSync(Schema.fromJsonString(CardWire.CardPayment))(fixture("card-payment-3ds-response.json"))
      assert.strictEqual(String(threeDs.status_code), CardWire.pendingThreeDSecure)
      assert.strictEqual(CardWire.challengeUrlOf(threeDs), "http://sandbox.dlocal.com/three-ds/M-64356345634587b3495")
      assert.deepStrictEqual(["302", "313", "301", "320", 999].map(CardWire.declineOf), ["insufficient_funds", "stolen_card", "do_not_honour", "authentication_required", "do_not_honour"])
    }))
})
