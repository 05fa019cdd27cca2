/**
 * The payment document's hand-written encoder (`encodePaymentJson`, the write path) writes what
 * the schema's codec writes, for any payment the schema allows, and the schema reads it back.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Arbitrary from "effect/Arbitrary"
import { encodePaymentJson, Payment, PaymentJson } from "../../core/payments/Payment.ts"

const viaSchema = Schema.encodeSync(PaymentJson)
const decode = Schema.decodeUnknownSync(PaymentJson)
const json = (value: unknown) => JSON.stringify(value)

describe("the payment document", () => {
  it.effect("encodePaymentJson writes the schema codec's JSON, which decodes to the same payment", () =>
    Effect.gen(function*() {
      const result = yield* Arbitrary.checkEffect(
        Arbitrary.schema(Payment),
        (p) => json(encodePaymentJson(p)) === json(viaSchema(p)) && json(viaSchema(decode(JSON.parse(json(encodePaymentJson(p)))))) === json(viaSchema(p)),
        { runs: 300, seed: 14 }
      )
      assert.strictEqual(Arbitrary.formatCheckFailure(result), undefined)
    }))
})
