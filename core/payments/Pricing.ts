/**
 * What a payment costs the merchant and how it settles, by the merchant's tier and the rail.
 *
 * | tier     | platform fee     | rolling reserve, held for |
 * |----------|------------------|---------------------------|
 * | starter  | 2.9 % + 0.30 USD | 10 %, 90 days             |
 * | standard | 2.5 % + 0.25 USD | 5 %, 60 days              |
 * | premium  | 1.9 % + 0.20 USD | 0 %, 30 days              |
 *
 * The provider fee is the rail's own (`fee` in the catalog); the network fee is 0 on every rail
 * today. Every figure is USD, computed on the USD headline and rounded up to the cent (the
 * merchant pays fees, and its reserve is held from what it receives).
 * Net to the merchant = amount - fees.total - reserve.
 */
import { BigDecimal } from "effect"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Money from "../Money.ts"
import type { Tier } from "../tenancy/Merchant.ts"
import type { Fees, Settlement } from "./Payment.ts"

export interface TierPricing {
  readonly platformPercent: string
  readonly platformFlatUsd: string
  readonly reservePercent: string
  /** Days the rolling reserve of a payment is held after its completion. */
  readonly reserveDays: number
}

export const tierPricing: Readonly<Record<Tier, TierPricing>> = {
  starter: { platformPercent: "2.9", platformFlatUsd: "0.30", reservePercent: "10", reserveDays: 90 },
  standard: { platformPercent: "2.5", platformFlatUsd: "0.25", reservePercent: "5", reserveDays: 60 },
  premium: { platformPercent: "1.9", platformFlatUsd: "0.20", reservePercent: "0", reserveDays: 30 }
}

/** The fee charged for each chargeback, by tier (USD). */
export const chargebackFeeUsd: Readonly<Record<Tier, string>> = { starter: "15", standard: "15", premium: "10" }

/** The fee of one withdrawal of the USD pay-in balance, by tier (USD). */
export const withdrawalFeeUsd: Readonly<Record<Tier, string>> = { starter: "5", standard: "3", premium: "0" }

const hundred = BigDecimal.fromBigInt(100n)
/** `percent` of a USD amount, a share the merchant pays or leaves held: rounded up. */
const percentOf = (amount: BigDecimal.BigDecimal, percent: string) =>
  Money.roundFor(BigDecimal.divideUnsafe(BigDecimal.multiply(amount, Money.decimal(percent)), hundred), "USD", "pays")

export const fees = (amountUsd: BigDecimal.BigDecimal, method: PaymentMethodDef, tier: Tier): Fees => {
  const pricing = tierPricing[tier]
  const platformFlat = Money.decimal(pricing.platformFlatUsd)
  const platform = BigDecimal.sum(percentOf(amountUsd, pricing.platformPercent), platformFlat)
  const provider = BigDecimal.sum(percentOf(amountUsd, method.fee.percent), Money.decimal(method.fee.flat))
  const network = Money.zero
  return { platform, platformFlat, provider, network, total: BigDecimal.sumAll([platform, provider, network]) }
}

export const settlement = (amountUsd: BigDecimal.BigDecimal, method: PaymentMethodDef, tier: Tier): Settlement => ({
  type: "delayed",
  delay: `T+${method.settlementDays}`,
  delayDays: method.settlementDays,
  reserve: percentOf(amountUsd, tierPricing[tier].reservePercent),
  status: "pending",
  settledAt: null,
  reserveReleaseDays: tierPricing[tier].reserveDays,
  reserveReleasedAt: null,
  pendingTaken: Money.zero,
  reserveTaken: Money.zero
})

export const net = (amountUsd: BigDecimal.BigDecimal, f: Fees, s: Settlement): BigDecimal.BigDecimal =>
  BigDecimal.subtract(BigDecimal.subtract(amountUsd, f.total), s.reserve)
