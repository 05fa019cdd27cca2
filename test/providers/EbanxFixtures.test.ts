/**
 * The EBANX connector and simulator against EBANX's own artifacts (test/providers/fixtures/ebanx/):
 * the Direct API answers its PHP SDK `ebanx/benjamin` records in its tests (boleto, OXXO, SPEI,
 * PagoEfectivo, PIX, Webpay, eft; a refund), the request bodies of its npm module `ebanx@1.5.0`,
 * and the examples of its documentation (notification form, error object, JWS header). Each
 * fixture names its source.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { readFileSync } from "node:fs"
import { findMethod } from "../../core/catalog/methods.ts"
import * as Money from "../../core/Money.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { integrationKey, Live, optionsFor } from "../../providers/ebanx/ConformanceHarness.ts"
import { jwsHeader } from "../../providers/ebanx/Auth.ts"
import { make } from "../../providers/ebanx/EbanxProvider.ts"
import { EbanxSimulator } from "../../providers/ebanx/EbanxSimulator.ts"
import * as Wire from "../../providers/ebanx/Wire.ts"
import { view } from "./Verdict.ts"

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/ebanx/${name}`, import.meta.url), "utf8"))
const sdk = fixture("sdk-benjamin-answers.json") as {
  direct: Record<string, { source: string; catalogId: string; pageField: string; answer: { redirect_url?: string | null; payment: Record<string, unknown> } }>
  refund: { source: string; answer: { refund: { id: string }; payment: Record<string, unknown> } }
}
const docs = fixture("docs-and-npm-examples.json")

const setup = Effect.gen(function*() {
  const sim = yield* EbanxSimulator.start(integrationKey)
  yield* sim.dropCallbacks(true)
  const provider = yield* make(optionsFor(sim.baseUrl))
  return { sim, provider }
})

describe("EBANX fixtures from the SDK and the documentation", () => {
  it.live("every Direct API answer of EBANX's PHP SDK is read: the payment, its status, the buyer's page where that rail puts it", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup
      for (const [name, entry] of Object.entries(sdk.direct)) {
        const payment = entry.answer.payment
        const transactionId = String(payment["merchant_payment_code"])
        const expected = entry.pageField === "redirect_url" ? entry.answer.redirect_url : payment[entry.pageField]
        assert.isString(expected, name)
        const method = findMethod(entry.catalogId)!
        if (provider.supports(method)) {
          yield* sim.answerNext("/ws/direct", entry.answer)
          const accepted = yield* provider.charge({ ...defaultChargeRequest(provider, method, transactionId), transactionId })
          assert.deepStrictEqual([accepted.providerRef, accepted.status, accepted.paymentFormUrl], [String(payment["hash"]), "pending", String(expected)], name)
        }
        yield* sim.answerNext("/ws/query", entry.answer)
        const update = yield* provider.status(String(payment["hash"]), transactionId)
        assert.deepStrictEqual([update.providerRef, update.status], [String(payment["hash"]), "pending"], name)
      }
    }).pipe(Effect.provide(Live)))

  it.live("the SDK's refund answer (RE, no merchant_refund_code) is a pending refund with EBANX's id", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* setup
      const payment = sdk.refund.answer.payment
      yield* sim.answerNext("/ws/query", { payment: { ...payment, refunds: [] }, status: "SUCCESS" })
      yield* sim.answerNext("/ws/refund", sdk.refund.answer)
      const outcome = yield* provider.refund({
        transactionId: String(payment["merchant_payment_code"]),
        providerRef: String(payment["hash"]),
        refundId: "CLM-01JD7Q3K5V8X2M4N6P9R1T3WB1",
        idempotencyKey: "CLM-01JD7Q3K5V8X2M4N6P9R1T3WB1:ebanx",
        amount: Money.decimal("10.23"),
        currency: "USD"
      })
      assert.deepStrictEqual(outcome, { providerRef: "21426", status: "pending" })
    }).pipe(Effect.provide(Live)))

  it.live("the npm module's direct and refund requests are accepted by the simulator as they are sent (document with dots, amount as text)", () =>
    Effect.gen(function*() {
      const { sim } = yield* setup
      const post = (path: string, body: unknown) =>
        Effect.promise(() => fetch(`${sim.baseUrl}${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>))
      const direct = { ...docs.directRequest.body, integration_key: integrationKey }
      const made = yield* post("/ws/direct", direct)
      assert.strictEqual(made["status"], "SUCCESS")
      const hash = (made["payment"] as { hash: string }).hash
      yield* sim.complete(hash)
      const refund = yield* post("/ws/refund", { ...docs.refundRequest.body, integration_key: integrationKey, hash })
      assert.deepInclude(refund, { status: "SUCCESS" })
      assert.strictEqual(sim.charges.get(hash)!.refunds[0]!.amountText, "1.00")
    }).pipe(Effect.provide(Live)))

  it.live("the documentation's examples: the notification form parses, the error object is EBANX's credentials refusal, the JWS header is the connector's", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(Wire.notificationOf(docs.notification.body), { type: "update", hashes: docs.notification.hashes })
      assert.deepStrictEqual(jwsHeader("<YOUR_KEY_ID>"), docs.jwsHeader.header)
      const { provider, sim } = yield* setup
      yield* sim.answerNext("/ws/direct", docs.error.answer)
      const exit = yield* Effect.exit(provider.charge(defaultChargeRequest(provider, findMethod("1001")!, "TXN-DOC-ERR")))
      assert.deepInclude(view(Option.getOrUndefined(Exit.findErrorOption(exit))), { reason: "invalid_credentials", retryable: true })
    }).pipe(Effect.provide(Live)))
})
