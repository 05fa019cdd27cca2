/**
 * Cards in the Mercado Pago simulator (`MercadoPagoSimulator.ts`): `POST /v1/card_tokens`,
 * `GET /v1/card_tokens/{id}`, and what a card payment (`POST /v1/payments` with `token`) ends in.
 * A test tool, never imported by the plugin.
 *
 * Documented by Mercado Pago:
 * - The test cards (https://mercadopago.com.br/developers/en/docs/checkout-bricks/integration-test/test-cards,
 *   https://mercadopago.com.mx/developers/en/docs/checkout-api/integration-test/test-cards):
 *   {@link documentedCards}, security code 123 (1234 Amex), expiry 11/30. Any other number valid
 *   by Luhn is accepted too.
 * - The outcome is the cardholder's name ({@link outcomeByHolder}): APRO approved, OTHE other
 *   reason, CONT pending, CALL call for authorize, FUND insufficient amount, SECU bad security
 *   code, EXPI bad date, FORM form error, CARD missing data, INST invalid installments, DUPL
 *   duplicated payment, LOCK card disabled. The pages name the outcome; the `status_detail`
 *   words for each are the status_detail list's (README, "Cards": the pairing is ours).
 * - A token is single use: a second payment with it is `400` cause `2062` "Invalid card token";
 *   an unknown one `400` cause `2006` "Card Token not found" (the payments reference's error
 *   list, https://www.mercadopago.com.co/developers/en/reference/payments/_payments/post).
 *
 * OURS (outcomes the pages do not document):
 * - holder `3DSC`: with `three_d_secure_mode` `optional` or `mandatory`, the payment is
 *   `pending` / `pending_challenge` with `three_ds_info` (`external_resource_url` on the
 *   simulator, `creq`); `complete(id)` ends the challenge approved, `fail(id,
 *   "cc_rejected_3ds_challenge")` failed. Without the mode it is `rejected`
 *   `cc_rejected_3ds_mandatory`.
 * - holder `LATE`: approved, but the payment's answer comes after the simulator's `slowMs`.
 * - any other holder name: approved.
 * - the token's refusals (`400`): a number failing Luhn (cause `E301`), a security code of the
 *   wrong length (`E302`), a month outside 1-12 (`325`), a card past its month (`326`): the codes
 *   MercadoPago.js's error list uses, not confirmed for the API.
 */
import { randomBytes } from "node:crypto"
import { Option, Schema } from "effect"
import type { Answer } from "../kit/SimulatorServer.ts"
import * as CardWire from "./CardWire.ts"
import { errorAnswer as error } from "./SimulatorRefunds.ts"

export const documentedCards = {
  BR: { master: "5031433215406351", visa: "4235647728025682", amex: "375365153556885", elo: "5067766783888311" },
  MX: { master: "5474925432670366", visa: "4075595716483764", amex: "371180303257522" }
} as const

export interface Outcome {
  readonly status: "approved" | "rejected" | "in_process" | "pending"
  readonly detail: string
  readonly late?: boolean | undefined
}

const rejected = (detail: string): Outcome => ({ status: "rejected", detail })

export const outcomeByHolder: Readonly<Record<string, Outcome>> = {
  APRO: { status: "approved", detail: "accredited" },
  OTHE: rejected("cc_rejected_other_reason"),
  CONT: { status: "in_process", detail: "pending_contingency" },
  CALL: rejected("cc_rejected_call_for_authorize"),
  FUND: rejected("cc_rejected_insufficient_amount"),
  SECU: rejected("cc_rejected_bad_filled_security_code"),
  EXPI: rejected("cc_rejected_bad_filled_date"),
  FORM: rejected("cc_rejected_bad_filled_other"),
  CARD: rejected("cc_rejected_insufficient_data"),
  INST: rejected("cc_rejected_invalid_installments"),
  DUPL: rejected("cc_rejected_duplicated_payment"),
  LOCK: rejected("cc_rejected_card_disabled"),
  LATE: { status: "approved", detail: "accredited", late: true }
}

/** Ours: the holder whose payment asks for a 3-D Secure challenge. */
export const challengeHolder = "3DSC"

export const luhn = (digits: string) => {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

/** Mercado Pago's `payment_method_id` for the number (enough for the test cards: Brazil's Mastercard is 5031...). */
export const brandOf = (number: string) =>
  /^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number) ? "elo"
  : /^(606282|3841)/.test(number) ? "hipercard" : /^4/.test(number) ? "visa" : /^(5[0-5]|2[2-7])/.test(number) ? "master"
  : /^3[47]/.test(number) ? "amex" : "unknown"

export interface SimToken {
  readonly id: string
  readonly number: string
  readonly securityCodeLength: number
  readonly expMonth: number
  readonly expYear: number
  readonly holder: string
  readonly identification?: { readonly type?: string | undefined; readonly number?: string | undefined } | undefined
  readonly createdAt: string
  used: boolean
}

const decodeTokenBody = Schema.decodeUnknownOption(Schema.fromJsonString(CardWire.CardTokenBody))
const decodeCardFields = Schema.decodeUnknownOption(Schema.fromJsonString(CardWire.CardPaymentFields))

export const viewToken = (t: SimToken) => ({
  id: t.id,
  first_six_digits: t.number.slice(0, 6),
  last_four_digits: t.number.slice(-4),
  expiration_month: t.expMonth,
  expiration_year: t.expYear,
  cardholder: { name: t.holder, identification: t.identification ?? {} },
  status: t.used ? "used" : "active",
  date_created: t.createdAt,
  date_last_updated: t.createdAt,
  date_due: new Date(Date.parse(t.createdAt) + 7 * 24 * 3600_000).toISOString(),
  luhn_validation: true,
  live_mode: false,
  require_esc: false,
  card_number_length: t.number.length,
  security_code_length: t.securityCodeLength
})

export const makeCards = () => {
  const tokens = new Map<string, SimToken>()

  const createToken = (raw: string, now: Date): Answer => {
    const body = Option.getOrUndefined(decodeTokenBody(raw))
    if (body === undefined) return error(400, "bad_request", "The card token body does not match the API")
    const number = body.card_number.replace(/\s/g, "")
    const month = Number(body.expiration_month)
    const year = Number(body.expiration_year) < 100 ? 2000 + Number(body.expiration_year) : Number(body.expiration_year)
    const code = body.security_code ?? ""
    if (!luhn(number)) return error(400, "bad_request", "invalid parameters", { code: 301, description: "E301: invalid card_number" })
    if (!/^\d+$/.test(code) || code.length !== (brandOf(number) === "amex" ? 4 : 3)) {
      return error(400, "bad_request", "invalid parameters", { code: 302, description: "E302: invalid security_code" })
    }
    if (!Number.isInteger(month) || month < 1 || month > 12) return error(400, "bad_request", "invalid parameters", { code: 325, description: "invalid expiration_month" })
    if (!Number.isInteger(year) || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
      return error(400, "bad_request", "invalid parameters", { code: 326, description: "invalid expiration_year" })
    }
    const token: SimToken = {
      id: randomBytes(16).toString("hex"),
      number,
      securityCodeLength: code.length,
      expMonth: month,
      expYear: year,
      holder: body.cardholder?.name ?? "",
      identification: body.cardholder?.identification,
      createdAt: now.toISOString(),
      used: false
    }
    tokens.set(token.id, token)
    return { status: 201, body: viewToken(token) }
  }

  /** `/v1/card_tokens[/{id}]`, or undefined when the request is not for them. */
  const route = (method: string, path: string, raw: string, now: Date): Answer | undefined => {
    if (method === "POST" && path === "/v1/card_tokens") return createToken(raw, now)
    const one = /^\/v1\/card_tokens\/([^/]+)$/.exec(path)
    if (method === "GET" && one !== null) {
      const token = tokens.get(decodeURIComponent(one[1]!))
      return token === undefined ? error(404, "not_found", "Card Token not found", { code: 2006, description: "Card Token not found" }) : { status: 200, body: viewToken(token) }
    }
    return undefined
  }

  /**
   * A card payment's outcome, or why the API refuses it. The token is spent by a payment that
   * is made (not by a refusal).
   */
  const cardPayment = (raw: string, paymentMethodId: string, baseUrl: string, paymentId: string):
    | { readonly refusal: Answer }
    | { readonly outcome: Outcome; readonly token: SimToken; readonly threeDs?: { readonly external_resource_url: string; readonly creq: string } | undefined } => {
    const fields = Option.getOrUndefined(decodeCardFields(raw))
    if (fields === undefined) return { refusal: error(400, "bad_request", "token and installments are required for a card payment") }
    const token = tokens.get(fields.token)
    if (token === undefined) return { refusal: error(400, "bad_request", "Card Token not found", { code: 2006, description: "Card Token not found" }) }
    if (token.used) return { refusal: error(400, "bad_request", "Invalid card token", { code: 2062, description: "Invalid card token" }) }
    if (brandOf(token.number) !== paymentMethodId) {
      return { refusal: error(400, "bad_request", `payment_method_id ${paymentMethodId} does not match the card's bin`) }
    }
    if (fields.installments < 1) return { refusal: error(400, "bad_request", "Invalid installments") }
    token.used = true
    const holder = token.holder.trim().split(/\s+/)[0]!.toUpperCase()
    if (holder === challengeHolder) {
      const mode = fields.three_d_secure_mode ?? "not_supported"
      if (mode === "not_supported") return { outcome: rejected("cc_rejected_3ds_mandatory"), token }
      return {
        outcome: { status: "pending", detail: CardWire.pendingChallenge },
        token,
        threeDs: { external_resource_url: `${baseUrl}/3ds/challenge/${paymentId}`, creq: Buffer.from(JSON.stringify({ threeDSServerTransID: paymentId, messageType: "CReq" })).toString("base64url") }
      }
    }
    return { outcome: outcomeByHolder[holder] ?? outcomeByHolder["APRO"]!, token }
  }

  return { tokens, route, cardPayment }
}
