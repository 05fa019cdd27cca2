/**
 * Refunds of the Conekta connector, idempotent by the engine's refund id although Conekta
 * documents no idempotency for them: `POST /orders/{id}/refunds` takes only `amount`, `reason`
 * (one of five fixed values) and `expires_at`, and a refund carries no reference or metadata of
 * ours. So the connector writes ahead on the ORDER's `metadata` (which `PUT /orders/{id}` takes):
 *
 * 1. It reads the order. `metadata["refund_<refundId>"] = "<n>"` says this refund was asked for
 *    as the charge's n-th refund. When the charge holds at least n refunds, the n-th is this one
 *    (checked by amount): it is answered as it stands now, never asked for again.
 * 2. Otherwise it marks `refund_<refundId>` with n = (refunds the charge holds) + 1, then asks.
 *    A retry after a lost answer finds the mark and the refund at position n.
 * 3. A refusal (4xx) voids the mark (`"0"`), so a later refund can take position n; an outcome
 *    it cannot know (timeout, 5xx) leaves the mark, and another refund of the same order waits
 *    (retryable `refund_in_flight`) until this one is retried and resolved.
 *
 * Refunds are read in the order Conekta lists them (`created_at`, then as listed).
 */
import { Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import type { ProviderError, RefundOutcome, RefundRequest } from "../../core/ports/PaymentProvider.ts"
import type { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import * as Wire from "./Wire.ts"

export interface RefundDeps {
  readonly upstream: UpstreamHttp
  readonly call: <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: import("effect").Schema.Codec<A, unknown>) => Effect.Effect<A, ProviderError>
  readonly orderUrl: (id: string) => string
}

const voided = "0"

/** The charge's refunds in creation order. */
const refundsOf = (charge: Wire.Charge): ReadonlyArray<Wire.Refund> =>
  [...(charge.refunds?.data ?? [])].map((r, i) => [r, i] as const)
    .sort(([a, i], [b, j]) => (a.created_at ?? 0) - (b.created_at ?? 0) || i - j)
    .map(([r]) => r)

/** A refund of the charge as the engine's outcome (a refund's answer, or an order's update). */
export const outcomeOf = (refund: Wire.Refund, charge: Wire.Charge): RefundOutcome => ({
  providerRef: refund.id,
  status: Wire.toRefundStatus(refund.status),
  detail: refund.status ?? `no refund status; charge ${charge.status ?? "without status"}`
})

export const make = ({ call, orderUrl, upstream }: RefundDeps) => {
  const { fail } = upstream
  const getOrder = (operation: string, id: string) => call(operation, HttpClientRequest.get(orderUrl(id)), Wire.Order)
  const chargeOf = (order: Wire.Order) => {
    const charge = order.charges?.data[0]
    return charge === undefined
      ? Effect.fail(fail(false, "no_charge", `Conekta order ${order.id} has no charge to refund`))
      : Effect.succeed(charge)
  }
  const mark = (order: Wire.Order, key: string, value: string) =>
    call(
      "refund.mark",
      HttpClientRequest.put(orderUrl(order.id)).pipe(
        HttpClientRequest.bodyText(JSON.stringify({ metadata: { ...order.metadata, [key]: value } }), "application/json")
      ),
      Wire.Order
    )

  return Effect.fn("ConektaProvider.refund")(function*(request: RefundRequest) {
    const centavos = Wire.centavosOf(request.amount)
    if (centavos === undefined || centavos <= 0 || request.currency !== "MXN") {
      return yield* fail(false, "invalid_amount", "Conekta refunds a positive MXN amount in whole centavos")
    }
    const order = yield* getOrder("refund.lookup", request.providerRef)
    if (order.id !== request.providerRef) return yield* fail(true, "malformed_response", "Conekta answered about another order")
    const charge = yield* chargeOf(order)
    const refunds = refundsOf(charge)
    const key = Wire.refundKeyOf(request.refundId)
    const metadata = order.metadata ?? {}
    const marked = Number(metadata[key] ?? voided)
    if (marked > 0 && refunds.length >= marked) {
      const refund = refunds[marked - 1]!
      if (Math.abs(refund.amount) !== centavos) {
        return yield* fail(false, "refund_mismatch", `Conekta refund ${refund.id} is not of ${Wire.textOf(centavos)} MXN`)
      }
      return outcomeOf(refund, charge)
    }
    // Another refund of this order asked for and not yet resolved: its position is not settled.
    const inFlight = Object.entries(metadata).some(([k, v]) =>
      k !== key && k.startsWith(Wire.refundKeyOf("")) && Number(v) > refunds.length
    )
    if (inFlight) return yield* fail(true, "refund_in_flight", "another refund of this Conekta order is still unresolved")
    const position = refunds.length + 1
    const marking = marked === position ? order : yield* mark(order, key, String(position))
    // Conekta's metadata has no compare-and-set: two refunds marking at once can overwrite each
    // other, or both claim position n. Read back before asking: ours must be there, and no other
    // unresolved mark beside it, else this one steps back (its mark voided, retryable) and asks
    // on its retry. At worst both step back; never are two refunds asked for one position.
    const current = marking === order ? order : yield* getOrder("refund.lookup", order.id)
    const contested = Object.entries(current.metadata ?? {}).some(([k, v]) =>
      k !== key && k.startsWith(Wire.refundKeyOf("")) && Number(v) > refunds.length
    )
    if (current.metadata?.[key] !== String(position) || contested) {
      if (current.metadata?.[key] === String(position)) yield* Effect.ignore(mark(current, key, voided))
      return yield* fail(true, "refund_in_flight", "another refund of this Conekta order is being asked for at the same time")
    }
    const after = yield* call(
      "refund",
      HttpClientRequest.post(`${orderUrl(order.id)}/refunds`).pipe(
        HttpClientRequest.bodyText(JSON.stringify({ amount: centavos, reason: "requested_by_client" }), "application/json")
      ),
      Wire.Order
    ).pipe(
      Effect.tapError((error) =>
        // Refused outright: the mark is void, so it cannot claim another refund's position.
        error.retryable ? Effect.void : Effect.ignore(mark(current, key, voided))
      )
    )
    const afterCharge = yield* chargeOf(after)
    const created = refundsOf(afterCharge)[position - 1]
    if (created === undefined || Math.abs(created.amount) !== centavos) {
      return yield* fail(true, "malformed_response", `Conekta's answer does not hold the refund asked for on ${order.id}`)
    }
    return outcomeOf(created, afterCharge)
  })
}
