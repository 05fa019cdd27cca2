/**
 * Refunds of the Conekta connector, idempotent by the engine's refund although Conekta documents
 * no idempotency for them: `POST /orders/{id}/refunds` takes only `amount`, `reason` (one of five
 * fixed values) and `expires_at`, and a refund carries no reference or metadata of ours. Nothing
 * undocumented is relied on (no search, no marks written onto a paid order): the engine tells the
 * connector what it holds of the payment's refunds (`RefundRequest.providerRefundRef`,
 * `knownRefunds`, `refundsAhead`), and the connector tells its refund among the charge's refunds
 * (`GET /orders/{id}`, `charges.data[0].refunds.data`) as the one the engine does not hold:
 *
 * 1. A refund the engine already holds (`providerRefundRef`: a pending refund followed) is read
 *    from the charge's refunds, as it stands now.
 * 2. While refunds of this payment opened before this one have no answer yet (`refundsAhead`),
 *    this one waits (`Failed` `refund_in_flight`, asked again later): a payment's refunds go one at a time, the
 *    oldest first, so a refund the engine does not hold can only be the one being asked for.
 * 3. Before sending, the charge's refunds of this amount that the engine does not hold are looked
 *    up: one is this refund, made by an earlier call whose answer was lost (a timeout's retry):
 *    answered as it stands, never asked for again. More than one cannot be told apart (a refund
 *    made outside the engine, in Conekta's panel): `Failed` `refund_ambiguous`, never a guess.
 * 4. Else it is asked for; the answer's refunds of this amount that were not there before and the
 *    engine does not hold are this refund. An answer that does not show exactly one is an unknown
 *    outcome (the refund may be made: the next call finds it at 3), never a refusal.
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
  const { declined, failed, malformed } = upstream
  const getOrder = (operation: string, id: string) => call(operation, HttpClientRequest.get(orderUrl(id)), Wire.Order)
  const chargeOf = (order: Wire.Order) => {
    const charge = order.charges?.data[0]
    return charge === undefined
      ? Effect.fail(declined("no_charge", `Conekta order ${order.id} has no charge to refund`))
      : Effect.succeed(charge)
  }

  return Effect.fn("ConektaProvider.refund")(function*(request: RefundRequest) {
    const centavos = Wire.centavosOf(request.amount)
    if (centavos === undefined || centavos <= 0 || request.currency !== "MXN") {
      return yield* declined("invalid_amount", "Conekta refunds a positive MXN amount in whole centavos")
    }
    const order = yield* getOrder("refund.lookup", request.providerRef)
    if (order.id !== request.providerRef) return yield* malformed("Conekta answered about another order")
    const charge = yield* chargeOf(order)
    const refunds = refundsOf(charge)
    const ofThisAmount = (refund: Wire.Refund) => Math.abs(refund.amount) === centavos

    if (request.providerRefundRef !== undefined) {
      const held = refunds.find((r) => r.id === request.providerRefundRef)
      if (held === undefined) {
        return yield* failed("refund_not_listed", `Conekta order ${order.id} does not list refund ${request.providerRefundRef}`)
      }
      // Made, of another amount: not a refusal (money may have left), the engine asks again.
      if (!ofThisAmount(held)) return yield* failed("refund_mismatch", `Conekta refund ${held.id} is not of ${Wire.textOf(centavos)} MXN`)
      return outcomeOf(held, charge)
    }
    if ((request.refundsAhead ?? 0) > 0) {
      return yield* failed("refund_in_flight", "an earlier refund of this Conekta order has no answer yet")
    }
    const known = new Set(request.knownRefunds ?? [])
    const unknown = refunds.filter((r) => !known.has(r.id) && ofThisAmount(r))
    if (request.knownRefunds === undefined && unknown.length > 0) {
      // A caller that does not say which refunds it holds: one of this amount may be another's.
      return yield* failed("refund_ambiguous", `Conekta order ${order.id} holds refunds of this amount and the caller names none it holds`)
    }
    if (unknown.length > 1) {
      return yield* failed("refund_ambiguous", `Conekta order ${order.id} holds ${unknown.length} refunds of this amount the engine does not hold`)
    }
    if (unknown.length === 1) return outcomeOf(unknown[0]!, charge)

    const before = new Set(refunds.map((r) => r.id))
    const after = yield* call(
      "refund",
      HttpClientRequest.post(`${orderUrl(order.id)}/refunds`).pipe(
        HttpClientRequest.bodyText(JSON.stringify({ amount: centavos, reason: "requested_by_client" }), "application/json")
      ),
      Wire.Order
    )
    const afterCharge = yield* chargeOf(after)
    const made = refundsOf(afterCharge).filter((r) => !before.has(r.id) && !known.has(r.id) && ofThisAmount(r))
    if (after.id !== order.id || made.length !== 1) {
      return yield* malformed(`Conekta's answer does not show the one refund asked for on ${order.id}`)
    }
    return outcomeOf(made[0]!, afterCharge)
  })
}
