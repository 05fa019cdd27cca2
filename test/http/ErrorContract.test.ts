/**
 * Each operation of `/openapi.json` lists only the errors it can answer, each code with the schema
 * of its `details`; and the check the test host applies to every reply (test/support/Contract.ts)
 * refuses an answer, error or success, the document does not allow.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { contractViolation } from "../support/Contract.ts"

const codesAt = (response: { content: { "application/json": { schema: { $ref?: string; oneOf?: ReadonlyArray<{ $ref: string }> } } } }) => {
  const schema = response.content["application/json"].schema
  return (schema.oneOf ?? [schema]).map((s) => s.$ref!.replace("#/components/schemas/Error_", ""))
}

describe("errors per operation in the OpenAPI documents", () => {
  layer(testHost(MemoryStore.layer), { excludeTestServices: true })((it) => {
    it.effect("an operation lists its own statuses and codes, and each code's details has a schema", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        const get = spec.paths["/api/v1/payments/{id}"].get.responses
        assert.sameMembers(Object.keys(get), ["200", "400", "401", "403", "404", "413", "429", "500"], "a read has no 409, 415 or 422")
        assert.sameMembers(codesAt(get["401"]), ["missing_authorization", "invalid_api_key", "token_expired", "token_revoked"])

        const refund = spec.paths["/api/v1/payments/{id}/refund"].post.responses
        assert.sameMembers(codesAt(refund["422"]), ["refund_not_allowed", "refund_amount_exceeds_remaining", "balance_insufficient", "amount_rounds_to_zero"])
        assert.sameMembers(codesAt(refund["409"]), ["idempotency_key_reused", "idempotency_key_in_progress"])
        assert.sameMembers(codesAt(spec.paths["/api/v1/auth/token"].post.responses["401"]), ["authentication_failed"])
        assert.notProperty(spec.paths["/api/v1/checkout/sessions/{token}"].get.responses, "401", "public: no authentication errors")

        const exceeds = spec.components.schemas["Error_refund_amount_exceeds_remaining"].properties.error.properties
        assert.deepStrictEqual(exceeds.code, { type: "string", const: "refund_amount_exceeds_remaining" })
        assert.sameMembers(exceeds.details.required, ["requested", "remaining", "currency"])
        assert.deepStrictEqual(exceeds.details.properties.remaining.type, "number")
        assert.strictEqual(spec.components.schemas["Error"].oneOf.length, Object.keys(spec.components.schemas).filter((n) => n.startsWith("Error_")).length)

        const admin = (yield* call("GET", "/admin/openapi.json")).body
        assert.sameMembers(codesAt(admin.paths["/admin/v1/shops/{shopId}/routing"].put.responses["409"]), ["routing_version_conflict"])
      }))

    it.effect("an error answer the document does not allow is a contract violation", () =>
      Effect.gen(function*() {
        const envelope = (code: string, type: string, details: Record<string, unknown>) => ({
          error: { code, type, message: "m", requestId: "req_1", docs_url: "http://x/docs/errors", details }
        })
        const notFound = envelope("not_found", "invalid_request_error", { resource: "payment", id: "tx_1" })
        assert.isUndefined(contractViolation("GET", "/api/v1/payments/tx_1", 404, notFound))
        assert.include(
          contractViolation("GET", "/api/v1/payments/tx_1", 422, envelope("cascade_exhausted", "provider_error", { reason: "provider_declined", paymentMethodEnabledForShop: true })),
          "a status its document does not list"
        )
        assert.include(contractViolation("GET", "/api/v1/payments/tx_1", 404, envelope("not_found", "invalid_request_error", { unexpected: 1 })), "does not allow")
        assert.include(contractViolation("GET", "/api/v1/payments/tx_1", 400, envelope("fund_sandbox_only", "invalid_request_error", {})), "does not allow")
        assert.include(contractViolation("GET", "/api/v1/payments/tx_1", 200, { id: "tx_1" }), "does not allow", "successes are checked too")

        // And a real answer keeps it: the refund of an unknown payment.
        const sk = (yield* createMerchant()).keys.sandbox.secretKey
        const reply = yield* call("POST", "/api/v1/payments/tx_missing/refund", { bearer: sk, body: { amount: 1 } })
        assert.strictEqual(reply.status, 404)
        assert.deepStrictEqual(reply.body.error.details, { resource: "payment", id: "tx_missing" })
      }))
  })
})
