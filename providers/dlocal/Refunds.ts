/**
 * dLocal refunds for the pay-in connector, idempotent by the engine's refund id as the port asks
 * (https://docs.dlocal.com/api-documentation/payins-api-reference/refunds, https://docs.dlocal.com/docs/refunds,
 * https://docs.dlocal.com/reference/the-refund-object, https://docs.dlocal.com/reference/retrieve-order-refund).
 *
 * dLocal documents no idempotency key for `POST /refunds`. It takes the merchant's own refund id as
 * `order_refund_id`, refuses a second refund with the same one (`400 5011 Order refund id is
 * duplicated`) and lets the merchant retrieve a refund by it. So one `refund(request)`:
 *
 * 1. asks dLocal for the refund of `order_refund_id` = the engine's refund id
 *    (`GET /orders/{order_refund_id}`); if dLocal holds one, that refund, as it stands now, is the
 *    answer (a timeout's retry, or the engine following a pending refund);
 * 2. else takes the refund's `notification_url` (which dLocal's refunds page marks required for a
 *    refund's notification) from the request's `callbackUrl`, the engine's callback URL; a request
 *    without one (an embedder's own call) reads it from the payment (`GET /payments/{payment_id}`);
 * 3. sends `POST /refunds` with `payment_id`, the exact amount and currency, `order_refund_id`,
 *    `notification_url` and a description. A `5011` (a refund made between 1 and 3) is read back
 *    as in 1.
 *
 * | dLocal refund | answer                                                        |
 * |---------------|---------------------------------------------------------------|
 * | `SUCCESS`     | `succeeded`                                                   |
 * | `PENDING`     | `pending`: the engine asks again until it is final            |
 * | `REJECTED`, `CANCELLED` when found | `failed` (the money returns to the shop) |
 * | `REJECTED` as the answer to the create | a `ProviderError`, `Declined` (refused outright) |
 * | a 4xx to the create (5002, 5007, 5012...) | a `ProviderError`, `Declined`               |
 * | anything unknown | `pending`                                                  |
 */
import { Effect, Option, type Schema } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ProviderError, RefundOutcome, RefundRequest } from "../../core/ports/PaymentProvider.ts"
import { type ProviderFailures, UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { dlocalDecimals } from "./Rails.ts"
import * as Wire from "./Wire.ts"

export interface RefundDeps extends ProviderFailures {
  readonly call: <A>(operation: string, path: string, schema: Schema.Codec<A, unknown>, body?: string) => Effect.Effect<A, ProviderError>
}

const isNotFound = (error: ProviderError) =>
  error.reason._tag === "Declined" && (error.code === Wire.errorCodes.paymentNotFound || error.code === "http_404")

/** A dLocal refund as the engine's outcome (a refund's answer, or its notification). */
export const outcomeOf = (refund: Wire.RefundObject): RefundOutcome => ({
  providerRef: refund.id,
  status: Wire.toRefundStatus(refund.status),
  detail: refund.status_detail
})

export const makeRefund = ({ call, declined, failed, malformed }: RefundDeps) => {

  /** The refund dLocal holds for this refund id, checked to be about this payment. */
  const held = (request: RefundRequest) =>
    call("refund.lookup", `/orders/${encodeURIComponent(request.refundId)}`, Wire.RefundObject).pipe(
      Effect.map(Option.some),
      Effect.catchIf(isNotFound, () => Effect.succeed(Option.none<Wire.RefundObject>())),
      Effect.flatMap((found) =>
        Option.isSome(found) && found.value.payment_id !== undefined && found.value.payment_id !== request.providerRef
          ? Effect.fail(declined("order_refund_id_conflict", `dLocal holds refund ${request.refundId} for another payment`))
          : Effect.succeed(found)
      )
    )

  return Effect.fn("DLocalProvider.refund")(function*(request: RefundRequest) {
    const amount = Money.round(request.amount, request.currency)
    if (amount.scale > dlocalDecimals(request.currency)) {
      return yield* declined("amount_precision", `dLocal takes ${request.currency} amounts with ${dlocalDecimals(request.currency)} decimals`)
    }
    const before = yield* held(request)
    if (Option.isSome(before)) return outcomeOf(before.value)

    const notificationUrl = request.callbackUrl ??
      (yield* call("refund.payment", `/payments/${encodeURIComponent(request.providerRef)}`, Wire.PaymentObject)).notification_url
    // Major units from decimal text, as in `charge`.
    const body = UpstreamHttp.jsonText({
      payment_id: request.providerRef,
      amount: new UpstreamHttp.JsonDecimal(amount),
      currency: request.currency,
      order_refund_id: request.refundId,
      ...UpstreamHttp.defined({ notification_url: notificationUrl }),
      description: `Refund ${request.refundId} of ${request.transactionId}`
    })
    const created = yield* call("refund", "/refunds", Wire.RefundObject, body).pipe(
      Effect.map((refund) => ({ refund, fresh: true })),
      Effect.catchIf(
        (error) => error.code === Wire.errorCodes.orderRefundIdDuplicated,
        () =>
          Effect.flatMap(held(request), (found) =>
            Option.isSome(found)
              ? Effect.succeed({ refund: found.value, fresh: false })
              : Effect.fail(failed("refund_lookup_failed", `dLocal says refund ${request.refundId} exists but does not show it`))
          )
      )
    )
    if (created.refund.payment_id !== undefined && created.refund.payment_id !== request.providerRef) {
      return yield* malformed("dLocal answered about another payment's refund")
    }
    if (created.fresh && created.refund.status.trim().toUpperCase() === "REJECTED") {
      return yield* declined("refund_rejected", `dLocal rejected the refund: ${created.refund.status_detail ?? created.refund.status}`)
    }
    return outcomeOf(created.refund)
  })
}
