/**
 * The wire format of Conekta's API (`https://api.conekta.io`) as the connector uses it, as
 * Schemas (only the fields read or validated), the status maps and the amount conversion.
 *
 * | call          | request                                                   | answer                     |
 * |---------------|-----------------------------------------------------------|----------------------------|
 * | charge        | `POST /orders` {@link OrderBody}                          | `200` {@link Order}        |
 * | lookup        | `GET /orders?search=<transaction id>`                     | `200` {@link OrderList}    |
 * | status        | `GET /orders/{id}`                                        | `200` {@link Order}        |
 * | refund ledger | `PUT /orders/{id}` `{ metadata }`                         | `200` {@link Order}        |
 * | refund        | `POST /orders/{id}/refunds` {@link RefundBody}            | `200` {@link Order}        |
 * | notification  | Conekta `POST`s an {@link Event}, header `digest`         |                            |
 * | errors        | any call                                                  | {@link ErrorBody}          |
 *
 * Every call carries `Authorization: Bearer <private key>` and `Accept:` {@link acceptHeader}.
 * Amounts are integers in centavos; a refund's `amount` is NEGATIVE in answers (documented
 * example: `"amount": -15000`), read as its absolute value. Statuses are read as plain strings,
 * so a status this connector has never seen still decodes, and maps to `pending`.
 */
import { BigDecimal, Schema } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

/** The API version the official SDK `conekta@9.0.0` sends (`api/orders-api.ts`). */
export const acceptHeader = "application/vnd.conekta-v2.3.0+json"

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const Nullable = <S extends Schema.Top>(s: S) => Schema.optionalKey(Schema.NullOr(s))
const Centavos = Schema.Int

/** `metadata`: scalar values only (documented: string <= 249 characters, number, boolean). */
export const Metadata = Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Null]))
export type Metadata = typeof Metadata.Type

/** `customer_info`: `name`, `email` and `phone` (all required), or an existing `customer_id`. */
export const CustomerInfo = Schema.Union([
  Schema.Struct({
    name: Schema.NonEmptyString,
    email: Schema.NonEmptyString,
    phone: Schema.NonEmptyString,
    corporate: Schema.optionalKey(Schema.Boolean)
  }),
  Schema.Struct({ customer_id: Schema.NonEmptyString })
])

export const LineItem = Schema.Struct({
  name: Schema.String,
  unit_price: Centavos,
  quantity: Schema.Int,
  sku: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  tags: Schema.optionalKey(Schema.Array(Schema.String)),
  brand: Schema.optionalKey(Schema.String),
  metadata: Schema.optionalKey(Metadata)
})

export const ChargeBody = Schema.Struct({
  amount: Schema.optionalKey(Centavos),
  payment_method: Schema.Struct({
    type: Schema.NonEmptyString,
    expires_at: Schema.optionalKey(Schema.Int),
    token_id: Schema.optionalKey(Schema.String),
    payment_source_id: Schema.optionalKey(Schema.String),
    customer_ip_address: Schema.optionalKey(Schema.String)
  }),
  reference_id: Schema.optionalKey(Schema.String)
})

/**
 * The body of `POST /orders` as the simulator validates it (the API reference's `order_request`:
 * `currency`, `customer_info` and `line_items` required; what the official SDK sends is
 * accepted, its `shipping_contact`, `pre_authorize` and the like included).
 */
export const OrderBody = Schema.Struct({
  currency: Schema.String,
  customer_info: Schema.Unknown,
  line_items: Schema.Array(Schema.Unknown),
  charges: Schema.optionalKey(Schema.Array(Schema.Unknown)),
  metadata: Schema.optionalKey(Metadata),
  pre_authorize: Schema.optionalKey(Schema.Boolean),
  shipping_contact: Schema.optionalKey(Schema.Unknown),
  shipping_lines: Schema.optionalKey(Schema.Unknown),
  fiscal_entity: Schema.optionalKey(Schema.Unknown),
  discount_lines: Schema.optionalKey(Schema.Unknown),
  tax_lines: Schema.optionalKey(Schema.Unknown),
  needs_shipping_contact: Schema.optionalKey(Schema.Boolean),
  processing_mode: Schema.optionalKey(Schema.String)
})
export type OrderBody = typeof OrderBody.Type

/** A refund in `charges.data[].refunds.data[]`. `status` is absent in the documented example. */
export const Refund = Schema.Struct({
  id: Schema.NonEmptyString,
  object: Schema.optionalKey(Text),
  amount: Centavos,
  created_at: Schema.optionalKey(Schema.Int),
  expires_at: Nullable(Schema.Int),
  status: Nullable(Text)
})
export type Refund = typeof Refund.Type

const List = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ data: Schema.Array(item), has_more: Schema.optionalKey(Schema.Boolean), total: Schema.optionalKey(Schema.Int) })

export const PaymentMethod = Schema.Struct({
  type: Nullable(Text),
  object: Nullable(Text),
  reference: Nullable(Schema.Union([Text, Schema.Number])),
  barcode_url: Nullable(Text),
  service_name: Nullable(Text),
  expires_at: Nullable(Schema.Int),
  clabe: Nullable(Text),
  bank: Nullable(Text),
  receiving_account_number: Nullable(Text),
  receiving_account_bank: Nullable(Text)
})

export const Charge = Schema.Struct({
  id: Schema.NonEmptyString,
  status: Nullable(Text),
  amount: Schema.optionalKey(Centavos),
  order_id: Nullable(Text),
  /** The charge's `reference_id` (charge_request: "Custom reference to add to the charge"). */
  reference_id: Nullable(Text),
  failure_code: Nullable(Text),
  failure_message: Nullable(Text),
  payment_method: Nullable(PaymentMethod),
  refunds: Nullable(List(Refund))
})
export type Charge = typeof Charge.Type

/** An order as `POST /orders`, `GET /orders/{id}`, `PUT` and refunds answer it (fields used). */
export const Order = Schema.Struct({
  id: Schema.NonEmptyString,
  object: Schema.optionalKey(Text),
  amount: Schema.optionalKey(Centavos),
  amount_refunded: Schema.optionalKey(Schema.Int),
  currency: Schema.optionalKey(Text),
  payment_status: Nullable(Text),
  metadata: Nullable(Metadata),
  charges: Nullable(List(Charge))
})
export type Order = typeof Order.Type

/** `GET /orders`: `{ object: "list", data: [order], has_more, ... }`. */
export const OrderList = List(Order)

/** `POST /orders/{id}/refunds`: `amount` (centavos) and `reason` (one of {@link refundReasons}). */
export const RefundBody = Schema.Struct({
  amount: Schema.optionalKey(Schema.Int),
  reason: Schema.String,
  expires_at: Schema.optionalKey(Schema.Int)
})

/** The documented values of a refund's `reason` (developers.conekta.com/docs/reembolsar-orden). */
export const refundReasons = ["requested_by_client", "cannot_be_fulfilled", "duplicated_transaction", "suspected_fraud", "other"] as const

/** `{ details: [{ code, param, message, debug_message }], log_id, object: "error", type }`. */
export const ErrorBody = Schema.Struct({
  type: Nullable(Text),
  object: Nullable(Text),
  log_id: Nullable(Text),
  details: Nullable(Schema.Array(Schema.Struct({
    code: Nullable(Text),
    param: Nullable(Text),
    message: Nullable(Text),
    debug_message: Nullable(Text)
  })))
})

/**
 * A webhook event: `{ data: { object, previous_attributes }, id, type, created_at, livemode,
 * object: "event", ... }`; `data.object` is the order (`order.*` events) or a charge (`charge.*`
 * events, which carry `order_id`).
 */
export const Event = Schema.Struct({
  id: Schema.optionalKey(Text),
  type: Text,
  object: Schema.optionalKey(Text),
  created_at: Schema.optionalKey(Schema.Int),
  data: Schema.Struct({
    object: Schema.Struct({
      id: Schema.NonEmptyString,
      object: Schema.optionalKey(Text),
      order_id: Nullable(Text),
      payment_status: Nullable(Text),
      status: Nullable(Text)
    })
  })
})
export type Event = typeof Event.Type

/** The header Conekta signs notifications in (base64 RSA-SHA256 of the raw body). */
export const digestHeader = "digest"

/** The metadata key holding the engine's transaction id on every order the connector makes. */
export const transactionIdKey = "transaction_id"

const hundred = BigDecimal.fromBigInt(100n)

/**
 * An amount in MXN (major units, at most 2 decimals) as integer centavos, exactly: `150.5` ->
 * `15050`. Undefined when it has more decimals than centavos hold or is not safe as a JSON number.
 */
export const centavosOf = (amount: BigDecimal.BigDecimal): number | undefined => {
  const scaled = BigDecimal.normalize(BigDecimal.multiply(amount, hundred))
  if (scaled.scale > 0) return undefined
  const value = scaled.value * 10n ** BigInt(-scaled.scale)
  return value > BigInt(Number.MAX_SAFE_INTEGER) || value < 0n ? undefined : Number(value)
}

/** Integer centavos as a decimal amount in major units: `15050` -> `150.5`. */
export const amountOf = (centavos: number): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.make(BigInt(centavos), 2))

/** The major-unit text of centavos (for messages): `15050` -> `"150.5"`. */
export const textOf = (centavos: number) => Money.toText(amountOf(centavos))

/**
 * Conekta order `payment_status` -> engine status. Conekta publishes no list: the API reference
 * (https://github.com/conekta/openapi, `schemas/orders/order_response.yml`) and the SDK type it as
 * a plain string ("The payment status of the order", example `paid`); its event types
 * (`schemas/event_types/event_types.yml`: `order.paid`, `order.expired`, `order.canceled`,
 * `order.pending_payment`) name four. The others are the words the connector reads defensively
 * (README, "Not confirmed"). Anything not listed is `pending`, never a success.
 *
 * - `pending_payment` (voucher or CLABE issued, not paid) and `pre_authorized` are `pending`.
 * - `paid` is the only success: `completed`. `partially_refunded` is a paid order with refunds:
 *   still `completed` (refunds are the engine's own flow); `refunded` is `refunded`.
 * - `expired` is `expired`; `canceled` (also spelled `cancelled`), `declined` and `voided` are
 *   `failed`.
 * - `charged_back` is `chargeback`.
 */
export const DocumentedOrderStatus = Schema.Literals([
  "pending_payment",
  "pre_authorized",
  "paid",
  "partially_refunded",
  "refunded",
  "expired",
  "canceled",
  "cancelled",
  "declined",
  "voided",
  "charged_back"
])
export type DocumentedOrderStatus = typeof DocumentedOrderStatus.Type
export const orderStatuses = DocumentedOrderStatus.literals

export const orderStatusMap = {
  pending_payment: "pending",
  pre_authorized: "pending",
  paid: "completed",
  partially_refunded: "completed",
  refunded: "refunded",
  expired: "expired",
  canceled: "failed",
  cancelled: "failed",
  declined: "failed",
  voided: "failed",
  charged_back: "chargeback"
} satisfies StatusMap<typeof DocumentedOrderStatus, ChargeUpdate["status"]>

export const toUpdateStatus = (status: string | null | undefined): ChargeUpdate["status"] => {
  const key = (status ?? "").trim().toLowerCase()
  return statusOf(orderStatusMap, key, "pending")
}

/** The status of an order just created: a new order cannot be disputed or refunded. */
export const toChargeStatus = (status: string | null | undefined): ChargeStatus => {
  const update = toUpdateStatus(status)
  return update === "completed" || update === "failed" || update === "expired" ? update : "pending"
}

/**
 * A refund's status as the engine's. Conekta documents no list (the SDK's
 * `ChargeResponseRefundsData.status` says only "refund status", the schema's example is `pending`):
 * these are the words the connector reads (README, "Not confirmed"). `pending` waits; `canceled` (a refund cancelled with
 * `DELETE /orders/{id}/refunds/{refund_id}`), `failed`, `rejected`, `declined` and `expired` (a
 * cash refund not collected in time) are `failed`: the money stays the shop's; `succeeded`,
 * `refunded`, `completed` and `paid` are `succeeded`. A refund with NO `status` (the documented
 * example carries none) is not a success, whatever its charge says (a charge `partially_refunded`
 * does not say which refund paid): it waits, and is settled from what Conekta says later or by an
 * operator. Anything else unknown waits too.
 */
export const DocumentedRefundStatus = Schema.Literals([
  "pending",
  "succeeded",
  "refunded",
  "completed",
  "paid",
  "canceled",
  "cancelled",
  "failed",
  "rejected",
  "declined",
  "expired"
])
export type DocumentedRefundStatus = typeof DocumentedRefundStatus.Type
export const refundStatuses = DocumentedRefundStatus.literals

export const refundStatusMap = {
  pending: "pending",
  succeeded: "succeeded",
  refunded: "succeeded",
  completed: "succeeded",
  paid: "succeeded",
  canceled: "failed",
  cancelled: "failed",
  failed: "failed",
  rejected: "failed",
  declined: "failed",
  expired: "failed"
} satisfies StatusMap<typeof DocumentedRefundStatus, RefundStatus>

export const toRefundStatus = (status: string | null | undefined): RefundStatus =>
  statusOf(refundStatusMap, (status ?? "").trim().toLowerCase(), "pending")
