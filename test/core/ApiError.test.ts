import { assert, describe, it } from "@effect/vitest"
import { apiError, ErrorCatalog, errorCodes } from "../../core/ApiError.ts"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"

describe("ApiError", () => {
  it("has every code of spec section 7 with its HTTP status", () => {
    const spec: Record<string, number> = {
      invalid_api_key: 401, invalid_request: 400, fund_sandbox_only: 400, simulate_sandbox_only: 400,
      checkout_session_not_found: 404, checkout_session_already_completed: 409, missing_required_fields: 422,
      amount_out_of_limits: 422, cascade_exhausted: 422, fx_unavailable: 422, payout_dispatch_failed: 422,
      payout_method_unavailable: 422, currency_not_funded: 422, balance_insufficient: 422, amount_invalid: 422,
      deposit_method_required: 422, deposit_method_unavailable: 422, deposit_accounts_unavailable: 422, rate_limited: 429
    }
    for (const [code, status] of Object.entries(spec)) {
      assert.include(errorCodes, code)
      assert.strictEqual(httpStatus[code as keyof typeof ErrorCatalog], status, code)
    }
  })

  it("carries its type from the catalog; the HTTP status is the adapter's", () => {
    const e = apiError("balance_insufficient", "short", { currency: "USD", requested: 10, available: 4, shortfall: 6 })
    assert.strictEqual(httpStatus[e.code], 422)
    assert.strictEqual(e.type, "invalid_request_error")
    assert.strictEqual(e._tag, "ApiError")
    assert.deepStrictEqual(e.details, { currency: "USD", requested: 10, available: 4, shortfall: 6 })
  })
})
