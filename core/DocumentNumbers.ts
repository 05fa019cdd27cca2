/**
 * Identity document numbers per country and type, with their check digits where the type has
 * them: pure functions, no Effect. The buyer's `documentId` of a payment (API and hosted page)
 * and a payout beneficiary's (`payouts/Recipients.ts`) are checked here, before any upstream call.
 *
 * - BR: CPF (11 digits, two mod-11 check digits) or CNPJ (14 characters, two mod-11 check
 *   digits). From July 2026 the Receita Federal issues alphanumeric CNPJs: the first 12 positions
 *   are 0-9 or A-Z, each worth its ASCII code minus 48 (so digits keep their value, A = 17), with
 *   the same weights; the last two stay digits. A numeric CNPJ is the special case.
 * - MX: CURP (18 characters, its 18th a check digit over the first 17) or RFC (12 characters for
 *   a company, 13 for a person, with a valid date). The RFC's last character is a check digit too,
 *   but numbers the SAT issued do not all satisfy it, so it is not enforced.
 * - CL: RUT (body, then the mod-11 check digit 0-9 or K).
 * - CO: CC, the cédula (5 to 10 digits, no check digit), or NIT written with its check digit after
 *   a dash (`900123456-7`; DIAN's prime weights, mod 11).
 * - AR: DNI (7 or 8 digits) or CUIT/CUIL (11 digits, mod-11 check digit).
 * - PE: DNI (8 digits), carné de extranjería or RUC (11 digits): 8 to 12 digits.
 * - Elsewhere: any text of 1 to 40 characters (the provider judges it).
 *
 * Dots, dashes, slashes and spaces people type are dropped; letters are upper-cased.
 */

/** A number's normal form, or what is wrong with it (a sentence naming no value). */
export type DocumentCheck = { readonly value: string } | { readonly problem: string }

const ok = (value: string): DocumentCheck => ({ value })
const bad = (problem: string): DocumentCheck => ({ problem })

/** Drops the separators people type in document numbers. */
export const stripSeparators = (s: string): string => s.replace(/[\s./-]/g, "")

/** Σ value(c) x weight(i) over `chars`, a character worth its ASCII code minus 48 (`0` = 0, `A` = 17). */
export const weightedSum = (chars: string, weight: (index: number) => number): number => {
  let sum = 0
  for (let i = 0; i < chars.length; i++) sum += (chars.charCodeAt(i) - 48) * weight(i)
  return sum
}

// --- check digits ----------------------------------------------------------------------------

/** Brazil's CPF, 11 digits: two mod-11 check digits (weights 10..2, then 11..2); repeated digits refused. */
export const isValidCpf = (cpf: string): boolean => {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1+$/.test(cpf)) return false
  const check = (n: number) => ((weightedSum(cpf.slice(0, n), (i) => n + 1 - i) * 10) % 11) % 10
  return check(9) === Number(cpf[9]) && check(10) === Number(cpf[10])
}

/**
 * Brazil's CNPJ, 14 characters: 12 of 0-9 or A-Z (numeric before July 2026) and two mod-11 check
 * digits, weights 2..9 cycling from the right, a remainder under 2 giving 0; repeated digits refused.
 */
export const isValidCnpj = (cnpj: string): boolean => {
  if (!/^[\dA-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1+$/.test(cnpj)) return false
  const check = (n: number) => {
    const r = weightedSum(cnpj.slice(0, n), (i) => 2 + ((n - 1 - i) % 8)) % 11
    return r < 2 ? 0 : 11 - r
  }
  return check(12) === Number(cnpj[12]) && check(13) === Number(cnpj[13])
}

/** Chile's RUT, body then check digit (0-9 or K): weights 2..7 cycling from the right, 11 - sum mod 11 (11 -> 0, 10 -> K). */
export const isValidRut = (rut: string): boolean => {
  if (!/^\d{1,8}[\dK]$/.test(rut)) return false
  const body = rut.slice(0, -1)
  const r = 11 - (weightedSum(body, (i) => 2 + ((body.length - 1 - i) % 6)) % 11)
  return (r === 11 ? "0" : r === 10 ? "K" : String(r)) === rut.slice(-1)
}

const curpAlphabet = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
const curpPattern =
  /^[A-Z][AEIOUX][A-Z]{2}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[HMX](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d$/

/**
 * Mexico's CURP, 18 characters (RENAPO's layout), the 18th a check digit: each of the first 17
 * worth its place in 0-9, A-N, Ñ, O-Z, weights 18..2, then (10 - sum mod 10) mod 10.
 */
export const isValidCurp = (curp: string): boolean => {
  if (!curpPattern.test(curp)) return false
  let sum = 0
  for (let i = 0; i < 17; i++) sum += curpAlphabet.indexOf(curp[i]!) * (18 - i)
  return (10 - (sum % 10)) % 10 === Number(curp[17])
}

const rfcPattern = /^[A-ZÑ&]{3,4}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[A-Z\d]{3}$/

/** Mexico's RFC: 3 (company) or 4 (person) letters, the date as YYMMDD and a 3-character homoclave. */
export const isValidRfc = (rfc: string): boolean => rfcPattern.test(rfc)

const nitWeights = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71]

/** Colombia's NIT, the number then its check digit: DIAN's weights 3, 7, 13, ... from the right, mod 11 (0 and 1 as they are, else 11 - r). */
export const isValidNit = (nit: string): boolean => {
  if (!/^\d{6,15}$/.test(nit)) return false
  const body = nit.slice(0, -1)
  const r = weightedSum(body, (i) => nitWeights[body.length - 1 - i]!) % 11
  return (r < 2 ? r : 11 - r) === Number(nit.slice(-1))
}

/** Argentina's CUIT/CUIL, 11 digits: weights 5,4,3,2,7,6,5,4,3,2, 11 - sum mod 11 (11 -> 0; 10 never issued). */
export const isValidCuit = (cuit: string): boolean => {
  if (!/^\d{11}$/.test(cuit)) return false
  const r = 11 - (weightedSum(cuit.slice(0, 10), (i) => [5, 4, 3, 2, 7, 6, 5, 4, 3, 2][i]!) % 11)
  return r !== 10 && (r === 11 ? 0 : r) === Number(cuit[10])
}

// --- by country ------------------------------------------------------------------------------

const brazil = (v: string): DocumentCheck => {
  if (/^\d{11}$/.test(v)) return isValidCpf(v) ? ok(v) : bad("is not a valid CPF: its check digits (the last two) do not match")
  if (/^[\dA-Z]{12}\d{2}$/.test(v)) return isValidCnpj(v) ? ok(v) : bad("is not a valid CNPJ: its check digits (the last two) do not match")
  const got = /^\d+$/.test(v) ? `${v.length} digits` : `${v.length} characters`
  return bad(`must be a CPF (11 digits) or a CNPJ (14 characters, letters allowed in the first 12), got ${got}`)
}

const mexico = (v: string, type?: "RFC" | "CURP"): DocumentCheck => {
  const curp = () => isValidCurp(v) ? ok(v) : bad(curpPattern.test(v) ? "is not a valid CURP: its check digit (the 18th) does not match" : `must be ${curpText}`)
  const rfc = () => isValidRfc(v) ? ok(v) : bad(`must be ${rfcText}`)
  if (type === "CURP") return curp()
  if (type === "RFC") return rfc()
  if (v.length === 18) return curp()
  if (v.length === 12 || v.length === 13) return rfc()
  return bad(`must be a CURP (18 characters) or an RFC (12 or 13 characters), got ${v.length} characters`)
}

export const rfcText = "an RFC: 3 or 4 letters, the date as YYMMDD and a 3-character homoclave (12 or 13 characters)"
export const curpText = "a CURP: 4 letters, the birth date as YYMMDD, H/M/X, the state, 3 consonants and 2 check characters (18 characters)"

const chile = (v: string): DocumentCheck => {
  if (!/^\d{6,8}[\dK]$/.test(v)) return bad("must be a RUT: 6 to 8 digits then the check digit (0-9 or K), e.g. 12.345.678-5")
  return isValidRut(v) ? ok(v) : bad("is not a valid RUT: its check digit does not match")
}

/** `raw` as typed: a NIT is told from a cédula by the dash before its check digit. */
const colombia = (raw: string, v: string): DocumentCheck => {
  if (/-\s*\d\s*$/.test(raw)) {
    if (!/^\d{6,15}$/.test(v)) return bad("must be a NIT: its digits, a dash and the check digit, e.g. 900.123.456-8")
    return isValidNit(v) ? ok(v) : bad("is not a valid NIT: its check digit (after the dash) does not match")
  }
  return /^\d{5,10}$/.test(v) ? ok(v) : bad("must be a cédula (5 to 10 digits) or a NIT with its check digit after a dash (900123456-8)")
}

const argentina = (v: string): DocumentCheck => {
  if (/^\d{7,8}$/.test(v)) return ok(v)
  if (/^\d{11}$/.test(v)) return isValidCuit(v) ? ok(v) : bad("is not a valid CUIT/CUIL: its check digit (the last) does not match")
  return bad(`must be a DNI (7 or 8 digits) or a CUIT/CUIL (11 digits), got ${/^\d+$/.test(v) ? `${v.length} digits` : "characters other than digits"}`)
}

const peru = (v: string): DocumentCheck =>
  /^\d{8,12}$/.test(v) ? ok(v) : bad("must be a DNI (8 digits), carné de extranjería or RUC (11 digits): 8 to 12 digits")

/**
 * Checks a document number of `country` (ISO-2), of `type` when the caller knows it (a Mexican
 * payout's `documentType`), else of any type the country's buyers present; answers its normal
 * form (no separators, upper case) or what is wrong with it. Never throws.
 */
export const checkDocument = (country: string, raw: string, type?: "RFC" | "CURP"): DocumentCheck => {
  const v = stripSeparators(raw).toUpperCase()
  if (v === "") return bad("is empty")
  switch (country) {
    case "BR": return brazil(v)
    case "MX": return mexico(v, type)
    case "CL": return chile(v)
    case "CO": return colombia(raw, v)
    case "AR": return argentina(v)
    case "PE": return peru(v)
    default: return raw.trim().length <= 40 ? ok(raw.trim()) : bad("must be at most 40 characters")
  }
}

/** The countries whose document numbers `checkDocument` knows the rules of. */
export const checkedCountries: ReadonlyArray<string> = ["BR", "MX", "CL", "CO", "AR", "PE"]
