/**
 * The payments of the Mercado Pago simulator (`MercadoPagoSimulator.ts`): what a payment looks like
 * when `POST` / `GET /v1/payments` answer it, what the API refuses in a body, and the answers of
 * the modes that refuse every call. A test tool, never imported by the plugin.
 */
import { Money } from "../../core/ports/index.ts"
import type { Answer } from "../kit/SimulatorServer.ts"
import { boletoPaymentMethodId, rails } from "./Rails.ts"
import { approvedSum, errorAnswer as error, type SimulatedRefund, viewRefund } from "./SimulatorRefunds.ts"
import type * as Wire from "./Wire.ts"

/** How the simulator answers every call (see `MercadoPagoSimulator.ts`). */
export type Mode = "ok" | "unavailable" | "slow" | "decline" | "conflict" | "locked" | "failed_dependency" | "echo"

/** A payment the simulator holds. */
export interface SimulatedPayment {
  readonly id: string
  /** `external_reference`, "" when none was sent. */
  readonly reference: string
  /** Decimal text. */
  readonly amount: string
  readonly currency: string
  readonly body: Wire.PaymentBody
  /** The request body exactly as received. */
  readonly rawBody: string
  readonly idempotencyKey: string
  readonly notificationUrl: string | undefined
  status: string
  statusDetail: string
  /** Sum of the refunds not rejected, decimal text. */
  refunded: string
  readonly refunds: Array<SimulatedRefund>
  /** When the payment became `approved` (epoch ms), for the release report. */
  approvedAt?: number | undefined
  /** When it was charged back (epoch ms). */
  chargedBackAt?: number | undefined
  /** A card payment's card (what the API shows of it) and its 3-D Secure step. */
  readonly card?: { readonly first_six_digits: string; readonly last_four_digits: string; readonly holder: string } | undefined
  threeDs?: { readonly external_resource_url: string; readonly creq: string } | undefined
}

/** The buyer document the simulator refuses (cause `2067`). */
export const invalidDocument = "00000000000"
/** The payer email the simulator refuses as a test/live mix-up (cause `2034`). */
export const mixedUsersEmail = "test_user_live@testuser.com"

/** The payer address fields boleto requires. */
export const boletoAddressFields = ["zip_code", "street_name", "street_number", "neighborhood", "city", "federal_unit"] as const

/** Answers of the modes that refuse every call before any work. */
export const modeAnswers: Partial<Record<Mode, Answer>> = {
  unavailable: error(500, "internal_error", "internal_error"),
  conflict: {
    status: 409,
    body: {
      status: "409",
      error: "Conflict",
      message: "The process has not been completed yet. Try again later.",
      cause: [{ code: "401001", message: "The process has not been completed yet. Try again later.", data: null }]
    }
  },
  locked: error(423, "locked", "The resource is locked. Try again later."),
  failed_dependency: error(424, "failed_dependency", "A dependency failed. Try again later.")
}

/** Digits derived from a payment id, `length` long. */
const digits = (id: string, length: number) => (id + "0".repeat(length)).slice(0, length)

export const viewOf = (p: SimulatedPayment, baseUrl: string) => {
  const method = p.body.payment_method_id
  const pix = method === "pix"
  const boleto = method === boletoPaymentMethodId
  const card = p.card === undefined ? {} : {
    payment_type_id: "credit_card",
    installments: 1,
    card: { first_six_digits: p.card.first_six_digits, last_four_digits: p.card.last_four_digits, cardholder: { name: p.card.holder } },
    three_ds_info: p.threeDs ?? null,
    point_of_interaction: {},
    transaction_details: { external_resource_url: null, barcode: null, digitable_line: null }
  }
  return {
    id: Number(p.id),
    status: p.status,
    status_detail: p.statusDetail,
    external_reference: p.reference === "" ? null : p.reference,
    payment_method_id: method,
    payment_type_id: pix ? "bank_transfer" : "ticket",
    currency_id: p.currency,
    description: p.body.description ?? null,
    transaction_amount: Money.toJsonNumber(Money.decimal(p.amount)),
    transaction_amount_refunded: Money.toJsonNumber(approvedSum(p)),
    date_of_expiration: p.body.date_of_expiration ?? null,
    notification_url: p.notificationUrl ?? null,
    point_of_interaction: pix
      ? { type: "PIX", transaction_data: { qr_code: `00020126580014br.gov.bcb.pix0136${p.id}`, qr_code_base64: "iVBORw0KGgo=", ticket_url: `${baseUrl}/payments/${p.id}/ticket` } }
      : {},
    transaction_details: pix
      ? { external_resource_url: null, barcode: null, digitable_line: null }
      : {
        external_resource_url: `${baseUrl}/checkout/${method}/${p.id}`,
        payment_method_reference_id: p.id,
        digitable_line: boleto ? `2379${digits(p.id, 43)}` : null,
        barcode: boleto ? { content: `2379${digits(p.id, 40)}` } : null
      },
    refunds: p.refunds.map((r) => viewRefund(p, r)),
    ...card
  }
}
export type PaymentView = ReturnType<typeof viewOf>

/** Why the API refuses a body (`undefined`: it does not). */
export const refusalOf = (body: Wire.PaymentBody): Answer | undefined => {
  const rail = rails.find((r) => r.paymentMethodId === body.payment_method_id)
  if (rail === undefined) return error(400, "bad_request", "Invalid payment_method_id")
  if (rail.paymentMethodId === "pse" && ((body.transaction_details?.financial_institution ?? "") === "" || (body.callback_url ?? "") === "" || body.payer.entity_type === undefined)) {
    return error(400, "bad_request", "callback_url, financial_institution and entity_type are required for pse")
  }
  if (rail.paymentMethodId === boletoPaymentMethodId) {
    const address = body.payer.address
    const missing: Array<string> = boletoAddressFields.filter((f) => String(address?.[f] ?? "").trim() === "")
    if (body.payer.identification === undefined) missing.push("identification")
    if (missing.length > 0) {
      return error(400, "bad_request", `payer.address and payer.identification are required for bolbradesco: missing ${missing.join(", ")}`)
    }
  }
  if (body.payer.identification?.number === invalidDocument) {
    return error(400, "bad_request", "Invalid user identification number", { code: 2067, description: "Invalid user identification number" })
  }
  if (body.payer.email === mixedUsersEmail) {
    return error(400, "bad_request", "Invalid users involved", { code: 2034, description: "Invalid users involved" })
  }
  return undefined
}

