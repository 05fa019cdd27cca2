import { type DateTime, Schema } from "effect"

export const Tier = Schema.Literals(["starter", "standard", "premium"])
export type Tier = typeof Tier.Type

/** A merchant: the legal customer. It owns one or more shops. */
export interface Merchant {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly industry: string
  readonly tier: Tier
  /** 0 to 1000; drives reserve and limits in later features. */
  readonly trustScore: number
  readonly createdAt: DateTime.Utc
}

/** A shop: the unit that owns payments, balances and settings. */
export interface Shop {
  readonly id: string
  readonly merchantId: string
  readonly name: string
  readonly createdAt: DateTime.Utc
}
