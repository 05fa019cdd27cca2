/**
 * A payment method of the catalog: one rail (method + country + currency) that a buyer pays with,
 * under a service id that never changes when the provider behind the rail does.
 */
import type { Channel } from "./Channel.ts"

export interface CurrencyLimit {
  /** ISO 4217 code of the local currency. */
  readonly currency: string
  /** Decimal text in major units, e.g. "5" or "50000.00". */
  readonly min: string
  readonly max: string
}

/** Buyer data a rail needs to be charged upstream (beyond the amount). */
export type RequiredField = "userName" | "userEmail" | "documentId" | "userPhone" | "userAddress"

export interface PaymentMethodDef {
  /** "1001".."9999" for real rails, or one of the `sbx_*` sandbox test ids. Never reused. */
  readonly id: string
  /** Slug: pix, boleto, spei, oxxo, pse, card, bank_transfer, cash, wallet, ... */
  readonly method: string
  /** Human label of the method kind, e.g. "PIX", "Bank transfer", "Cash voucher". */
  readonly methodLabel: string
  /** The retailer, bank or rail name shown to the buyer, e.g. "OXXO", "Bancolombia". */
  readonly name: string
  /** ISO-2 country. */
  readonly country: string
  readonly channel: Channel
  /** The local currency the buyer pays in (first) and any other accepted one. */
  readonly currencies: ReadonlyArray<string>
  readonly currencyLimits: ReadonlyArray<CurrencyLimit>
  /** Decimal text in USD, or null when the rail has no USD bound of its own. */
  readonly minTxUsd: string | null
  readonly maxTxUsd: string | null
  /** The provider-side fee the merchant pays for this rail: percent of the USD amount plus a flat USD amount. */
  readonly fee: { readonly percent: string; readonly flat: string; readonly currency: "USD" }
  /** Fields the upstream charge needs. */
  readonly requires: ReadonlyArray<RequiredField>
  /** How long a pending charge stays payable, in minutes (PIX 30, boleto/OXXO 3 days, ...). */
  readonly expiresInMinutes: number
  /** Settlement delay in days after completion (T+n). */
  readonly settlementDays: number
  /** True for the `sbx_*` test methods, listed in sandbox only. */
  readonly sandboxOnly: boolean
  /** Informational flags of the spec (do not decide visibility). */
  readonly enabled: boolean
  readonly online: boolean
}
