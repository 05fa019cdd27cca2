/**
 * `ProviderError` carries one of four reasons and nothing else that answers the cascade's
 * questions: each named constructor gives its reason, Effect's reason combinators see them, and a
 * switch that forgets one does not compile.
 */
import { assert, describe, it } from "@effect/vitest"
import { absurd, Effect } from "effect"
import { ProviderError, type ProviderFailure } from "../../core/ports/PaymentProvider.ts"
import { UpstreamHttp } from "../../providers/kit/UpstreamHttp.ts"

const fields = { providerId: "acme", code: "5001", message: "missing parameter" }

describe("ProviderError reasons", () => {
  it("each named constructor gives its reason, and keeps the provider's code and message", () => {
    const made = [
      ProviderError.declined(fields),
      ProviderError.failed(fields),
      ProviderError.outcomeUnknown(fields),
      ProviderError.misconfigured(fields)
    ]
    assert.deepStrictEqual(made.map((e) => e.reason._tag), ["Declined", "Failed", "OutcomeUnknown", "Misconfigured"])
    for (const e of made) assert.deepInclude(e, { _tag: "ProviderError", providerId: "acme", code: "5001", message: "missing parameter" })
  })

  it("a connector's constructors are the same, and a malformed answer is an unknown outcome", () => {
    const failures = UpstreamHttp.failuresOf("acme")
    const malformed = failures.malformed("answered about another order")
    assert.deepStrictEqual([malformed.reason._tag, malformed.code], ["OutcomeUnknown", "malformed_response"])
    assert.strictEqual(failures.of({ reason: "Misconfigured", code: "invalid_credentials" }, "no").reason._tag, "Misconfigured")
  })

  it.effect("Effect.catchReason sees the reason", () =>
    Effect.gen(function*() {
      const answer = yield* Effect.fail(ProviderError.declined(fields)).pipe(
        Effect.catchReason("ProviderError", "Declined", () => Effect.succeed("declined"), (r) => Effect.succeed(r._tag))
      )
      assert.strictEqual(answer, "declined")
    }))

  it("a switch on the reason that forgets one does not compile", () => {
    const cascades = (reason: ProviderFailure): boolean => {
      switch (reason._tag) {
        case "Declined":
        case "OutcomeUnknown":
          return false
        case "Failed":
          return true
        default:
          // @ts-expect-error `Misconfigured` is not handled, so `reason` is not `never` here
          return absurd<never>(reason)
      }
    }
    assert.isTrue(cascades(ProviderError.failed(fields).reason))
  })
})
