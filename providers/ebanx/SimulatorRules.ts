/**
 * What the EBANX simulator (`EbanxSimulator.ts`) refuses and why, apart from its state: the
 * authentication of a request (legacy key or JWS) and the checks of a Direct API `payment`, each
 * answered with the code EBANX documents for it (`Wire.errorCodes`). Test tooling, never imported
 * by the plugin.
 *
 * The checks read the parsed JSON by hand, not through the connector's Schemas, so that what
 * EBANX's SDKs send is accepted as they send it (`null` for an absent optional field, amounts as
 * numbers or decimal strings, extra fields such as `mode`, `metadata`, `items`, `user_value_5`).
 */
import { createPublicKey, verify } from "node:crypto"
import * as Rails from "./Rails.ts"
import * as Wire from "./Wire.ts"

export interface Refusal {
  readonly code: string
  readonly message: string
}

/** EBANX's JWS settings of one merchant as EBANX holds them: the `kid` and the registered public key (PEM). */
export interface JwsAccount {
  readonly keyId: string
  readonly publicKeyPem: string
}

/** The body as JSON, when it is a JSON object. */
export const objectOf = (raw: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const fromBase64Url = (text: string) => (/^[A-Za-z0-9_-]*$/.test(text) ? Buffer.from(text, "base64url") : undefined)

/**
 * Verifies `X-JWS-Signature` as EBANX documents it: `BASE64URL(header)..BASE64URL(signature)`,
 * header `{ alg: "RS256", kid, b64: false, crit: ["b64"] }`, RS256 over
 * `BASE64URL(header) + "." + <raw body>`. Undefined when valid, else why.
 */
export const jwsRefusal = (token: string, rawBody: string, account: JwsAccount | undefined): string | undefined => {
  if (account === undefined) return "JWS is not set up for this merchant"
  const parts = token.split(".")
  if (parts.length !== 3 || parts[1] !== "") return "X-JWS-Signature is not a detached compact JWS"
  const headerBytes = fromBase64Url(parts[0]!)
  const signature = fromBase64Url(parts[2]!)
  const header = headerBytes === undefined ? undefined : objectOf(headerBytes.toString("utf8"))
  if (header === undefined || signature === undefined) return "X-JWS-Signature is not base64url"
  if (header["alg"] !== "RS256") return "alg must be RS256"
  if (header["kid"] !== account.keyId) return "unknown kid"
  const crit = header["crit"]
  if (header["b64"] !== false || !Array.isArray(crit) || !crit.includes("b64")) return "b64 must be false and named in crit"
  const ok = verify("sha256", Buffer.from(`${parts[0]}.${rawBody}`, "utf8"), createPublicKey(account.publicKeyPem), signature)
  return ok ? undefined : "signature does not match the body"
}

/**
 * Who sent the request: a valid `X-JWS-Signature`, else the body's `integration_key`. `BP-SA-1`
 * when neither is there (also a body that is not JSON: EBANX cannot read a key from it), `BP-SA-2`
 * when the key or the signature is wrong (the message echoes the key it got, as careless APIs do,
 * so the connector's scrubbing is tested).
 */
export const authRefusal = (
  headers: Readonly<Record<string, string | undefined>>,
  rawBody: string,
  integrationKey: string,
  jws: JwsAccount | undefined
): Refusal | undefined => {
  const token = headers["x-jws-signature"]
  if (token !== undefined) {
    const why = jwsRefusal(token, rawBody, jws)
    return why === undefined ? undefined : { code: Wire.errorCodes.keyInvalid, message: `Invalid JWS signature: ${why}` }
  }
  const key = objectOf(rawBody)?.["integration_key"]
  if (typeof key !== "string" || key === "") return { code: Wire.errorCodes.keyMissing, message: "Parameter integration_key not found" }
  return key === integrationKey ? undefined : { code: Wire.errorCodes.keyInvalid, message: `Invalid integration key: ${key}` }
}

/** A text field as EBANX reads it: a non-empty string, `null` and `""` being absent. */
export const textOf = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : typeof value === "number" ? String(value) : undefined

/** An amount as EBANX's SDKs send it: a JSON number or its decimal text (the refund example sends `"1.00"`). */
export const amountOf = (raw: string, body: Record<string, unknown>, key: string): string | undefined => {
  const value = body[key]
  if (typeof value === "string") return /^\d+(\.\d+)?$/.test(value) ? value : undefined
  if (typeof value !== "number") return undefined
  // The number exactly as the JSON wrote it (no float round trip).
  return new RegExp(`"${key}"\\s*:\\s*(\\d+(?:\\.\\d+)?)\\s*[,}]`).exec(raw)?.[1]
}

const missing = (field: keyof typeof Wire.errorCodes.fieldMissing): Refusal => ({
  code: Wire.errorCodes.fieldMissing[field],
  message: `Field payment.${field} is required`
})

/** The countries whose payments EBANX refuses without a `document` (Brazil's CPF, Colombia's cédula). */
const documentCountries = new Set(["br", "co"])

/** The first thing EBANX would refuse in a Direct API `payment` (raw body `raw`), or the amount as written. */
export const directRefusal = (raw: string, payment: unknown): Refusal | { readonly amountText: string } => {
  if (typeof payment !== "object" || payment === null || Array.isArray(payment)) return { code: Wire.errorCodes.paymentMissing, message: "Field payment is required" }
  const p = payment as Record<string, unknown>
  if (textOf(p["currency_code"]) === undefined) return missing("currency_code")
  const amountText = amountOf(raw, p, "amount_total")
  if (amountText === undefined || !(Number(amountText) > 0)) return missing("amount_total")
  const code = textOf(p["merchant_payment_code"])
  if (code === undefined) return missing("merchant_payment_code")
  if (code.length > Wire.maxMerchantPaymentCode) return { code: Wire.errorCodes.merchantPaymentCodeTooLong, message: "Parameter merchant_payment_code can have 40 characters maximum" }
  const type = textOf(p["payment_type_code"]) ?? ""
  if (!Rails.paymentTypeCodes.has(type)) return { code: Wire.errorCodes.invalidPaymentType, message: `Invalid payment_type_code: ${type}` }
  if (textOf(p["name"]) === undefined) return missing("name")
  if (textOf(p["email"]) === undefined) return missing("email")
  if (documentCountries.has(String(p["country"])) && textOf(p["document"]) === undefined) return missing("document")
  if (type === "boleto") {
    for (const field of ["zipcode", "address", "street_number", "city", "state", "phone_number"] as const) {
      if (textOf(p[field]) === undefined) return missing(field)
    }
  }
  if (type === "eft" && textOf(p["eft_code"]) === undefined) return { code: eftCodeMissing, message: "Field payment.eft_code is required" }
  return { amountText }
}

/**
 * The simulator's answer to PSE (`eft`) without `eft_code`: the public pages say the field is
 * required but name no code for its absence.
 */
export const eftCodeMissing = "BP-DR-EFT-CODE"
