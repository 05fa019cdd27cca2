/**
 * A settlement batch: the money of one shop swept from `payin_available` at a close and
 * paid to the shop's destination in one payout.
 *
 * Life: `open` (the current period: the shop's movements since the last close; there is one open
 * batch per scheduled shop), then at a close whose net reaches the schedule's minimum `paying`
 * (swept in one journal entry to `settlements_in_flight`, the payout written ahead), then `paid`
 * (the provider confirmed the transfer) or `failed` (the provider refused it: the net returned to
 * `payin_available`, where the next batch takes it again). A close below the minimum leaves the
 * batch open: its period runs on to the next close.
 *
 * Every journal entry that moves the shop's `payin_available` USD belongs to exactly one closed
 * batch: the store binds each entry to one batch (`SettlementStore.close`), so it cannot be in two,
 * and a close takes every entry not bound yet, under the lock of that balance, so none is left out.
 */
import { Schema } from "effect"
import { Environment } from "../Environment.ts"
import { SettlementDestination } from "./Schedule.ts"
import { StatementSummary } from "./Statement.ts"

/**
 * The kind of the journal entry that sweeps a batch's net out of `payin_available`. It is no line
 * of any batch: it cancels the lines of the batch it closes.
 */
export const sweepKind = "settlement.closed"

export const SettlementStatus = Schema.Literals(["open", "paying", "paid", "failed"])
export type SettlementStatus = typeof SettlementStatus.Type

export const SettlementBatch = Schema.Struct({
  id: Schema.String,
  environment: Environment,
  merchantId: Schema.String,
  shopId: Schema.String,
  status: SettlementStatus,
  /** The previous batch's close (or when the schedule began). */
  periodStart: Schema.DateTimeUtc,
  /** When it closed; while open, the next scheduled close. */
  periodEnd: Schema.DateTimeUtc,
  closedAt: Schema.NullOr(Schema.DateTimeUtc),
  destination: SettlementDestination,
  /** The totals of its lines, from the close on. */
  summary: Schema.NullOr(StatementSummary),
  lineCount: Schema.Int,
  /** Who pays it out: a settlement payout provider's id, or `sandbox`. */
  provider: Schema.NullOr(Schema.String),
  /** The provider's id of the transfer, once it answered. */
  providerRef: Schema.NullOr(Schema.String),
  /** The transaction hash on chain, once there is one. */
  transactionHash: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  /** When the statement was checked and `settlement.pdf_ready` sent. */
  statementReadyAt: Schema.NullOr(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  paidAt: Schema.NullOr(Schema.DateTimeUtc),
  version: Schema.Int
})
export type SettlementBatch = typeof SettlementBatch.Type

export const SettlementBatchJson = Schema.toCodecJson(SettlementBatch)
