/**
 * A settlement batch and a schedule as the API shows them (`GET /me/settlements/{id}`, the
 * `data` of `settlement.closed`; `GET /admin/shops/{shopId}/settlement-schedule`). Amounts are
 * USD numbers rounded to the cent; the statement URLs are relative to the API's base URL.
 */
import { DateTime } from "effect"
import * as Money from "../Money.ts"
import { maskedAccount } from "../balances/Withdrawal.ts"
import type { DestinationState, SettlementDestination, SettlementSchedule } from "./Schedule.ts"
import type { SettlementBatch } from "./Settlement.ts"

const usd = (d: Parameters<typeof Money.round>[0]) => Money.toJsonNumber(Money.round(d, "USD"))
const iso = (at: DateTime.Utc | null) => at === null ? null : DateTime.formatIso(at)

/** Where a batch's statements are fetched (relative to the API's base URL). */
export const statementPaths = (id: string) => ({
  pdf: `/me/settlements/${encodeURIComponent(id)}/statement.pdf`,
  csv: `/me/settlements/${encodeURIComponent(id)}/statement.csv`
})

/** A destination as shown back: a bank account by its last four characters. */
export const destinationView = (d: SettlementDestination) => d.kind === "bank" ? { ...d, accountNumber: maskedAccount(d.accountNumber) } : d

export const settlementView = (b: SettlementBatch) => ({
  id: b.id,
  status: b.status,
  currency: "USD" as const,
  period: { start: DateTime.formatIso(b.periodStart), end: DateTime.formatIso(b.periodEnd) },
  closedAt: iso(b.closedAt),
  gross: b.summary === null ? null : usd(b.summary.gross),
  fees: b.summary === null ? null : {
    platform: usd(b.summary.fees.platform),
    provider: usd(b.summary.fees.provider),
    chargeback: usd(b.summary.fees.chargeback)
  },
  refunds: b.summary === null ? null : usd(b.summary.refunds),
  chargebacks: b.summary === null ? null : usd(b.summary.chargebacks),
  owedRecovered: b.summary === null ? null : usd(b.summary.owedRecovered),
  reserve: b.summary === null ? null : { held: usd(b.summary.reserveHeld), released: usd(b.summary.reserveReleased) },
  other: b.summary === null ? null : usd(b.summary.other),
  net: b.summary === null ? null : usd(b.summary.net),
  lineCount: b.lineCount,
  destination: destinationView(b.destination),
  payout: {
    provider: b.provider,
    reference: b.providerRef,
    transactionHash: b.transactionHash,
    failureReason: b.failureReason,
    paidAt: iso(b.paidAt)
  },
  statement: b.status === "open" ? null : { ...statementPaths(b.id), readyAt: iso(b.statementReadyAt) },
  environment: b.environment,
  createdAt: DateTime.formatIso(b.createdAt),
  updatedAt: DateTime.formatIso(b.updatedAt)
})

export type SettlementView = ReturnType<typeof settlementView>

export const scheduleView = (s: SettlementSchedule, nextCloseAt: DateTime.Utc | null, approval: DestinationState | null = null) => ({
  shopId: s.shopId,
  environment: s.environment,
  frequency: s.frequency,
  weekday: s.weekday,
  time: s.time,
  timeZone: s.timeZone,
  destination: destinationView(s.destination),
  minimumUsd: usd(s.minimumUsd),
  keepReserve: s.keepReserve,
  nextCloseAt: iso(nextCloseAt),
  destinationApproval: approval,
  updatedAt: DateTime.formatIso(s.updatedAt)
})
