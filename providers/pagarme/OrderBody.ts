/**
 * The body of `POST /orders` the connector sends for a charge, built from the engine's
 * `ChargeRequest` (documentation: "Pix" https://docs.pagar.me/reference/pix-2 for the shape of
 * `items`, `customer` and `payments[].pix`; the official SDK's models for boleto and addresses).
 *
 * - `items`: one item of the whole amount (centavos), `quantity: 1`, `code` = transaction id.
 * - `customer`: `name`, `email`, `document` (digits), `type` (`individual` for a CPF, `company`
 *   for a CNPJ), `document_type`, `phones.mobile_phone` (`country_code`, `area_code`, `number`
 *   from an E.164 or national Brazilian number), and `address` when the buyer gave one.
 * - `payments[0]`: `pix: { expires_in }` (seconds until the engine's expiry: the page marks
 *   `expires_in` mandatory unless `expires_at` is sent, and a number of seconds carries no time
 *   zone), or `boleto: { instructions, due_at, billing_address }`, or `credit_card: { card,
 *   installments, statement_descriptor, operation_type: "auth_and_capture" }` whose `card`
 *   holds the vault's placeholders for the number, holder name and security code (`CardPlaceholders`;
 *   the request goes through `CardVault.forward`) and the month and year the token describes;
 *   `installments` is the engine's count (`ChargeRequest.installments`, 1 when absent).
 * - `code` = transaction id, `closed: true`, `metadata.transaction_id`, `ip` when known.
 *
 * Anything the engine did not give is left out, never sent empty. A value Pagar.me could not take
 * (a fraction of a centavo, an unreadable phone) is a `Failure` with the code of a `Failed`
 * error: another provider may take the charge.
 */
import { Redacted, Result } from "effect"
import { CardPlaceholders } from "../../core/ports/CardVault.ts"
import type { BuyerAddress, ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { clear } from "../kit/Buyer.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { type Rail, toCentavos } from "./Rails.ts"
import type * as Wire from "./Wire.ts"

export interface Refusal {
  readonly reason: string
  readonly message: string
}

const digits = (text: string | undefined) => (text ?? "").replace(/\D/g, "")

/** `+55 11 98765-4321`, `5511987654321` or `11987654321` -> `{ 55, 11, 987654321 }`. */
export const phoneOf = (phone: string | undefined) => {
  const all = digits(phone)
  const national = all.length >= 12 && all.startsWith("55") ? all.slice(2) : all
  if (national.length < 10 || national.length > 11) return undefined
  return { country_code: "55", area_code: national.slice(0, 2), number: national.slice(2) }
}

/** The buyer's address as Pagar.me takes it (both the split fields and `line_1` / `line_2`). */
export const addressOf = (address: BuyerAddress): Wire.Address =>
  UpstreamHttp.defined({
    street: address.street,
    number: address.number,
    complement: address.complement,
    neighborhood: address.district,
    zip_code: digits(address.postalCode),
    city: address.city,
    state: address.state,
    country: address.country ?? "BR",
    line_1: [address.number, address.street, address.district].filter((part) => part !== undefined && part !== "").join(", "),
    line_2: address.complement
  })

/** Pagar.me's limit for PSP accounts (13; 22 for gateway accounts): the shorter one always fits. */
export const statementDescriptorOf = (text: string | undefined) =>
  (text ?? "").normalize("NFD").replace(/[^A-Za-z0-9 ]/g, "").trim().slice(0, 13) || "PAGAMENTO"

export const orderBodyOf = (rail: Rail, request: ChargeRequest, nowMs: number, statementDescriptor?: string): Result.Result<Wire.OrderBody, Refusal> => {
  const centavos = toCentavos(request.amount)
  if (centavos._tag === "None" || centavos.value <= 0) {
    return Result.fail({ reason: "invalid_amount", message: "Pagar.me takes a positive amount in whole centavos" })
  }
  const { customer } = request
  const document = digits(clear(customer.documentId))
  const phone = phoneOf(clear(customer.phone))
  if (customer.phone !== undefined && phone === undefined) {
    return Result.fail({ reason: "payer_phone_invalid", message: "Pagar.me needs a Brazilian phone with its area code" })
  }
  if (rail.paymentMethod === "boleto" && customer.address === undefined) {
    return Result.fail({ reason: "payer_address_required", message: "Pagar.me requires the buyer's address for boleto" })
  }
  const address = customer.address === undefined ? undefined : addressOf(Redacted.value(customer.address))
  const expiresInSeconds = Math.max(1, Math.floor((request.expiresAt.getTime() - nowMs) / 1000))
  const card = request.card
  if (rail.paymentMethod === "credit_card" && card === undefined) {
    return Result.fail({ reason: "card_required", message: "a card charge needs the card's token" })
  }
  const payment = rail.paymentMethod === "pix"
    ? { payment_method: "pix", pix: { expires_in: expiresInSeconds } }
    : rail.paymentMethod === "credit_card" && card !== undefined
    ? {
      payment_method: "credit_card",
      credit_card: {
        installments: request.installments?.count ?? 1,
        statement_descriptor: statementDescriptorOf(statementDescriptor),
        // `auth_only` holds the amount; `CardCapture.ts` captures or voids it later.
        operation_type: request.capture === false ? "auth_only" : "auth_and_capture",
        card: {
          number: CardPlaceholders.number,
          holder_name: CardPlaceholders.holderName,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          cvv: CardPlaceholders.securityCode
        }
      }
    }
    : {
      payment_method: "boleto",
      boleto: UpstreamHttp.defined({
        instructions: "Pagar até o vencimento",
        due_at: request.expiresAt.toISOString(),
        billing_address: address
      })
    }
  return Result.succeed({
    code: request.transactionId,
    closed: true,
    items: [{ amount: centavos.value, description: `Payment ${request.transactionId}`, quantity: 1, code: request.transactionId }],
    customer: UpstreamHttp.defined({
      name: clear(customer.name),
      email: clear(customer.email),
      document: document === "" ? undefined : document,
      type: document === "" ? undefined : document.length === 14 ? "company" : "individual",
      document_type: document === "" ? undefined : document.length === 14 ? "CNPJ" : "CPF",
      phones: phone === undefined ? undefined : { mobile_phone: phone },
      address
    }),
    payments: [payment],
    metadata: { transaction_id: request.transactionId },
    ...(customer.ip === undefined ? {} : { ip: customer.ip })
  })
}
