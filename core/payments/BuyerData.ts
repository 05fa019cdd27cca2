/**
 * Buyer data a hosted-checkout transaction needs (spec 4.5): a full name of two words at least
 * (at most 120 characters), a valid email and a document id, plus what the rail requires (a phone
 * with its country code for wallets). On a direct API call they are recommended, not enforced.
 */
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"

export const emailPattern = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
export const phonePattern = /^\+[0-9][0-9 ()-]{6,38}$/

export interface BuyerData {
  readonly userName: string | null
  readonly email: string | null
  readonly documentId: string | null
  readonly phone: string | null
}

/** The spec's names (`userName`, `email`, `documentId`, `userPhone`) of what is missing or malformed. */
export const missingFor = (buyer: BuyerData, method: PaymentMethodDef | undefined): ReadonlyArray<string> => {
  const missing: Array<string> = []
  const name = buyer.userName?.trim() ?? ""
  if (name.split(/\s+/).filter(Boolean).length < 2 || name.length > 120) missing.push("userName")
  if (buyer.email === null || !emailPattern.test(buyer.email) || buyer.email.length > 254) missing.push("email")
  if (buyer.documentId === null || buyer.documentId.trim() === "" || buyer.documentId.length > 40) missing.push("documentId")
  if (method?.requires.includes("userPhone") === true && (buyer.phone === null || !phonePattern.test(buyer.phone))) {
    missing.push("userPhone")
  }
  return missing
}
