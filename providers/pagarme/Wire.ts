/**
 * The wire format of Pagar.me's Core API v5 (`https://api.pagar.me/core/v5`) as the connector
 * uses it, as Schemas (only the fields read or validated), the status maps and the error body.
 * Field names are those of the official SDK's models (`@pagarme/pagarme-nodejs-sdk` 7.0.2,
 * `src/models/*.ts`, their `['wire_name', ...]` pairs) and of the documentation's examples.
 *
 * | call          | request                                                              | answer                 |
 * |---------------|----------------------------------------------------------------------|------------------------|
 * | charge lookup | `GET /orders?code=<transaction id>`                                  | `200` {@link OrderList} |
 * | charge        | `POST /orders` {@link OrderBody}, `Idempotency-Key`                  | `200` {@link Order}    |
 * | status        | `GET /charges/{charge_id}`                                           | `200` {@link Charge}   |
 * | refund        | `DELETE /charges/{charge_id}` {@link CancelBody}, `Idempotency-Key`  | `200` {@link Charge}   |
 * | refund status | `GET /charges/{charge_id}/transactions`                              | `200` {@link TransactionList} |
 * | webhook       | Pagar.me `POST`s {@link Webhook}, `X-Webhook-Asymmetric-Signature`   | (JWKS, RS256)          |
 * | errors        | any call                                                             | {@link ErrorBody}      |
 *
 * Every call carries `Authorization: Basic base64(<secret key>:)`. Amounts are integers in
 * centavos. Statuses are read as plain strings, so a status this connector has never seen still
 * decodes, and maps to `pending`.
 */
import { Option, Schema } from "effect"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/PaymentProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"
import type { UpstreamWords } from "../kit/UpstreamHttp.ts"

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))
const Centavos = Schema.Int
const NullableText = Schema.optionalKey(Schema.NullOr(Text))

/** An address as `POST /orders` takes it (`customer.address`, `boleto.billing_address`). */
export const Address = Schema.Struct({
  street: Schema.optionalKey(Schema.String),
  number: Schema.optionalKey(Schema.String),
  complement: Schema.optionalKey(Schema.String),
  neighborhood: Schema.optionalKey(Schema.String),
  zip_code: Schema.optionalKey(Schema.String),
  city: Schema.optionalKey(Schema.String),
  state: Schema.optionalKey(Schema.String),
  country: Schema.optionalKey(Schema.String),
  line_1: Schema.optionalKey(Schema.String),
  line_2: Schema.optionalKey(Schema.String)
})
export type Address = typeof Address.Type

const Phone = Schema.Struct({
  country_code: Schema.optionalKey(Schema.String),
  area_code: Schema.optionalKey(Schema.String),
  number: Schema.optionalKey(Schema.String)
})

export const Customer = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  email: Schema.optionalKey(Schema.String),
  document: Schema.optionalKey(Schema.String),
  /** `individual` or `company`. */
  type: Schema.optionalKey(Schema.String),
  /** `CPF`, `CNPJ` or `PASSPORT`. */
  document_type: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(Schema.String),
  address: Schema.optionalKey(Address),
  phones: Schema.optionalKey(Schema.Struct({
    home_phone: Schema.optionalKey(Phone),
    mobile_phone: Schema.optionalKey(Phone)
  }))
})
export type Customer = typeof Customer.Type

/**
 * The body of `POST /orders` as the simulator validates it: what the documentation's PIX example
 * and the official SDK send is accepted (other fields are ignored). Amounts are JSON integers.
 */
export const OrderBody = Schema.Struct({
  code: Schema.optionalKey(Schema.String),
  closed: Schema.optionalKey(Schema.Boolean),
  customer_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  customer: Schema.optionalKey(Customer),
  items: Schema.Array(Schema.Struct({
    amount: Centavos,
    description: Schema.String,
    quantity: Schema.Int,
    code: Schema.optionalKey(Schema.String)
  })),
  payments: Schema.Array(Schema.Struct({
    payment_method: Schema.String,
    amount: Schema.optionalKey(Centavos),
    pix: Schema.optionalKey(Schema.Struct({
      expires_in: Schema.optionalKey(Schema.Int),
      expires_at: Schema.optionalKey(Schema.String)
    })),
    credit_card: Schema.optionalKey(Schema.Struct({
      installments: Schema.optionalKey(Schema.Int),
      statement_descriptor: Schema.optionalKey(Schema.String),
      operation_type: Schema.optionalKey(Schema.String),
      card: Schema.optionalKey(Schema.Struct({
        number: Schema.String,
        holder_name: Schema.String,
        exp_month: Schema.Int,
        exp_year: Schema.Int,
        cvv: Schema.optionalKey(Schema.String)
      }))
    })),
    boleto: Schema.optionalKey(Schema.Struct({
      instructions: Schema.optionalKey(Schema.String),
      due_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
      document_number: Schema.optionalKey(Schema.String),
      billing_address: Schema.optionalKey(Address)
    }))
  })),
  metadata: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.String))),
  ip: Schema.optionalKey(Schema.String)
})
export type OrderBody = typeof OrderBody.Type

/** A transaction (`charge.last_transaction`, `GET /charges/{id}/transactions`), fields used. */
export const Transaction = Schema.Struct({
  id: Schema.optionalKey(Schema.NullOr(Text)),
  transaction_type: Schema.optionalKey(Text),
  status: NullableText,
  amount: Schema.optionalKey(Schema.NullOr(Centavos)),
  // pix
  qr_code: NullableText,
  qr_code_url: NullableText,
  expires_at: NullableText,
  // boleto
  url: NullableText,
  pdf: NullableText,
  line: NullableText,
  barcode: NullableText,
  due_at: NullableText,
  // credit_card (`CardWire.ts`): the acquirer's return code and words
  acquirer_return_code: NullableText,
  acquirer_message: NullableText,
  antifraud_response: Schema.optionalKey(Schema.NullOr(Schema.Struct({ status: NullableText }))),
  gateway_response: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    code: NullableText,
    errors: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Struct({ message: NullableText }))))
  })))
})
export type Transaction = typeof Transaction.Type

/** A charge as `GET` / `DELETE /charges/{id}` answer it, and inside an order (fields used). */
export const Charge = Schema.Struct({
  id: Text,
  code: NullableText,
  amount: Schema.optionalKey(Schema.NullOr(Centavos)),
  status: Text,
  payment_method: NullableText,
  paid_amount: Schema.optionalKey(Schema.NullOr(Centavos)),
  canceled_amount: Schema.optionalKey(Schema.NullOr(Centavos)),
  last_transaction: Schema.optionalKey(Schema.NullOr(Transaction)),
  order: Schema.optionalKey(Schema.NullOr(Schema.Struct({ id: Text, code: NullableText }))),
  metadata: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.NullOr(Schema.String))))
})
export type Charge = typeof Charge.Type

/** An order as `POST /orders` and `GET /orders/{id}` answer it (fields used). */
export const Order = Schema.Struct({
  id: Text,
  code: NullableText,
  amount: Schema.optionalKey(Schema.NullOr(Centavos)),
  status: Text,
  charges: Schema.optionalKey(Schema.NullOr(Schema.Array(Charge)))
})
export type Order = typeof Order.Type

/** `GET /orders?code=`: `{ data, paging }`. */
export const OrderList = Schema.Struct({ data: Schema.optionalKey(Schema.NullOr(Schema.Array(Order))) })

/** `GET /charges/{id}/transactions`: `{ data, paging }`. */
export const TransactionList = Schema.Struct({ data: Schema.optionalKey(Schema.NullOr(Schema.Array(Transaction))) })

/**
 * The body of `DELETE /charges/{id}`: no `amount` cancels/refunds the whole charge; `amount`
 * (centavos) a part. The official SDK's model requires `operation_reference` (a reference of the
 * operation, the engine's refund id here).
 */
export const CancelBody = Schema.Struct({
  amount: Schema.optionalKey(Centavos),
  operation_reference: Schema.optionalKey(Schema.String)
})

/**
 * `{ message, errors: { "<field path>": ["<words>"] } }` (`422`), or `{ message }` alone (`401`,
 * `404`, `412`).
 */
export const ErrorBody = Schema.Struct({
  message: Schema.optionalKey(Schema.NullOr(Schema.String)),
  errors: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Array(Schema.String))))
})

const decodeError = Schema.decodeUnknownOption(Schema.fromJsonString(ErrorBody))

/** `{ message, errors: { field: [words] } }`: the first field speaks, else the message. */
export const readError = (text: string): UpstreamWords => {
  const body = decodeError(text)
  if (Option.isNone(body)) return {}
  const first = Object.entries(body.value.errors ?? {})[0]
  return first === undefined
    ? { message: body.value.message ?? undefined }
    : { code: `invalid:${first[0]}`, message: `${first[0]}: ${first[1].join(" ")}` }
}

/**
 * A webhook: `{ id: "hook_...", type: "charge.paid", created_at, data: <charge or order>, account }`.
 * Its `data` is the charge (`charge.*`) or the order (`order.*`) as the API renders it.
 */
export const Webhook = Schema.Struct({
  id: Text,
  type: Text,
  data: Schema.Struct({
    id: Text,
    charges: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Struct({ id: Text }))))
  })
})
export type Webhook = typeof Webhook.Type

/**
 * The header of Pagar.me's asymmetric webhook signature, as Pagar.me's own plugins read it:
 * `X-Webhook-Asymmetric-Signature` (pagarme/woocommerce `src/Controller/Webhooks.php`) and
 * `X-Hub-Asymmetric-Signature` (pagarme/magento2 `Model/WebhookManagement.php`). The first one
 * present is read.
 */
export const signatureHeader = "x-webhook-asymmetric-signature"
export const signatureHeaders: ReadonlyArray<string> = [signatureHeader, "x-hub-asymmetric-signature"]

/**
 * The value of a refund's marker (`metadata.refund_<refundId>`) between the moment the connector
 * decides to send its `DELETE` and the moment it knows the refund transaction's id.
 */
export const refundAsked = "asked"

/** Where Pagar.me publishes the public keys of that signature (official plugins). */
export const defaultJwksUrl = "https://hubapi.pagar.me/.well-known/jwks.json"

/** A key of the JWKS: an RSA public key with its `kid`. */
export const Jwk = Schema.Struct({
  kid: Text,
  kty: Text,
  use: Schema.optionalKey(Text),
  alg: Schema.optionalKey(Text),
  n: Text,
  e: Text
})
export type Jwk = typeof Jwk.Type
export const Jwks = Schema.Struct({ keys: Schema.Array(Schema.Unknown) })

/**
 * `alg=RS256; kid=<kid>; signature=<base64url>` (pairs split on `;`, each on its first `=`);
 * undefined unless all three are there.
 */
export const parseSignature = (header: string | undefined) => {
  if (header === undefined || header.length > 4096) return undefined
  const parts = new Map<string, string>()
  for (const part of header.split(";")) {
    const eq = part.indexOf("=")
    if (eq <= 0) continue
    parts.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim())
  }
  const alg = parts.get("alg")
  const kid = parts.get("kid")
  const signature = parts.get("signature")
  return alg === undefined || kid === undefined || kid === "" || signature === undefined || !/^[A-Za-z0-9_-]+={0,2}$/.test(signature)
    ? undefined
    : { alg, kid, signature }
}

/**
 * Pagar.me charge status -> engine status, for the charge statuses Pagar.me's module core lists
 * (https://github.com/pagarme/ecommerce-module-core/blob/master/src/Kernel/ValueObjects/ChargeStatus.php:
 * `paid`, `pending`, `canceled`, `processing`, `failed`, `underpaid`, `overpaid`) and `chargedback`
 * (the `charge.chargedback` webhook, and the module core's `TransactionStatus`). Anything not
 * listed is `pending`, never a success.
 *
 * - `pending` (PIX QR or boleto waiting for the buyer) and `processing` are `pending`.
 * - `underpaid` (a boleto paid short: the bank settled less than asked, and a boleto is paid
 *   once) is final and `failed`: the engine books no money it was not given in full, and the
 *   detail says what was paid (the shop settles the short payment with the buyer).
 * - `paid` and `overpaid` (more than asked: the amount asked is there) are `completed`.
 * - `failed` is `failed` (`expired` when its transaction says `expired`).
 * - `canceled` is `expired` when its transaction says `expired` (a PIX not paid in time), else
 *   `refunded` when money had been paid (a whole refund cancels the charge), else `failed`.
 * - `chargedback` is `chargeback`.
 */
export const DocumentedChargeStatus = Schema.Literals(["pending", "processing", "underpaid", "paid", "overpaid", "failed", "canceled", "chargedback"])
export type DocumentedChargeStatus = typeof DocumentedChargeStatus.Type
export const chargeStatuses = DocumentedChargeStatus.literals

/** `canceled` here is one with nothing paid and no expired transaction; `toUpdateStatus` reads the others. */
export const chargeStatusMap = {
  pending: "pending",
  processing: "pending",
  underpaid: "failed",
  paid: "completed",
  overpaid: "completed",
  failed: "failed",
  canceled: "failed",
  chargedback: "chargeback"
} satisfies StatusMap<typeof DocumentedChargeStatus, ChargeUpdate["status"]>

export const toUpdateStatus = (charge: Pick<Charge, "status" | "paid_amount" | "last_transaction">): ChargeUpdate["status"] => {
  const status = charge.status.trim().toLowerCase()
  const expired = charge.last_transaction?.status === "expired"
  if (status === "canceled") return expired ? "expired" : (charge.paid_amount ?? 0) > 0 ? "refunded" : "failed"
  if (status === "failed" && expired) return "expired"
  return statusOf(chargeStatusMap, status, "pending")
}

/** The provider's words on a charge: its transaction's status, or what an `underpaid` one received. */
export const detailOf = (charge: Pick<Charge, "status" | "amount" | "paid_amount" | "last_transaction">): string | undefined =>
  charge.status.trim().toLowerCase() === "underpaid"
    ? `underpaid: ${charge.paid_amount ?? "?"} of ${charge.amount ?? "?"} centavos paid`
    : charge.last_transaction?.status ?? charge.status

/** The status of a charge just created: a new charge cannot be disputed or refunded. */
export const toChargeStatus = (charge: Pick<Charge, "status" | "paid_amount" | "last_transaction">): ChargeStatus => {
  const update = toUpdateStatus(charge)
  return update === "completed" || update === "failed" || update === "expired" ? update : "pending"
}

/**
 * A refund transaction's status (the module core's
 * https://github.com/pagarme/ecommerce-module-core/blob/master/src/Kernel/ValueObjects/TransactionStatus.php
 * and the SDK's transaction models; README, "Not confirmed") as the engine's: `refunded` is money
 * paid back; `failed`, `with_error` and `canceled` mean it will not be (the money stays the shop's); `pending_refund`
 * (PIX and boleto refunds are asynchronous), a missing status and anything unknown wait.
 */
export const DocumentedRefundStatus = Schema.Literals(["pending_refund", "refunded", "failed", "with_error", "canceled"])
export type DocumentedRefundStatus = typeof DocumentedRefundStatus.Type
export const refundStatuses = DocumentedRefundStatus.literals

export const refundStatusMap = {
  pending_refund: "pending",
  refunded: "succeeded",
  failed: "failed",
  with_error: "failed",
  canceled: "failed"
} satisfies StatusMap<typeof DocumentedRefundStatus, RefundStatus>

export const toRefundStatus = (status: string | null | undefined): RefundStatus =>
  statusOf(refundStatusMap, status?.trim().toLowerCase(), "pending")
