/** How a claim reads in the API and in events: as a refund, or as a claim. */
import { DateTime } from "effect"
import * as Money from "../Money.ts"
import { type Claim, refundStatusOf } from "./Claim.ts"

export const refundView = (c: Claim) => ({
  refundId: c.id,
  transactionId: c.transactionId,
  amount: Money.toJsonNumber(c.amount),
  amountUsd: Money.toJsonNumber(c.amountUsd),
  currency: c.currency,
  status: refundStatusOf(c.status),
  reason: c.reason,
  createdAt: DateTime.formatIso(c.createdAt)
})

export const claimView = (c: Claim) => ({
  id: c.id,
  kind: c.kind,
  status: c.status,
  transactionId: c.transactionId,
  amount: Money.toJsonNumber(c.amount),
  currency: c.currency,
  amountUsd: Money.toJsonNumber(c.amountUsd),
  feeUsd: Money.toJsonNumber(c.feeUsd),
  reason: c.reason,
  resolution: c.resolution,
  resolvedBy: c.resolvedBy,
  providerRef: c.providerRef,
  createdAt: DateTime.formatIso(c.createdAt),
  resolvedAt: c.resolvedAt === null ? null : DateTime.formatIso(c.resolvedAt),
  ...(c.kind === "user_dispute" ? { refundStatus: refundStatusOf(c.status) } : {})
})
