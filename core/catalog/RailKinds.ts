/**
 * The building blocks of the catalog's rails (`methods.ts`): what a kind of rail (card, cash
 * voucher, bank transfer, wallet) has in common within a country, and `def`, which makes one
 * method of a rail with its limits and any overrides.
 */
import type { Channel } from "./Channel.ts"
import type { PaymentMethodDef, RequiredField } from "./PaymentMethod.ts"

/** The countries the catalog covers (ISO-2) with their local currency. */
export const catalogCountries = { BR: "BRL", MX: "MXN", CO: "COP", PE: "PEN", CL: "CLP", AR: "ARS" } as const
export type CatalogCountry = keyof typeof catalogCountries

/** What a kind of rail has in common within a country. */
export interface Rail {
  readonly method: string
  readonly methodLabel: string
  readonly channel: Channel
  readonly requires: ReadonlyArray<RequiredField>
  readonly expiresInMinutes: number
  readonly settlementDays: number
  /** [percent, flat USD] */
  readonly fee: readonly [string, string]
  /** [minTxUsd, maxTxUsd] */
  readonly usd?: readonly [string | null, string | null]
}

/** [currency, min, max] in major units; the first is the local currency the buyer pays in. */
export type Limit = readonly [currency: string, min: string, max: string]

interface Overrides {
  readonly fee?: readonly [string, string]
  readonly settlementDays?: number
  readonly expiresInMinutes?: number
  readonly requires?: ReadonlyArray<RequiredField>
}

export const def = (
  id: string,
  country: CatalogCountry,
  name: string,
  rail: Rail,
  limits: ReadonlyArray<Limit>,
  overrides: Overrides = {}
): PaymentMethodDef => {
  const [percent, flat] = overrides.fee ?? rail.fee
  const [minTxUsd, maxTxUsd] = rail.usd ?? [null, null]
  return {
    id,
    method: rail.method,
    methodLabel: rail.methodLabel,
    name,
    country,
    channel: rail.channel,
    currencies: limits.map(([currency]) => currency),
    currencyLimits: limits.map(([currency, min, max]) => ({ currency, min, max })),
    minTxUsd,
    maxTxUsd,
    fee: { percent, flat, currency: "USD" },
    requires: overrides.requires ?? rail.requires,
    expiresInMinutes: overrides.expiresInMinutes ?? rail.expiresInMinutes,
    settlementDays: overrides.settlementDays ?? rail.settlementDays,
    sandboxOnly: false,
    enabled: true,
    online: true
  }
}

export const minutes = { hour: 60, day: 1440, twoDays: 2880, threeDays: 4320 } as const

export const buyer: ReadonlyArray<RequiredField> = ["userName", "userEmail"]
export const buyerWithId: ReadonlyArray<RequiredField> = ["userName", "userEmail", "documentId"]

/** Cards: 30 minutes to complete 3-D Secure, T+7, USD bounds of the acquirer. */
export const card = (requires: ReadonlyArray<RequiredField>, fee: readonly [string, string]): Rail => ({
  method: "card",
  methodLabel: "Credit card",
  channel: "CREDIT_CARD",
  requires,
  expiresInMinutes: 30,
  settlementDays: 7,
  fee,
  usd: ["1", "10000"]
})

/** Cash vouchers: payable for 2 to 3 days over a counter, confirmed by batch files, T+3. */
export const cash = (
  requires: ReadonlyArray<RequiredField>,
  fee: readonly [string, string],
  expiresInMinutes: number,
  method = "cash"
): Rail => ({
  method,
  methodLabel: "Cash voucher",
  channel: "CASH",
  requires,
  expiresInMinutes,
  settlementDays: 3,
  fee,
  usd: ["1", null]
})

export const bankTransfer = (requires: ReadonlyArray<RequiredField>, fee: readonly [string, string], settlementDays: number): Rail => ({
  method: "bank_transfer",
  methodLabel: "Bank transfer",
  channel: "ONLINE",
  requires,
  expiresInMinutes: minutes.day,
  settlementDays,
  fee
})

export const wallet = (requires: ReadonlyArray<RequiredField>, fee: readonly [string, string], settlementDays = 2): Rail => ({
  method: "wallet",
  methodLabel: "Wallet",
  channel: "ONLINE",
  requires,
  expiresInMinutes: 30,
  settlementDays,
  fee
})
