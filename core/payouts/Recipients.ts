/**
 * Beneficiary validation for POST /me/payout/send (spec 4.9 "Rules by rail"): pure functions, no
 * Effect. `validateRecipient` checks a `recipient` against its method's `recipientFields` and
 * answers the normalised values with every problem at once; it never throws, whatever it is given.
 *
 * - Each value must be a string (a JSON number would lose the leading zeros of an account); it is
 *   trimmed, and an empty string counts as absent. At most 256 characters.
 * - Keys that are not among the method's `recipientFields` are ignored and left out of the
 *   normalised recipient (so a client may send one recipient object to several rails).
 * - `documentId` and digit accounts lose their dots, dashes, slashes and spaces; letters where
 *   digits are required are an issue, not stripped.
 * - Select fields (`bankCode`, `accountType`, `documentType`) must be one of the options exactly
 *   (case-sensitive). Fields that depend on one (the PIX key on `accountType`, an RFC or CURP on
 *   `documentType`, a CCI's bank on `bankCode`) are checked against it only when it is valid.
 * - Issues come in the order of `recipientFields`, at `recipient.<key>`, or at `recipient` when
 *   it is not an object (null and undefined count as an empty object).
 * - `recipient` in the answer holds the fields that passed; use it only when `issues` is empty.
 */
import type { Issue } from "../ApiError.ts"
import { isValidClabe } from "../deposits/Clabe.ts"
import { checkDocument, isValidCnpj, isValidCpf, weightedSum } from "../DocumentNumbers.ts"
import type { PayoutMethodDef, RecipientField } from "./PayoutMethod.ts"

// --- check digits (a document's are in DocumentNumbers.ts) ----------------------------------

export { isValidCnpj, isValidCpf, isValidRut } from "../DocumentNumbers.ts"

/** (10 - sum mod 10) mod 10 over `digits` with `weights` repeating from the left. */
const mod10 = (digits: string, weights: ReadonlyArray<number>): number =>
  (10 - (weightedSum(digits, (i) => weights[i % weights.length]!) % 10)) % 10

/**
 * Argentina's CBU (and CVU, same layout and algorithm, bank code 000), 22 digits per BCRA: block 1
 * = bank (3) + branch (4) + check digit, weights 7,1,3,9,7,1,3; block 2 = account (13) + check
 * digit, weights 3,9,7,1,... ; each check digit is (10 - sum mod 10) mod 10.
 */
export const isValidCbu = (cbu: string): boolean =>
  /^\d{22}$/.test(cbu) &&
  mod10(cbu.slice(0, 7), [7, 1, 3, 9]) === Number(cbu[7]) &&
  mod10(cbu.slice(8, 21), [3, 9, 7, 1]) === Number(cbu[21])

/** Weights 1,2,1,2,... from the left, a two-digit product counted as the sum of its digits; (10 - sum mod 10) mod 10. */
const luhnStyle = (digits: string): number => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    const product = Number(digits[i]) * (i % 2 === 0 ? 1 : 2)
    sum += product > 9 ? product - 9 : product
  }
  return (10 - (sum % 10)) % 10
}

/**
 * Peru's CCI, 20 digits: entity (3) + office (3) + account (12) + 2 check digits, the first over
 * entity + office, the second over the account, each weights 1,2,1,2,... from the left with
 * two-digit products reduced to the sum of their digits, then (10 - sum mod 10) mod 10.
 */
export const isValidCci = (cci: string): boolean =>
  /^\d{20}$/.test(cci) && `${luhnStyle(cci.slice(0, 6))}${luhnStyle(cci.slice(6, 18))}` === cci.slice(18)

// --- rules -----------------------------------------------------------------------------------

/** A value's normal form, or what is wrong with it. */
type Outcome = { readonly value: string } | { readonly problem: string }

/**
 * Checks one trimmed value. `selects` holds the method's select fields (accountType, bankCode,
 * documentType): the value when valid, "" when missing or invalid (so dependants skip the check).
 */
type Rule = (value: string, selects: Readonly<Record<string, string>>) => Outcome

const ok = (value: string): Outcome => ({ value })
const bad = (problem: string): Outcome => ({ problem })

/** Drops the separators people type in ids and account numbers. */
const strip = (s: string): string => s.replace(/[\s./-]/g, "")

const digits = (what: string, min: number, max: number, check?: (v: string) => string | undefined): Rule => (raw) => {
  const v = strip(raw)
  const count = min === max ? `${min}` : `${min} to ${max}`
  const other = /\D/u.exec(v)
  if (other !== null) return bad(`must be ${what}: digits only (dots, dashes and spaces are ignored), found '${other[0]}'`)
  if (v.length < min || v.length > max) return bad(`must be ${what}: ${count} digits, got ${v.length}`)
  const problem = check?.(v)
  return problem === undefined ? ok(v) : bad(problem)
}

const checked = (valid: (v: string) => boolean, problem: string) => (v: string) => (valid(v) ? undefined : problem)

const name: Rule = (raw) => {
  const v = raw.replace(/\s+/g, " ")
  if (v.length > 100) return bad(`must be the beneficiary's full name, at most 100 characters, got ${v.length}`)
  return /\p{L}/u.test(v) ? ok(v) : bad("must be the beneficiary's full name, in letters, got no letter")
}

const email: Rule = (raw) =>
  raw.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw) ? ok(raw) : bad("must be an email address such as ana@example.com")

const mobile = (country: string, dial: string, length: number, first: string): Rule => (raw) => {
  let v = raw.replace(/[\s().-]/g, "")
  if (v.startsWith(`+${dial}`)) v = v.slice(dial.length + 1)
  return new RegExp(`^${first}\\d{${length - 1}}$`).test(v)
    ? ok(v)
    : bad(`must be a ${country} mobile number: ${length} digits starting with ${first} (an optional +${dial} is dropped)`)
}

/** A document of the method's country, of `documentType` when the method has that select (Mexico: RFC or CURP). */
const documentOf = (country: string): Rule => (raw, selects) => {
  const type = selects.documentType === "RFC" || selects.documentType === "CURP" ? selects.documentType : undefined
  const checked = checkDocument(country, raw, type)
  return "value" in checked ? ok(checked.value) : bad(type === undefined ? checked.problem : `${checked.problem}, as documentType is ${type}`)
}

const cpf = digits("a CPF", 11, 11, checked(isValidCpf, "is not a valid CPF: its check digits (the last two) do not match"))
const cnpj = digits("a CNPJ", 14, 14, checked(isValidCnpj, "is not a valid CNPJ: its check digits (the last two) do not match"))

const uuidV4 = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/

const pixKey: Rule = (raw, selects) => {
  switch (selects.accountType) {
    case "cpf": return cpf(raw, selects)
    case "cnpj": return cnpj(raw, selects)
    case "email": return email(raw, selects)
    case "phone": {
      const v = raw.replace(/[\s().-]/g, "")
      return /^\+55\d{10,11}$/.test(v) ? ok(v) : bad("must be a phone key: +55, then the area code and number (10 or 11 digits), e.g. +5511987654321")
    }
    case "random": {
      const v = raw.toLowerCase()
      return uuidV4.test(v) ? ok(v) : bad("must be a random key (EVP): a UUID v4 such as 3f2a6c1e-8b4d-4e2f-9a7b-1c2d3e4f5a6b")
    }
    default: return ok(raw) // accountType is missing or invalid: that is its own issue
  }
}

const cci: Rule = (raw, selects) => {
  const outcome = digits("a CCI", 20, 20, checked(isValidCci, "is not a valid CCI: its check digits (the last two) do not match"))(raw, selects)
  if ("value" in outcome && selects.bankCode && !outcome.value.startsWith(selects.bankCode)) {
    return bad(`is a CCI of bank ${outcome.value.slice(0, 3)}, but bankCode is ${selects.bankCode}: a CCI starts with its bank's code`)
  }
  return outcome
}

/** A wallet account: a phone, or with an `accountType` select, a phone or an email. */
const wallet = (phone: Rule): Rule => (raw, selects) => {
  if (!("accountType" in selects) || selects.accountType === "phone") return phone(raw, selects)
  return selects.accountType === "email" ? email(raw, selects) : ok(raw)
}

const documentRules: Readonly<Record<string, Rule>> = {
  MX: documentOf("MX"),
  BR: documentOf("BR"),
  CO: digits("a cédula or NIT", 5, 10),
  CL: documentOf("CL"),
  PE: digits("a DNI (8 digits), carné de extranjería or RUC (11 digits)", 8, 12),
  AR: digits("a DNI (7 or 8 digits) or CUIT/CUIL (11 digits)", 7, 11, (v) =>
    v.length === 9 || v.length === 10 ? `must be a DNI (7 or 8 digits) or CUIT/CUIL (11 digits), got ${v.length} digits` : undefined)
}

const bankAccount = digits("an account number", 6, 20)

/** `account` by `${country}:${rail}`: the sandbox twins share their real rail's rules. */
const accountRules: Readonly<Record<string, Rule>> = {
  "MX:spei": digits("a CLABE", 18, 18, checked(isValidClabe, "is not a valid CLABE: its check digit (the 18th) does not match")),
  "BR:pix": pixKey,
  "CO:bank_transfer": bankAccount,
  "CL:bank_transfer": bankAccount,
  "PE:bank_transfer": cci,
  "AR:bank_transfer": digits("a CBU or CVU", 22, 22, checked(isValidCbu, "is not a valid CBU/CVU: its check digits (the 8th and the 22nd) do not match")),
  "CO:wallet": wallet(mobile("Colombian", "57", 10, "3")),
  "PE:wallet": wallet(mobile("Peruvian", "51", 9, "9"))
}

const ruleFor = (method: PayoutMethodDef, field: RecipientField): Rule | undefined => {
  if (field.key === "documentId") return documentRules[method.country] ?? digits("a document number", 5, 20)
  if (field.key === "account") return accountRules[`${method.country}:${method.rail}`]
  if (field.key === "name") return name
  return field.type === "email" ? email : undefined
}

// --- validation ------------------------------------------------------------------------------

const kindOf = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)

export interface RecipientValidation {
  /** The normalised values of the fields that passed; meaningful only when `issues` is empty. */
  readonly recipient: Readonly<Record<string, string>>
  /** Every problem, each at `recipient.<key>` (or `recipient` when it is not an object). */
  readonly issues: ReadonlyArray<Issue>
}

/** Checks `recipient` against `method.recipientFields` (spec 4.9); never throws. */
export const validateRecipient = (method: PayoutMethodDef, recipient: unknown): RecipientValidation => {
  const issues: Array<Issue> = []
  const out: Record<string, string> = {}
  const isObject = typeof recipient === "object" && recipient !== null && !Array.isArray(recipient)
  if (!isObject && recipient !== undefined && recipient !== null) {
    const keys = method.recipientFields.map((f) => f.key).join(", ")
    issues.push({ path: "recipient", message: `must be an object with the fields ${keys}, got ${kindOf(recipient)}` })
  }
  const input = (isObject ? recipient : {}) as Record<string, unknown>

  // Pass 1: presence, type, length; select fields against their options.
  const present = new Map<RecipientField, string>()
  const selects: Record<string, string> = {}
  for (const field of method.recipientFields) {
    const path = `recipient.${field.key}`
    const raw = Object.hasOwn(input, field.key) ? input[field.key] : undefined
    if (field.type === "select") selects[field.key] = ""
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      issues.push({ path, message: `must be a string, got ${kindOf(raw)}` })
      continue
    }
    const value = (raw ?? "").trim()
    if (value === "") {
      if (field.required) issues.push({ path, message: `is required: ${field.label}${field.description ? ` (${field.description})` : ""}` })
      continue
    }
    if (value.length > 256) {
      issues.push({ path, message: `must be at most 256 characters, got ${value.length}` })
      continue
    }
    if (field.type === "select") {
      const options = (field.options ?? []).map((o) => o.value)
      if (options.includes(value)) selects[field.key] = out[field.key] = value
      else issues.push({ path, message: `must be one of ${options.join(", ")} (exactly, case-sensitive), got '${value}'` })
      continue
    }
    present.set(field, value)
  }

  // Pass 2: each field's own rule, which may look at the valid selects.
  for (const [field, value] of present) {
    const outcome = ruleFor(method, field)?.(value, selects) ?? ok(value)
    if ("value" in outcome) out[field.key] = outcome.value
    else issues.push({ path: `recipient.${field.key}`, message: outcome.problem })
  }
  const order = ["recipient", ...method.recipientFields.map((f) => `recipient.${f.key}`)]
  issues.sort((a, b) => order.indexOf(a.path) - order.indexOf(b.path))
  return { recipient: out, issues }
}
