/**
 * Capturing and voiding a Pagar.me card authorization: an order made with
 * `credit_card.operation_type: "auth_only"` (`OrderBody.ts`, asked with `capture: false`), whose
 * charge Pagar.me holds `pending` with its transaction `authorized_pending_capture`.
 *
 * - **Capture**: `POST /charges/{charge_id}/capture` with `{ amount, code, operation_reference }`
 *   (centavos; `code` = the engine's transaction id, the order's own code again, since the
 *   capture's `code` replaces the charge's; `operation_reference` = the capture's key), as
 *   https://connect-stone.stone.com.br/reference/captura-de-cobrança and the SDK's
 *   `ChargesController.captureCharge` / `CreateCaptureChargeRequest` write it. Less than
 *   authorized is a partial capture; the rest is released.
 * - **Void**: `DELETE /charges/{charge_id}` with `{ operation_reference }` and no amount: the
 *   whole authorization is released (charge `canceled`, transaction `voided`).
 * - **Window**: 4 days (`authorizationWindow`). The page gives 5 days "counting the day of the
 *   authorization" and 4 for Visa, after which Pagar.me cancels the authorization itself
 *   (`status_reason: capture_timeout`); the port takes one window per provider, so the shortest.
 * - **Exactly once**: each call carries `Idempotency-Key` = the core's key (the SDK sends it on
 *   both; Pagar.me documents its 24-hour horizon for orders). Because that is not confirmed for
 *   these routes, the charge is read FIRST: a charge already captured (of this amount) or
 *   already voided answers `succeeded` without a second call, so a retry after a lost answer
 *   never captures twice, whatever the key's fate upstream.
 * - Answers: a charge `paid` is captured (`succeeded`); `canceled` with its transaction `voided`
 *   is voided (`succeeded`); a held authorization still `pending` after the call is `pending`
 *   (the engine asks again with the same key); anything final and different is `Declined`.
 */
import { Duration, Effect, Option, type Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import type { CaptureOutcome, CaptureRequest, ProviderError, VoidRequest } from "../../core/ports/PaymentProvider.ts"
import type { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Rails from "./Rails.ts"
import type * as Wire from "./Wire.ts"

/** How long Pagar.me holds an authorization (Visa's 4 days, the shortest of the page's windows). */
export const pagarmeAuthorizationWindow = Duration.days(4)

export interface CardCaptureDeps {
  readonly upstream: UpstreamHttp
  readonly call: <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) => Effect.Effect<A, ProviderError>
  readonly chargeUrl: (chargeId: string) => string
  readonly chargeSchema: Schema.Codec<Wire.Charge, unknown>
}

const held = (charge: Wire.Charge) => {
  const status = charge.last_transaction?.status ?? undefined
  return charge.status === "pending" && (status === "authorized_pending_capture" || status === "waiting_capture")
}
const voided = (charge: Wire.Charge) => charge.status === "canceled" && (charge.paid_amount ?? 0) === 0

export const make = (deps: CardCaptureDeps) => {
  const { declined, malformed } = deps.upstream
  const read = (operation: string, chargeId: string) => deps.call(operation, HttpClientRequest.get(deps.chargeUrl(chargeId)), deps.chargeSchema)
  const send = (operation: string, request: HttpClientRequest.HttpClientRequest, key: string, body: unknown) =>
    deps.call(
      operation,
      request.pipe(HttpClientRequest.setHeader("Idempotency-Key", key), HttpClientRequest.bodyText(JSON.stringify(body), "application/json")),
      deps.chargeSchema
    )
  const same = (chargeId: string, charge: Wire.Charge) =>
    charge.id === chargeId ? Effect.succeed(charge) : Effect.fail(malformed("Pagar.me answered about another charge"))
  const answered = (chargeId: string, status: CaptureOutcome["status"]): CaptureOutcome => ({ providerRef: chargeId, status })

  /** A charge after a capture: captured of `centavos`, still held, or refused. */
  const captureOutcome = (charge: Wire.Charge, centavos: number): Effect.Effect<CaptureOutcome, ProviderError> => {
    if (charge.status === "paid" || charge.status === "overpaid") {
      const paid = charge.paid_amount ?? charge.amount ?? undefined
      return paid === centavos
        ? Effect.succeed(answered(charge.id, "succeeded"))
        : Effect.fail(declined("capture_amount_mismatch", `charge ${charge.id} was captured for ${paid ?? "?"} centavos, not ${centavos}`))
    }
    if (held(charge) || charge.status === "processing") return Effect.succeed(answered(charge.id, "pending"))
    return Effect.fail(declined("authorization_not_held", `charge ${charge.id} is ${charge.status}: nothing to capture`))
  }

  const capture = Effect.fn("PagarmeProvider.capture")(function*(request: CaptureRequest) {
    const centavos = Rails.toCentavos(request.amount)
    if (Option.isNone(centavos) || centavos.value <= 0) return yield* declined("invalid_amount", "a capture is a positive amount in whole centavos")
    const before = yield* same(request.providerRef, yield* read("capture.lookup", request.providerRef))
    // Captured already (an earlier attempt whose answer was lost), or not capturable: no call.
    if (!held(before)) return yield* captureOutcome(before, centavos.value)
    const after = yield* send(
      "capture",
      HttpClientRequest.post(`${deps.chargeUrl(request.providerRef)}/capture`),
      request.idempotencyKey,
      { amount: centavos.value, code: request.transactionId, operation_reference: request.idempotencyKey }
    )
    return yield* captureOutcome(yield* same(request.providerRef, after), centavos.value)
  })

  const voidOutcome = (charge: Wire.Charge): Effect.Effect<CaptureOutcome, ProviderError> =>
    voided(charge)
      ? Effect.succeed(answered(charge.id, "succeeded"))
      : held(charge)
      ? Effect.succeed(answered(charge.id, "pending"))
      : Effect.fail(declined("authorization_not_held", `charge ${charge.id} is ${charge.status}: nothing to void`))

  const voidAuthorization = Effect.fn("PagarmeProvider.void")(function*(request: VoidRequest) {
    const before = yield* same(request.providerRef, yield* read("void.lookup", request.providerRef))
    if (!held(before)) return yield* voidOutcome(before)
    const after = yield* send("void", HttpClientRequest.delete(deps.chargeUrl(request.providerRef)), request.idempotencyKey, {
      operation_reference: request.idempotencyKey
    })
    return yield* voidOutcome(yield* same(request.providerRef, after))
  })

  return { capture, void: voidAuthorization, authorizationWindow: pagarmeAuthorizationWindow }
}
