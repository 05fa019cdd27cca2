/**
 * The statement of a settlement batch: the data its PDF receipt and its CSV are
 * rendered from. It is a snapshot of the batch's own lines, the journal postings the batch swept,
 * never recomputed from live balances, so a statement printed today and one printed a year later
 * say the same thing.
 *
 * Invariant (`check`): the lines' `amountUsd` (net) sum exactly, in `BigDecimal`, to
 * `summary.net`, the amount the batch paid out. A statement that breaks it is not rendered.
 *
 * A line stored before lines carried their breakdown reads (`upgradeStoredLine`) with its whole
 * net as `otherUsd` and every other column 0: the identity holds, nothing is made up.
 */
import { BigDecimal, Result, Schema } from "effect"
import * as Money from "../Money.ts"

/** Where the batch's net was paid: a USDC address on a chain, or a bank account by its label. */
export const StatementDestination = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("usdc"), chain: Schema.String, address: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("bank"), label: Schema.String })
])
export type StatementDestination = typeof StatementDestination.Type

/**
 * A batch's state when its statement was made: `closed` (swept, payout not sent yet), `paying`
 * (payout written ahead and sent), `paid` (the payout is complete), `failed` (the payout failed;
 * the money returned to the balance).
 */
export const StatementBatchStatus = Schema.Literals(["closed", "paying", "paid", "failed"])
export type StatementBatchStatus = typeof StatementBatchStatus.Type

/** What moved the money of one line. */
export const StatementLineKind = Schema.Literals([
  "payment",
  "refund",
  "chargeback",
  "chargeback_won",
  "fee",
  "reserve_held",
  "reserve_released",
  "owed_recovered",
  "withdrawal",
  "transfer",
  "settlement_returned",
  "adjustment"
])
export type StatementLineKind = typeof StatementLineKind.Type

export const StatementLine = Schema.Struct({
  /** When the movement was posted. */
  at: Schema.DateTimeUtc,
  kind: StatementLineKind,
  /** The payment it belongs to (`TXN-...`), when it belongs to one. */
  transactionId: Schema.NullOr(Schema.String),
  /** The journal entry's reference: identifies every line, also those of no payment. */
  reference: Schema.String,
  /** The merchant's own order id: text the merchant controls. */
  merchantOrderId: Schema.NullOr(Schema.String),
  /** The payment method (`pix`, `oxxo`...), for lines of a payment. */
  method: Schema.NullOr(Schema.String),
  /** The amount in the buyer's currency, when there was one; unsigned, as the buyer saw it. */
  amountLocal: Schema.NullOr(Schema.BigDecimal),
  currencyLocal: Schema.NullOr(Schema.String),
  /** A card payment's line: the instalment count it was paid in; absent on every other line (and on lines stored before). */
  installments: Schema.optionalKey(Schema.Int),
  /**
   * The line's net, signed, in USD: what it added to (positive) or took from (negative) the
   * batch's available balance, after fees, reserve and what it repaid. The columns below split it:
   * `grossUsd - feesUsd + reserveUsd - owedRecoveredUsd - refundsUsd - chargebacksUsd + otherUsd = amountUsd`
   * exactly, and each column summed over the lines is the summary's figure of that name.
   */
  amountUsd: Schema.BigDecimal,
  /** The payment's amount in USD before anything came off it (payment lines; else 0). */
  grossUsd: Schema.BigDecimal,
  /** Fees taken by this line: the payment's platform, provider and network fees, or a chargeback's fee. */
  feesUsd: Schema.BigDecimal,
  /** Reserve: negative what the line held back, positive what a release gave back. */
  reserveUsd: Schema.BigDecimal,
  /** What the line repaid of what the shop owed (a negative balance earlier). */
  owedRecoveredUsd: Schema.BigDecimal,
  /**
   * Refunds the line took: on a payment line, what its refunds and chargeback took from it before
   * it settled; on a refund line, the refund (negative when a rejected refund returned money).
   */
  refundsUsd: Schema.BigDecimal,
  /** What a chargeback took (negative when a won chargeback gave it back), its fee apart. */
  chargebacksUsd: Schema.BigDecimal,
  /** Withdrawals, transfers, swaps, a failed payout returned, adjustments (signed). */
  otherUsd: Schema.BigDecimal
})
export type StatementLine = typeof StatementLine.Type

/**
 * The batch's totals in USD. Each is what those movements took from (or, for `gross`,
 * `reserveReleased` and `other`, added to) the batch, so that
 * `net = gross - fees - refunds - chargebacks - owedRecovered - reserveHeld + reserveReleased + other`
 * exactly; a figure is negative when the movements went the other way (a rejected refund returns
 * money: negative `refunds`). `net` is what was paid out and what the lines sum to.
 */
export const StatementSummary = Schema.Struct({
  gross: Schema.BigDecimal,
  fees: Schema.Struct({
    platform: Schema.BigDecimal,
    provider: Schema.BigDecimal,
    chargeback: Schema.BigDecimal
  }),
  refunds: Schema.BigDecimal,
  chargebacks: Schema.BigDecimal,
  owedRecovered: Schema.BigDecimal,
  reserveHeld: Schema.BigDecimal,
  reserveReleased: Schema.BigDecimal,
  /** Withdrawals, transfers to the payout balance, swaps, a failed batch's money returned, sandbox funding (signed). */
  other: Schema.BigDecimal,
  net: Schema.BigDecimal
})
export type StatementSummary = typeof StatementSummary.Type

export const Statement = Schema.Struct({
  merchant: Schema.Struct({ id: Schema.String, name: Schema.String }),
  shop: Schema.Struct({ id: Schema.String, name: Schema.String }),
  batch: Schema.Struct({
    /** `STL-...` */
    id: Schema.String,
    periodStart: Schema.DateTimeUtc,
    periodEnd: Schema.DateTimeUtc,
    closedAt: Schema.DateTimeUtc,
    status: StatementBatchStatus,
    destination: StatementDestination,
    /** The payout's transaction hash on chain (or the bank's reference), once there is one. */
    payoutReference: Schema.NullOr(Schema.String)
  }),
  summary: StatementSummary,
  lines: Schema.Array(StatementLine)
})
export type Statement = typeof Statement.Type

/** The lines do not add up to the statement's net: the statement is wrong and must not be rendered. */
export class StatementUnbalanced extends Schema.TaggedError<StatementUnbalanced>()("StatementUnbalanced", {
  batchId: Schema.String,
  /** The exact sum of the lines' `amountUsd`. */
  linesTotal: Schema.BigDecimal,
  net: Schema.BigDecimal,
  /** `linesTotal - net`. */
  difference: Schema.BigDecimal
}) {}

/** The exact sum of the lines' `amountUsd` (BigDecimal, no rounding). */
export const linesTotal = (lines: ReadonlyArray<StatementLine>): BigDecimal.BigDecimal => {
  let total = Money.zero
  for (const line of lines) total = BigDecimal.sum(total, line.amountUsd)
  return BigDecimal.normalize(total)
}

/**
 * Answers the statement when its lines sum to `summary.net` to the cent, exactly: neither side is
 * rounded first, so a line carrying a fraction of a cent breaks the balance rather than hiding in
 * a rounding.
 */
export const check = (statement: Statement): Result.Result<Statement, StatementUnbalanced> => {
  const total = linesTotal(statement.lines)
  const net = BigDecimal.normalize(statement.summary.net)
  return BigDecimal.equals(total, net)
    ? Result.succeed(statement)
    : Result.fail(
      new StatementUnbalanced({
        batchId: statement.batch.id,
        linesTotal: total,
        net,
        difference: BigDecimal.normalize(BigDecimal.subtract(total, net))
      })
    )
}

/**
 * The plain decimal text of an amount with exactly the currency's decimals, rounded half to even
 * with `Money.round`: `50` USD is `"50.00"`, `-3.5` USD `"-3.50"`, `15000` CLP `"15000"`. No
 * thousands separator, `.` as the decimal point, never an exponent (what a spreadsheet and an
 * accountant read). An amount that rounds to zero has no sign.
 */
export const amountText = (amount: BigDecimal.BigDecimal, currency: Money.Currency): string => {
  const digits = Money.exponent(currency)
  const scaled = BigDecimal.scale(Money.round(amount, currency), digits)
  const negative = scaled.value < 0n
  const magnitude = (negative ? -scaled.value : scaled.value).toString().padStart(digits + 1, "0")
  const whole = magnitude.slice(0, magnitude.length - digits)
  const text = digits === 0 ? whole : `${whole}.${magnitude.slice(magnitude.length - digits)}`
  return negative ? `-${text}` : text
}

const breakdownKeys = ["grossUsd", "reserveUsd", "owedRecoveredUsd", "refundsUsd", "chargebacksUsd", "otherUsd"] as const

/**
 * A stored line's JSON as `StatementLine`'s codec reads it: a line written before lines carried
 * their breakdown (no `grossUsd`) gets its net as `otherUsd`, 0 in the other columns and its fees
 * (then for information, inside the net) as 0, so the identity still holds.
 */
export const upgradeStoredLine = (json: unknown): unknown => {
  if (typeof json !== "object" || json === null || "grossUsd" in json) return json
  const line = json as Record<string, unknown>
  const filled: Record<string, unknown> = { ...line, feesUsd: "0" }
  for (const key of breakdownKeys) filled[key] = key === "otherUsd" ? line["amountUsd"] : "0"
  return filled
}

/** The statement as JSON (amounts as decimal text, times as ISO 8601), to keep or send a snapshot. */
export const StatementJson = Schema.toCodecJson(Statement)
