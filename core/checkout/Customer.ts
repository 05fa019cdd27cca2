/**
 * The buyer as a checkout session knows them: the merchant's `customer` block, checked field by
 * field (spec 8 limits), and the full name split and joined as the session stores it.
 */
import type { Issue } from "../ApiError.ts"
import { emailPattern, phonePattern } from "../payments/BuyerData.ts"
import type { BuyerAddress } from "../ports/PaymentProvider.ts"
import type { Customer } from "./CheckoutSession.ts"

export interface CustomerInput {
  readonly firstName?: string | undefined
  readonly lastName?: string | undefined
  readonly email?: string | undefined
  readonly phone?: string | undefined
  readonly documentId?: string | undefined
  readonly address?: BuyerAddress | undefined
}

/** The `customer` block's checks (spec 8 limits); every problem at once. */
export const checkCustomer = (input: CustomerInput | undefined): { readonly valid: Customer; readonly issues: ReadonlyArray<Issue> } => {
  const issues: Array<Issue> = []
  const field = (key: Exclude<keyof CustomerInput, "address">, max: number, test?: (v: string) => boolean, expected?: string) => {
    const raw = input?.[key]
    if (raw === undefined) return null
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
    address: input?.address ?? null
  }
  return { valid, issues }
}

export const fullNameOf = (c: Customer) => [c.firstName, c.lastName].filter((x): x is string => x !== null).join(" ") || null

export const splitName = (fullName: string): Pick<Customer, "firstName" | "lastName"> => {
  const parts = fullName.trim().split(/\s+/)
  return { firstName: parts[0] ?? null, lastName: parts.length > 1 ? parts.slice(1).join(" ") : null }
}

