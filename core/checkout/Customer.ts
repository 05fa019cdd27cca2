/**
 * The buyer as a checkout session knows them: the merchant's `customer` block, checked field by
 * field (spec 8 limits), and the full name split and joined as the session stores it.
 */
import type { Redacted } from "effect"
import type { Issue } from "../ApiError.ts"
import { type BuyerData, type BuyerText, emailPattern, phonePattern, revealed } from "../payments/BuyerData.ts"
import type { BuyerAddress } from "../ports/PaymentProvider.ts"
import type { Customer } from "./CheckoutSession.ts"

/** The merchant's `customer` block, `Redacted` as the API decoded it. */
export interface CustomerInput {
  readonly firstName?: BuyerText | undefined
  readonly lastName?: BuyerText | undefined
  readonly email?: BuyerText | undefined
  readonly phone?: BuyerText | undefined
  readonly documentId?: BuyerText | undefined
  readonly address?: Redacted.Redacted<BuyerAddress> | undefined
}

/**
 * The `customer` block's checks (spec 8 limits); every problem at once. The issues name the field,
 * never its value; `valid` is the session's stored form (the store keeps the buyer in the clear).
 */
export const checkCustomer = (input: CustomerInput | undefined): { readonly valid: Customer; readonly issues: ReadonlyArray<Issue> } => {
  const issues: Array<Issue> = []
  const field = (key: Exclude<keyof CustomerInput, "address">, max: number, test?: (v: string) => boolean, expected?: string) => {
    const raw = revealed(input?.[key])
    if (raw === null) return null
    const value = raw.trim()
    if (value === "") issues.push({ path: `customer.${key}`, message: "Expected a non-empty string" })
    else if (value.length > max) issues.push({ path: `customer.${key}`, message: `Expected at most ${max} characters` })
    else if (test !== undefined && !test(value)) issues.push({ path: `customer.${key}`, message: expected ?? "Invalid value" })
    else return value
    return null
  }
  const valid: Customer = {
    firstName: field("firstName", 60),
    lastName: field("lastName", 60),
    email: field("email", 254, (v) => emailPattern.test(v), "Expected a valid email address"),
    phone: field("phone", 40, (v) => phonePattern.test(v), "Expected a phone number with its country code, e.g. +5511987654321"),
    documentId: field("documentId", 40),
    address: revealed(input?.address)
  }
  return { valid, issues }
}

export const fullNameOf = (c: Customer) => [c.firstName, c.lastName].filter((x): x is string => x !== null).join(" ") || null

export const splitName = (fullName: string): Pick<Customer, "firstName" | "lastName"> => {
  const parts = fullName.trim().split(/\s+/)
  return { firstName: parts[0] ?? null, lastName: parts.length > 1 ? parts.slice(1).join(" ") : null }
}


/**
 * The buyer as the session stores it: the contact fields (name, email, phone) and, unless
 * `contactOnly` (a session whose transaction exists), the document and address it waits to send.
 */
export const storedCustomer = (buyer: BuyerData, contactOnly: boolean): Customer => {
  const name = revealed(buyer.userName)
  return {
    ...(name === null ? { firstName: null, lastName: null } : splitName(name)),
    email: revealed(buyer.email),
    phone: revealed(buyer.phone),
    documentId: contactOnly ? null : revealed(buyer.documentId),
    address: contactOnly ? null : revealed(buyer.address)
  }
}
