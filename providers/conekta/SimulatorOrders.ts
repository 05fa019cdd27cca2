/**
 * The orders of the Conekta simulator (`ConektaSimulator.ts`): what `POST /orders` refuses, how an
 * order, its charge and its refunds look in answers, and the refund operations, as the API
 * reference (github.com/conekta/openapi, `schemas/orders`, `schemas/charges`, `resources/errors`)
 * and its documented examples describe them. A test tool, never imported by the plugin.
 */
import { Money } from "../../core/ports/index.ts"
import type { Answer } from "../kit/SimulatorServer.ts"
import { rails } from "./Rails.ts"
import * as Wire from "./Wire.ts"

export interface SimulatedRefund {
  readonly id: string
  /** Centavos, positive (answered negative, as documented). */
  readonly amount: number
  readonly reason: string
  readonly createdAt: number
  /** `undefined` = settled (the documented example carries no status). */
  status: "pending" | "canceled" | undefined
  /** When it was settled, epoch ms on the simulator's clock (for its report). */
  settledAtMs?: number | undefined
}

export interface SimulatedOrder {
  readonly id: string
  readonly chargeId: string
  /** `cash` or `spei`. */
  readonly type: string
  /** Centavos. */
  readonly amount: number
  readonly customerInfo: Record<string, unknown>
  readonly lineItems: ReadonlyArray<Record<string, unknown>>
  metadata: Record<string, string | number | boolean | null>
  /** The charge's `reference_id`, as sent. */
  readonly referenceId: string | undefined
  readonly expiresAt: number
  readonly createdAt: number
  readonly rawBody: string
  status: string
  paidAt: number | undefined
  failureCode: string | undefined
  readonly refunds: Array<SimulatedRefund>
  /** When it was first paid and charged back, epoch ms on the simulator's clock (for its report). */
  capturedAtMs?: number | undefined
  chargedBackAtMs?: number | undefined
}

/** The customer of the official SDK's own tests and of the API reference's examples. */
export const knownCustomerId = "cus_2tKcHxhTz7xU5SymF"

/** The documented error body: `{ details: [{ code, param, message, debug_message }], object, type, log_id }`. */
export const errorAnswer = (status: number, type: string, code: string, message: string, param: string | null = null): Answer => ({
  status,
  body: { details: [{ code, param, message, debug_message: message }], object: "error", type, log_id: "6407b2dde1329a000175b9ce" }
})

export const invalid = (param: string, code: string, message: string) =>
  errorAnswer(422, "parameter_validation_error", `conekta.errors.parameter_validation.${code}`, message, param)

export const notFound = (what: string, id: string) =>
  errorAnswer(404, "resource_not_found_error", "conekta.errors.resource_not_found.entity", `The object ${what} "${id}" could not be found.`)

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const text = (u: unknown) => (typeof u === "string" ? u.trim() : "")
const isInt = (u: unknown): u is number => typeof u === "number" && Number.isInteger(u)

/** Scalar metadata only, at most 100 keys, strings at most 249 characters (documented). */
export const metadataRefusal = (metadata: unknown): Answer | undefined => {
  if (metadata === undefined) return undefined
  if (!isObject(metadata)) return invalid("metadata", "metadata.invalid", "metadata must be an object")
  const entries = Object.entries(metadata)
  if (entries.length > 100) return invalid("metadata", "metadata.too_many_keys", "metadata has more than 100 keys")
  for (const [key, value] of entries) {
    if (typeof value === "string" ? value.length > 249 : !(value === null || typeof value === "number" || typeof value === "boolean")) {
      return invalid(`metadata.${key}`, "metadata.invalid_value", "metadata values must be scalars (strings of at most 249 characters)")
    }
  }
  return undefined
}

export interface Validated {
  readonly type: string
  readonly amount: number
  readonly expiresAt: number | undefined
  readonly customerInfo: Record<string, unknown>
  readonly lineItems: ReadonlyArray<Record<string, unknown>>
  readonly metadata: Record<string, string | number | boolean | null>
  readonly referenceId: string | undefined
}

/** Why the API refuses an order body, or what it accepted. */
export const validateOrder = (body: Wire.OrderBody, nowSeconds: number): Answer | Validated => {
  if (body.currency !== "MXN") return invalid("currency", "currency.unsupported", "The currency is not supported.")
  const info = body.customer_info
  if (!isObject(info)) return invalid("customer_info", "customer_info.missing", "customer_info is required.")
  if (info["customer_id"] !== undefined) {
    if (info["customer_id"] !== knownCustomerId) return notFound("Customer", String(info["customer_id"]))
  } else {
    for (const field of ["name", "email", "phone"] as const) {
      if (text(info[field]) === "") return invalid(`customer_info.${field}`, `customer_info.${field}.missing`, `customer_info.${field} is required.`)
    }
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text(info["email"]))) return invalid("customer_info.email", "customer_info.email.invalid", "The email is invalid.")
  }
  if (body.line_items.length === 0) return invalid("line_items", "line_items.empty", "The order needs at least one line item.")
  let total = 0
  for (const [i, item] of body.line_items.entries()) {
    if (!isObject(item) || text(item["name"]).length < 1 || !isInt(item["unit_price"]) || item["unit_price"] < 0 || !isInt(item["quantity"]) || item["quantity"] < 1) {
      return invalid(`line_items.${i}`, "line_items.invalid", "A line item needs name, unit_price (integer centavos) and quantity (>= 1).")
    }
    total += item["unit_price"] * item["quantity"]
  }
  const refused = metadataRefusal(body.metadata)
  if (refused !== undefined) return refused
  const charges = body.charges ?? []
  if (charges.length !== 1) return invalid("charges", "charges.invalid", "The simulator takes exactly one charge per order.")
  const charge = charges[0]
  const method = isObject(charge) ? charge["payment_method"] : undefined
  if (!isObject(charge) || !isObject(method) || text(method["type"]) === "") {
    return invalid("charges.0.payment_method.type", "payment_method.type.missing", "payment_method.type is required.")
  }
  const type = text(method["type"])
  if (type === "card" || type === "default") {
    return invalid("payment_method.token_id", "payment_method.token_id.nonexistent_token", "The token does not exist.")
  }
  const rail = rails.find((r) => r.paymentMethodType === type)
  if (rail === undefined) return invalid("payment_method.type", "payment_method.type.invalid", `Invalid payment_method type ${type}.`)
  if (charge["amount"] !== undefined && (!isInt(charge["amount"]) || charge["amount"] !== total)) {
    return invalid("charges.0.amount", "charge.amount.mismatch", "The charge amount must be the order's total, in integer centavos.")
  }
  const [lo, hi] = [Wire.centavosOf(Money.decimal(rail.min))!, Wire.centavosOf(Money.decimal(rail.max))!]
  if (total < lo) return invalid("amount", "amount.too_low", `The minimum amount for ${type} is ${rail.min} MXN.`)
  if (total > hi) return invalid("amount", "amount.too_high", `The maximum amount for ${type} is ${rail.max} MXN.`)
  const expiresAt = method["expires_at"]
  if (expiresAt !== undefined && (!isInt(expiresAt) || expiresAt <= nowSeconds)) {
    return invalid("payment_method.expires_at", "payment_method.expires_at.invalid", "expires_at must be a future unix time.")
  }
  return {
    type,
    amount: total,
    expiresAt: expiresAt as number | undefined,
    customerInfo: info,
    lineItems: body.line_items as ReadonlyArray<Record<string, unknown>>,
    metadata: (body.metadata ?? {}) as Record<string, string | number | boolean | null>,
    referenceId: typeof charge["reference_id"] === "string" ? charge["reference_id"] : undefined
  }
}

/** Refunds not cancelled (pending or settled), centavos. */
export const refundedOf = (o: SimulatedOrder) => o.refunds.filter((r) => r.status !== "canceled").reduce((sum, r) => sum + r.amount, 0)

/** The order's status after its refunds changed. */
export const restate = (o: SimulatedOrder) => {
  const refunded = refundedOf(o)
  if (refunded === 0 && (o.status === "refunded" || o.status === "partially_refunded")) o.status = "paid"
  else if (refunded > 0) o.status = refunded >= o.amount ? "refunded" : "partially_refunded"
}

const refundView = (r: SimulatedRefund) => ({
  object: "refund",
  amount: -r.amount,
  id: r.id,
  created_at: r.createdAt,
  auth_code: null,
  ...(r.status === undefined ? {} : { status: r.status })
})

const paymentMethodView = (o: SimulatedOrder, baseUrl: string) =>
  o.type === "cash"
    ? {
      service_name: "OxxoPay",
      barcode_url: `${baseUrl}/barcodes/${o.chargeId}.png`,
      store: null,
      auth_code: null,
      object: "cash_payment",
      type: "oxxo",
      expires_at: o.expiresAt,
      store_name: "OXXO",
      reference: `93000${o.chargeId.replace(/\D/g, "").padEnd(9, "0").slice(0, 9)}`,
      cashier_id: null
    }
    : {
      clabe: `646180${o.chargeId.replace(/\D/g, "").padEnd(12, "0").slice(0, 12)}`,
      bank: "STP",
      receiving_account_number: `646180${o.chargeId.replace(/\D/g, "").padEnd(12, "0").slice(0, 12)}`,
      receiving_account_bank: "STP",
      reference_number: null,
      tracking_code: null,
      executed_at: null,
      payment_attempts: [],
      object: "bank_transfer_payment",
      type: "spei",
      expires_at: o.expiresAt
    }

export const orderView = (o: SimulatedOrder, baseUrl: string) => ({
  livemode: false,
  amount: o.amount,
  currency: "MXN",
  payment_status: o.status,
  amount_refunded: refundedOf(o),
  customer_info: { ...o.customerInfo, corporate: false, object: "customer_info" },
  object: "order",
  id: o.id,
  metadata: o.metadata,
  is_refundable: o.status === "paid" || o.status === "partially_refunded",
  created_at: o.createdAt,
  updated_at: o.createdAt,
  line_items: {
    object: "list",
    has_more: false,
    total: o.lineItems.length,
    data: o.lineItems.map((item, i) => ({ ...item, object: "line_item", id: `line_item_${o.id.slice(4)}${i}`, parent_id: o.id, metadata: {} }))
  },
  charges: {
    object: "list",
    has_more: false,
    total: 1,
    data: [{
      id: o.chargeId,
      livemode: false,
      created_at: o.createdAt,
      currency: "MXN",
      failure_code: o.failureCode ?? null,
      failure_message: o.failureCode === undefined ? null : "Este cargo ha sido declinado.",
      payment_method: paymentMethodView(o, baseUrl),
      object: "charge",
      description: "Payment from order",
      reference_id: o.referenceId ?? null,
      status: o.status,
      amount: o.amount,
      paid_at: o.paidAt ?? null,
      customer_id: "",
      order_id: o.id,
      refunds: o.refunds.length === 0 ? null : { object: "list", has_more: false, total: o.refunds.length, data: o.refunds.map(refundView) }
    }]
  }
})

/** `POST /orders/{id}/refunds`: `reason` one of the documented five, `amount` integer centavos. */
export const createRefund = (o: SimulatedOrder, body: unknown, next: { readonly id: () => string; readonly pending: boolean; readonly now: number }): Answer | undefined => {
  if (!isObject(body)) return invalid("reason", "refund.reason.missing", "reason is required.")
  const reason = text(body["reason"])
  if (!(Wire.refundReasons as ReadonlyArray<string>).includes(reason)) return invalid("reason", "refund.reason.invalid", "The refund reason is invalid.")
  if (o.status !== "paid" && o.status !== "partially_refunded") {
    return errorAnswer(422, "processing_error", "conekta.errors.processing.refund.not_refundable", "The order cannot be refunded.")
  }
  const left = o.amount - refundedOf(o)
  const amount = body["amount"] ?? left
  if (!isInt(amount) || amount <= 0) return invalid("amount", "refund.amount.invalid", "amount must be a positive integer of centavos.")
  if (amount > left) return invalid("amount", "refund.amount.exceeds", "The amount exceeds what is left to refund.")
  o.refunds.push({ id: next.id(), amount, reason, createdAt: next.now, status: next.pending ? "pending" : undefined })
  restate(o)
  return undefined
}
