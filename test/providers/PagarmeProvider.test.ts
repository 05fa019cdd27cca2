/**
 * The Pagar.me connector through its public interface (the plugin against its simulator, over real
 * sockets): rails and required buyer data, amounts in centavos, refunds that stay pending until
 * Pagar.me settles or rejects them, signed webhooks, secrets kept out of errors.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Exit, Option, Schema } from "effect"
import * as Money from "../../core/Money.ts"
import { CallbackRejected, type RefundRequest } from "../../core/ports/PaymentProvider.ts"
import { boleto, chargeRequestFor, pix, secretKey, setup, visa } from "../../providers/pagarme/ConformanceHarness.ts"
import * as Wire from "../../providers/pagarme/Wire.ts"
import * as Docs from "./fixtures/pagarme/docs.ts"
import { type ProviderErrorView, view } from "./Verdict.ts"

const failure = (exit: Exit.Exit<unknown, unknown>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

const refundOf = (transactionId: string, providerRef: string, n: number, amount: string): RefundRequest => ({
  transactionId,
  providerRef,
  refundId: `${transactionId}-R${n}`,
  idempotencyKey: `${transactionId}-R${n}:pagarme`,
  amount: Money.decimal(amount),
  currency: "BRL"
})

describe("Pagar.me connector", () => {
  it.live("serves PIX and boleto, not cards; declares the buyer data Pagar.me needs beyond the catalog", () =>
    Effect.gen(function*() {
      const { provider } = yield* setup()
      assert.isTrue(provider.supports(pix))
      assert.isTrue(provider.supports(boleto))
      assert.isFalse(provider.supports(visa))
      assert.deepStrictEqual(provider.requires?.(pix), ["userEmail", "userPhone"])
      assert.deepStrictEqual(provider.requires?.(boleto), ["userPhone", "userAddress"])
    }))

  it.live("a PIX charge sends the amount in exact centavos, the transaction id as code, and the idempotency key", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = { ...chargeRequestFor(provider)("TXN-PGM-AMOUNT"), amount: Money.decimal("49999.99") }
      const accepted = yield* provider.charge(request)
      const order = [...sim.orders.values()][0]!
      assert.strictEqual(order.body.items[0]!.amount, 4_999_999)
      assert.strictEqual(order.code, "TXN-PGM-AMOUNT")
      assert.strictEqual(order.idempotencyKey, request.idempotencyKey)
      assert.deepStrictEqual(order.body.customer?.phones?.mobile_phone, { country_code: "55", area_code: "11", number: "987654321" })
      assert.strictEqual(accepted.providerRef, order.charge.id)
      assert.match(String(accepted.paymentData["qrCode"]), /^000201/)
    }))

  it.live("a boleto without the buyer's address is refused before any call; with it, the boleto's page is the form", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = chargeRequestFor(provider, boleto)("TXN-PGM-BOLETO")
      const { address: _address, ...withoutAddress } = request.customer
      const refused = failure(yield* Effect.exit(provider.charge({ ...request, customer: withoutAddress }))) as ProviderErrorView
      assert.deepStrictEqual([refused.reason, refused.retryable], ["payer_address_required", true])
      assert.strictEqual(sim.requests.length, 0)
      const accepted = yield* provider.charge(request)
      assert.match(accepted.paymentFormUrl, /\/boletos\/tran_/)
      assert.match(String(accepted.paymentData["digitableLine"]), /^\d{47}$/)
      assert.strictEqual([...sim.orders.values()][0]!.body.payments[0]!.boleto?.billing_address?.zip_code, "01310200")
    }))

  it.live("the status poll reports an expired PIX as expired", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-EXP"))
      yield* sim.expire(accepted.providerRef)
      assert.strictEqual((yield* provider.status(accepted.providerRef, "TXN-PGM-EXP")).status, "expired")
    }))

  it.live("an underpaid boleto (paid short, final) is failed with what was paid, never left pending nor booked as paid", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge({ ...chargeRequestFor(provider, boleto)("TXN-PGM-UNDER"), amount: Money.decimal("100") })
      sim.charges.get(accepted.providerRef)!.paidAmount = 9_000
      yield* sim.setStatus(accepted.providerRef, "underpaid")
      const update = yield* provider.status(accepted.providerRef, "TXN-PGM-UNDER")
      assert.deepStrictEqual([update.status, update.detail], ["failed", "underpaid: 9000 of 10000 centavos paid"])
    }))

  it.live("a refund Pagar.me holds pending is pending; asked again it is the same refund, then succeeded once settled", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-RP"))
      yield* sim.complete(accepted.providerRef)
      yield* sim.setRefundsPending(true)
      const request = refundOf("TXN-PGM-RP", accepted.providerRef, 1, "2.5")
      const first = yield* provider.refund(request)
      assert.strictEqual(first.status, "pending")
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.transactions.at(-1)!.amount, 250)
      const again = yield* provider.refund(request)
      assert.deepStrictEqual([again.providerRef, again.status], [first.providerRef, "pending"])
      yield* sim.settleRefund(first.providerRef)
      const settled = yield* provider.refund(request)
      assert.deepStrictEqual([settled.providerRef, settled.status], [first.providerRef, "succeeded"])
      assert.strictEqual(sim.requests.filter((r) => r.method === "DELETE").length, 1)
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.transactions.filter((t) => t.kind === "refund").length, 1)
    }))

  it.live("a refund asked again after Pagar.me forgot its Idempotency-Key (24 h) is still the same refund: the connector's marker", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-24H"))
      yield* sim.complete(accepted.providerRef)
      yield* sim.setRefundsPending(true)
      const request = refundOf("TXN-PGM-24H", accepted.providerRef, 1, "4")
      const first = yield* provider.refund(request)
      yield* sim.expireIdempotencyKeys()
      const again = yield* provider.refund(request)
      assert.deepStrictEqual([again.providerRef, again.status], [first.providerRef, "pending"])
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.transactions.filter((t) => t.kind === "refund").length, 1)
      assert.deepStrictEqual(sim.view(accepted.providerRef).metadata, { [`refund_TXN-PGM-24H-R1`]: first.providerRef })
    }))

  it.live("two refunds of one charge at once keep both markers: asked again after the keys lapsed, neither is made twice", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-RACE"))
      yield* sim.complete(accepted.providerRef)
      yield* sim.setRefundsPending(true)
      const requests = [1, 2].map((n) => refundOf("TXN-PGM-RACE", accepted.providerRef, n, "2"))
      const first = yield* Effect.forEach(requests, provider.refund, { concurrency: 2 })
      yield* sim.expireIdempotencyKeys()
      const again = yield* Effect.forEach(requests, provider.refund, { concurrency: 1 })
      assert.deepStrictEqual(again.map((r) => r.providerRef), first.map((r) => r.providerRef))
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.transactions.filter((t) => t.kind === "refund").length, 2)
    }))

  it.live("a pending refund Pagar.me rejects later is failed (the money is the shop's again)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-RR"))
      yield* sim.complete(accepted.providerRef)
      yield* sim.setRefundsPending(true)
      const request = refundOf("TXN-PGM-RR", accepted.providerRef, 1, "10")
      const first = yield* provider.refund(request)
      yield* sim.rejectRefund(first.providerRef)
      const after = yield* provider.refund(request)
      assert.deepStrictEqual([after.providerRef, after.status], [first.providerRef, "failed"])
      assert.strictEqual(sim.view(accepted.providerRef).status, "paid")
    }))

  it.live("a charge whose answer was lost is retried as the same order", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, 800)
      const request = chargeRequestFor(provider)("TXN-PGM-LOST")
      yield* sim.setMode("slow_writes")
      const lost = failure(yield* Effect.exit(provider.charge(request))) as ProviderErrorView
      assert.deepStrictEqual([lost.reason, lost.retryable], ["timeout", true])
      yield* sim.setMode("ok")
      const retried = yield* provider.charge(request)
      assert.strictEqual(sim.orders.size, 1)
      assert.strictEqual(retried.providerRef, [...sim.orders.values()][0]!.charge.id)
    }))

  it.live("a charge retried after Pagar.me forgot its Idempotency-Key (24 h) is still the same order: looked up by code", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      const request = chargeRequestFor(provider)("TXN-PGM-24HC")
      const first = yield* provider.charge(request)
      yield* sim.expireIdempotencyKeys()
      const again = yield* provider.charge(request)
      assert.strictEqual(sim.orders.size, 1)
      assert.strictEqual(again.providerRef, first.providerRef)
    }))

  it.live("a refund whose answer was lost (after its lookup) is retried as the same refund", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup({ timeoutMs: 300 }, 800)
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-LOSTR"))
      yield* sim.complete(accepted.providerRef)
      const request = refundOf("TXN-PGM-LOSTR", accepted.providerRef, 1, "3")
      yield* sim.setMode("slow_cancels")
      const lost = failure(yield* Effect.exit(provider.refund(request))) as ProviderErrorView
      assert.strictEqual(lost.reason, "timeout")
      // The DELETE reached Pagar.me: the refund exists, its marker does not.
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.transactions.filter((t) => t.kind === "refund").length, 1)
      yield* sim.setMode("ok")
      const retried = yield* provider.refund(request)
      const refunds = sim.charges.get(accepted.providerRef)!.transactions.filter((t) => t.kind === "refund")
      assert.deepStrictEqual(refunds.map((t) => [t.id, t.amount]), [[retried.providerRef, 300]])
      assert.strictEqual(retried.status, "succeeded")
    }))

  it.live("a paid boleto cannot be refunded without the buyer's bank account: a final ProviderError", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider, boleto)("TXN-PGM-RB"))
      yield* sim.complete(accepted.providerRef)
      const refused = failure(yield* Effect.exit(provider.refund(refundOf("TXN-PGM-RB", accepted.providerRef, 1, "10")))) as ProviderErrorView
      assert.isFalse(refused.retryable)
      assert.strictEqual(refused.reason, "invalid:bank_account")
    }))

  it.live("webhooks: Pagar.me's signed webhook is accepted and reports what the API says; unsigned, foreign-key and tampered ones are rejected", () =>
    Effect.gen(function*() {
      const { provider, receiver, sim } = yield* setup()
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-WH"))
      yield* sim.complete(accepted.providerRef)
      assert.deepStrictEqual(sim.callbacksSent.map((c) => c.outcome), [204, 204])
      assert.deepStrictEqual(receiver.updates.flat().map((u) => [u.providerRef, u.status]), [
        [accepted.providerRef, "completed"],
        [accepted.providerRef, "completed"]
      ])
      const body = sim.webhookBody(accepted.providerRef, "charge.paid")
      const rejected = (headers: Record<string, string>, raw = body) =>
        Effect.map(Effect.exit(provider.verifyCallback(headers, raw)), (exit) => failure(exit) instanceof CallbackRejected)
      assert.isTrue(yield* rejected({}))
      assert.isTrue(yield* rejected(sim.sign(body, { foreignKey: true })))
      assert.isTrue(yield* rejected(sim.sign(body), body.replace("charge.paid", "charge.paie")))
      // Magento's header name carries the same signature.
      const hub = { "x-hub-asymmetric-signature": sim.sign(body)[Wire.signatureHeader]! }
      assert.deepStrictEqual((yield* provider.verifyCallback(hub, body)).map((u) => u.status), ["completed"])
    }))

  it.live("a webhook with a kid the JWKS does not know fetches the JWKS once per minute, not once per webhook", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      // Pagar.me's own signed webhook (its key is not the simulator's): rejected, never a defect.
      const headers = { [Wire.signatureHeader]: Docs.chargePaidSignature }
      for (let i = 0; i < 5; i++) {
        const exit = yield* Effect.exit(provider.verifyCallback(headers, Docs.chargePaidWebhook))
        assert.instanceOf(failure(exit), CallbackRejected)
      }
      assert.deepStrictEqual(sim.requests.map((r) => r.path), ["/.well-known/jwks.json"])
    }))

  it("the documentation's and Pagar.me's plugin webhooks decode, naming their charges", () => {
    const decode = (text: string) => Option.getOrThrow(Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Webhook))(text))
    const orderPaid = decode(Docs.orderPaidWebhook)
    assert.deepStrictEqual([orderPaid.type, orderPaid.data.id, orderPaid.data.charges?.map((c) => c.id)], ["order.paid", "or_ZdnB5BBCmYhk534R", ["ch_d22356Jf4WuGr8no"]])
    const chargePaid = decode(Docs.chargePaidWebhook)
    assert.deepStrictEqual([chargePaid.type, chargePaid.data.id], ["charge.paid", "ch_LJVEKDaTgzSkNRO2"])
    const charge = Option.getOrThrow(Schema.decodeUnknownOption(Wire.Charge)(JSON.parse(Docs.chargePaidWebhook).data))
    assert.deepStrictEqual([Wire.toUpdateStatus(charge), charge.order?.code], ["completed", "1290541"])
    assert.deepStrictEqual(Wire.parseSignature(Docs.chargePaidSignature)?.kid, "A7I2qPoXe5vML2XdUu8Bch07bWtAm67bG1LyKceNdgI")
  })

  it.live("the secret key never appears in an error, even when Pagar.me echoes the Authorization header", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.setMode("echo")
      const error = failure(yield* Effect.exit(provider.charge(chargeRequestFor(provider)("TXN-PGM-ECHO")))) as ProviderErrorView
      assert.include(error.message, "rejected")
      for (const secret of [secretKey, Buffer.from(`${secretKey}:`).toString("base64")]) {
        assert.notInclude(error.message, secret)
        assert.notInclude(error.reason, secret)
      }
    }))

  it.live("amounts: a refund of R$ 0,10 is 10 centavos; a fraction of a centavo is refused before any call", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup()
      yield* sim.dropCallbacks(true)
      const accepted = yield* provider.charge(chargeRequestFor(provider)("TXN-PGM-CENT"))
      yield* sim.complete(accepted.providerRef)
      yield* provider.refund(refundOf("TXN-PGM-CENT", accepted.providerRef, 1, "0.1"))
      assert.strictEqual(sim.charges.get(accepted.providerRef)!.transactions.at(-1)!.amount, 10)
      const calls = sim.requests.length
      const odd = failure(yield* Effect.exit(provider.refund({ ...refundOf("TXN-PGM-CENT", accepted.providerRef, 2, "0.1"), amount: BigDecimal.fromStringUnsafe("0.001") }))) as ProviderErrorView
      assert.deepStrictEqual([odd.reason, odd.retryable], ["invalid_amount", false])
      assert.strictEqual(sim.requests.length, calls)
    }))
})
