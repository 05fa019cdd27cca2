/**
 * The records of the Pagar.me simulator (`PagarmeSimulator.ts`), how the API renders them, and
 * what `POST /orders` refuses. A test tool, never imported by the plugin.
 *
 * Refusals of `POST /orders`, answered `422` `{ message: "The request is invalid.", errors: {
 * "<field path>": ["<words>"] } }` (the words are the simulator's; the shape is the API's
 * contract-validation answer, see README):
 * - a body that is not an order (no `items`, no `payments`, a non-integer amount...);
 * - an item amount below 1 centavo, or a quantity below 1;
 * - not exactly one payment, or a `payment_method` other than `pix` / `boleto` / `credit_card`
 *   (a card's own refusals: `SimulatorCards.ts`);
 * - no `customer` (nor `customer_id`), or a customer without `name`, `email`, `document` or
 *   `type`; PIX without a phone (`customer.phones`); boleto without an address
 *   (`boleto.billing_address` or `customer.address`: `zip_code`, `city`, `state`, and `line_1` or
 *   `street` + `number`).
 */
import * as Wire from "./Wire.ts"

export interface SimTransaction {
  readonly id: string
  readonly kind: "payment" | "refund"
  /** `pix` or `boleto`. */
  readonly type: string
  /** Centavos. */
  readonly amount: number
  status: string
  readonly createdAt: string
  updatedAt: string
  /** The idempotency key of the request that made a refund. */
  readonly idempotencyKey?: string | undefined
  /** When a refund was paid (`refunded`, epoch ms), for the payables. */
  refundedAt?: number | undefined
  /** A card payment's card as Pagar.me renders it (masked) and the acquirer's answer. */
  readonly card?: Readonly<Record<string, string | number>> | undefined
  readonly acquirerReturnCode?: string | undefined
  readonly acquirerMessage?: string | undefined
  readonly antifraudReproved?: boolean | undefined
  /** A card payment's `operation_type` (`auth_and_capture` unless the order asked `auth_only`). */
  readonly operationType?: string | undefined
}

export interface SimCharge {
  readonly id: string
  readonly orderId: string
  readonly orderCode: string
  /** Centavos. */
  readonly amount: number
  readonly method: "pix" | "boleto" | "credit_card"
  /** A card order's `credit_card.installments` (1 for PIX and boleto, or when absent). */
  readonly installments: number
  status: string
  paidAmount: number
  canceledAmount: number
  metadata: Record<string, string>
  readonly transactions: Array<SimTransaction>
  readonly customer: Wire.Customer | undefined
  readonly createdAt: string
  updatedAt: string
  /** When the charge was paid (epoch ms), for the payables. */
  paidAt?: number | undefined
  /** When it was charged back (`chargedback`, epoch ms). */
  chargedBackAt?: number | undefined
}

export interface SimOrder {
  readonly id: string
  readonly code: string
  readonly body: Wire.OrderBody
  /** The request body exactly as received. */
  readonly rawBody: string
  readonly idempotencyKey: string | undefined
  readonly charge: SimCharge
}

export const invalid = (errors: Record<string, ReadonlyArray<string>>) => ({
  status: 422,
  body: { message: "The request is invalid.", errors }
})

const present = (text: string | undefined) => text !== undefined && text.trim() !== ""

const addressComplete = (a: Wire.Address | undefined) =>
  a !== undefined && present(a.zip_code) && present(a.city) && present(a.state) &&
  (present(a.line_1) || (present(a.street) && present(a.number)))

/** Why `POST /orders` refuses a decoded body, by field (`undefined`: it does not). */
export const refusalOf = (body: Wire.OrderBody): Record<string, ReadonlyArray<string>> | undefined => {
  const errors: Record<string, Array<string>> = {}
  const add = (field: string, words: string) => void (errors[field] ??= []).push(words)
  if (body.items.length === 0) add("order.items", "At least one item is required.")
  body.items.forEach((item, i) => {
    if (item.amount < 1) add(`order.items[${i}].amount`, "The amount must be at least 1 (centavo).")
    if (item.quantity < 1) add(`order.items[${i}].quantity`, "The quantity must be at least 1.")
  })
  if (body.payments.length !== 1) add("order.payments", "Exactly one payment is accepted by this simulator.")
  const payment = body.payments[0]
  if (payment !== undefined && !["pix", "boleto", "credit_card"].includes(payment.payment_method)) {
    add("order.payments[0].payment_method", `The payment method '${payment.payment_method}' is not enabled.`)
  }
  const customer = body.customer
  if (customer === undefined) {
    if (!present(body.customer_id ?? undefined)) add("order.customer", "The customer field is required.")
  } else {
    for (const field of ["name", "email", "document", "type"] as const) {
      if (!present(customer[field])) add(`order.customer.${field}`, `The ${field} field is required.`)
    }
    const phone = customer.phones?.mobile_phone ?? customer.phones?.home_phone
    if (payment?.payment_method === "pix" && (phone === undefined || !present(phone.number) || !present(phone.area_code))) {
      add("order.customer.phones", "A phone (area_code and number) is required for pix.")
    }
  }
  if (payment?.payment_method === "boleto" && !addressComplete(payment.boleto?.billing_address) && !addressComplete(customer?.address)) {
    add("order.payments[0].boleto.billing_address", "The billing address is required for boleto.")
  }
  return Object.keys(errors).length === 0 ? undefined : errors
}

/** The order's amount: the items' amounts times their quantities (centavos). */
export const orderAmount = (body: Wire.OrderBody) => body.items.reduce((sum, item) => sum + item.amount * item.quantity, 0)

const digitsOf = (id: string, length: number) =>
  (Array.from(id).map((c) => c.charCodeAt(0) % 10).join("") + "0".repeat(length)).slice(0, length)

export const transactionView = (t: SimTransaction, charge: SimCharge, baseUrl: string) => {
  const common = {
    id: t.id,
    transaction_type: t.type,
    gateway_id: `gw_${t.id}`,
    amount: t.amount,
    status: t.status,
    success: t.status !== "failed" && t.status !== "with_error",
    operation_type: t.kind === "refund" ? "cancel" : t.operationType ?? "auth_and_capture",
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    gateway_response: { code: "200", errors: [] as Array<{ message: string }> }
  }
  if (t.kind === "refund") return common
  if (t.type === "credit_card") {
    return {
      ...common,
      installments: charge.installments,
      acquirer_name: "simulator",
      acquirer_tid: digitsOf(t.id, 12),
      acquirer_nsu: digitsOf(t.id, 6),
      ...(t.acquirerReturnCode === undefined ? {} : { acquirer_return_code: t.acquirerReturnCode }),
      acquirer_message: t.acquirerMessage ?? "",
      ...(t.antifraudReproved === true ? { antifraud_response: { status: "reproved", score: "very_high" } } : {}),
      card: t.card ?? null
    }
  }
  if (t.type === "pix") {
    return {
      ...common,
      qr_code: `00020101021226820014br.gov.bcb.pix2560pix.simulator/qr/v2/${charge.id}5204000053039865802BR6304ABCD`,
      qr_code_url: `${baseUrl}/pix/qr/${charge.id}.png`,
      expires_at: charge.createdAt
    }
  }
  return {
    ...common,
    url: `${baseUrl}/boletos/${t.id}`,
    pdf: `${baseUrl}/boletos/${t.id}/pdf`,
    line: digitsOf(t.id, 47),
    barcode: `${baseUrl}/boletos/${t.id}/barcode`,
    nosso_numero: digitsOf(charge.id, 11),
    bank: "341",
    document_number: digitsOf(charge.orderId, 10),
    instructions: "Pagar até o vencimento",
    due_at: charge.createdAt,
    type: "DM"
  }
}

export const chargeView = (c: SimCharge, baseUrl: string) => {
  const last = c.transactions.at(-1)
  return {
    id: c.id,
    code: c.orderCode,
    gateway_id: `gw_${c.id}`,
    amount: c.amount,
    status: c.status,
    currency: "BRL",
    payment_method: c.method,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    ...(c.paidAmount > 0 ? { paid_amount: c.paidAmount } : {}),
    ...(c.canceledAmount > 0 ? { canceled_amount: c.canceledAmount } : {}),
    customer: c.customer === undefined ? null : { id: `cus_${c.orderId.slice(3)}`, ...c.customer },
    last_transaction: last === undefined ? null : transactionView(last, c, baseUrl),
    order: { id: c.orderId, code: c.orderCode },
    metadata: c.metadata
  }
}

/** The order's status from its one charge's. */
const orderStatusOf = (c: SimCharge) =>
  c.status === "paid" || c.status === "overpaid" ? "paid" : c.status === "failed" ? "failed" : c.status === "canceled" ? "canceled" : "pending"

export const orderView = (o: SimOrder, baseUrl: string) => {
  const { charge } = o
  const { order: _order, ...chargeInOrder } = chargeView(charge, baseUrl)
  return {
    id: o.id,
    code: o.code,
    amount: charge.amount,
    currency: "BRL",
    closed: o.body.closed ?? true,
    items: o.body.items.map((item, i) => ({ id: `oi_${o.id.slice(3)}${i}`, ...item, status: "active" })),
    customer: chargeInOrder.customer,
    status: orderStatusOf(charge),
    created_at: charge.createdAt,
    updated_at: charge.updatedAt,
    charges: [chargeInOrder],
    metadata: o.body.metadata ?? {}
  }
}
