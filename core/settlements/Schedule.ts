/**
 * A shop's settlement schedule: when its available USD is swept into a batch and where
 * the batch is paid. Set by the operator (`PUT /admin/shops/{shopId}/settlement-schedule`); a
 * sandbox shop starts with {@link sandboxDefault}. A shop without one keeps its money `available`
 * for withdrawals and payout transfers, as before.
 *
 * Close times are wall-clock times in the schedule's IANA time zone: `daily` at `time`, or
 * `weekly` on `weekday` (ISO: 1 Monday ... 7 Sunday) at `time`; `manual` never closes. A wall-clock time that a daylight
 * saving change skips closes at the first instant after the gap; a repeated one at its first
 * occurrence.
 */
import { BigDecimal, DateTime, Option, Schema } from "effect"
import { type BankAccountInput, destinationIssues, normalizeDestination } from "../balances/Withdrawal.ts"
import { Environment } from "../Environment.ts"
import * as Money from "../Money.ts"

/** A USDC address on a chain (Circle's chain names: `ETH`, `SOL`, `POLY`, ...). */
export const UsdcDestination = Schema.Struct({
  kind: Schema.Literal("usdc"),
  chain: Schema.String,
  address: Schema.String
})
export type UsdcDestination = typeof UsdcDestination.Type

/** A bank account, paid through the withdrawal path: the batch's net becomes a withdrawal (no fee) the bank transfer confirms. */
export const BankDestination = Schema.Struct({
  kind: Schema.Literal("bank"),
  accountHolder: Schema.String,
  bankName: Schema.String,
  accountNumber: Schema.String,
  swiftCode: Schema.NullOr(Schema.String)
})
export type BankDestination = typeof BankDestination.Type

export const SettlementDestination = Schema.Union([UsdcDestination, BankDestination])
export type SettlementDestination = typeof SettlementDestination.Type

/**
 * What the payer says of a USDC destination where it pays only to approved ones (Circle Mint's
 * address book): `approved` pays; `pending` waits for the payer's administrator; `denied` will
 * not be paid; `unknown`: the payer could not be asked (`detail` says why). A close whose
 * destination is `pending` or `denied` keeps the batch open: nothing is sent.
 */
export interface DestinationState {
  readonly provider: string
  readonly status: "approved" | "pending" | "denied" | "unknown"
  /** The payer's id of the entry (Circle's address book id). */
  readonly reference: string | null
  readonly detail: string
}

/** `manual`: no close; the money stays `available` (for withdrawals and transfers) as without a schedule. */
export const Frequency = Schema.Literals(["daily", "weekly", "manual"])
export type Frequency = typeof Frequency.Type

export const SettlementSchedule = Schema.Struct({
  environment: Environment,
  shopId: Schema.String,
  frequency: Frequency,
  /** ISO weekday of a weekly close (1 Monday ... 7 Sunday); null for daily. */
  weekday: Schema.NullOr(Schema.Int),
  /** `HH:MM`, 24 hours, in `timeZone`. */
  time: Schema.String,
  /** IANA time zone, e.g. `America/Mexico_City`. */
  timeZone: Schema.String,
  destination: SettlementDestination,
  /** A close whose net is below this stays open and rolls over to the next close. */
  minimumUsd: Schema.BigDecimal,
  /**
   * `true`: each payment's rolling reserve stays held until its release date, then reaches
   * available and a later batch. `false`: a close first releases every reserve the shop holds,
   * so the batch pays it now.
   */
  keepReserve: Schema.Boolean,
  updatedAt: Schema.DateTimeUtc,
  /** Increases on every change: a close job of an older version does nothing. */
  version: Schema.Int
})
export type SettlementSchedule = typeof SettlementSchedule.Type

export const SettlementScheduleJson = Schema.toCodecJson(SettlementSchedule)

/** The sandbox's own test chain: a sandbox payout on it completes at once, no provider involved. */
export const sandboxChain = "SANDBOX"

/** The schedule of a new sandbox shop: daily at midnight UTC, paid in USDC on the sandbox chain, no minimum. */
export const sandboxDefault = (shopId: string, at: DateTime.Utc): SettlementSchedule => ({
  environment: "sandbox",
  shopId,
  frequency: "daily",
  weekday: null,
  time: "00:00",
  timeZone: "UTC",
  destination: { kind: "usdc", chain: sandboxChain, address: `0xSANDBOX${shopId.replace(/[^A-Za-z0-9]/g, "").slice(-24)}` },
  minimumUsd: Money.zero,
  keepReserve: true,
  updatedAt: at,
  version: 1
})

/** What the operator sends; validated by {@link validate}. */
export interface ScheduleInput {
  readonly frequency: Frequency
  readonly weekday?: number | null | undefined
  readonly time: string
  readonly timeZone?: string | undefined
  readonly destination:
    | { readonly kind: "usdc"; readonly chain: string; readonly address: string }
    | ({ readonly kind: "bank" } & BankAccountInput)
  readonly minimumUsd?: BigDecimal.BigDecimal | undefined
  readonly keepReserve?: boolean | undefined
}

export interface Issue {
  readonly path: string
  readonly message: string
}

const timePattern = /^([01]\d|2[0-3]):([0-5]\d)$/

/** The destination as stored: a bank account normalized as withdrawals store it. */
export const destinationOf = (input: ScheduleInput["destination"]): SettlementDestination =>
  input.kind === "bank"
    ? { kind: "bank", ...normalizeDestination(input) }
    : { kind: "usdc", chain: input.chain, address: input.address }

/** Problems of an input, each with the path of the field, empty when it is valid. */
export const validate = (input: ScheduleInput): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  if (input.frequency === "weekly") {
    if (input.weekday == null || !Number.isInteger(input.weekday) || input.weekday < 1 || input.weekday > 7) {
      issues.push({ path: "weekday", message: "A weekly close needs weekday, 1 (Monday) to 7 (Sunday)" })
    }
  } else if (input.weekday != null) {
    issues.push({ path: "weekday", message: "A daily close takes no weekday" })
  }
  if (!timePattern.test(input.time)) issues.push({ path: "time", message: "Expected HH:MM, 00:00 to 23:59" })
  if (input.timeZone !== undefined && Option.isNone(DateTime.zoneMakeNamed(input.timeZone))) {
    issues.push({ path: "timeZone", message: `Unknown IANA time zone '${input.timeZone}'` })
  }
  const destination = input.destination
  if (destination.kind === "bank") issues.push(...destinationIssues(destination))
  else {
    if (!/^[A-Z0-9_-]{2,20}$/.test(destination.chain)) {
      issues.push({ path: "destination.chain", message: "Expected a chain name such as ETH, SOL or POLY" })
    }
    if (!/^[A-Za-z0-9:_-]{8,128}$/.test(destination.address)) {
      issues.push({ path: "destination.address", message: "Expected a blockchain address, 8 to 128 letters or digits" })
    }
  }
  if (input.minimumUsd !== undefined && (BigDecimal.isNegative(input.minimumUsd) || !Money.fitsExponent(input.minimumUsd, "USD"))) {
    issues.push({ path: "minimumUsd", message: "Expected a USD amount of 0 or more, with at most 2 decimals" })
  }
  return issues
}

type Timing = Pick<SettlementSchedule, "frequency" | "weekday" | "time" | "timeZone">

/** The close strictly after `after`, as a UTC instant; null for a `manual` schedule. */
export const nextCloseOf = (schedule: Timing, after: DateTime.Utc): DateTime.Utc | null =>
  schedule.frequency === "manual" ? null : nextClose(schedule, after)

/** The close strictly after `after` of a daily or weekly schedule, as a UTC instant. */
export const nextClose = (schedule: Pick<SettlementSchedule, "frequency" | "weekday" | "time" | "timeZone">, after: DateTime.Utc): DateTime.Utc => {
  const [hours, minutes] = schedule.time.split(":").map(Number) as [number, number]
  const zone = DateTime.zoneMakeNamedUnsafe(schedule.timeZone)
  const local = DateTime.toParts(DateTime.setZone(after, zone))
  // Walk the local calendar day by day (at most 8 steps) and place the wall-clock time on each.
  for (let day = 0; day <= 8; day++) {
    const date = new Date(Date.UTC(local.year, local.month - 1, local.day + day))
    const candidate = DateTime.makeZonedUnsafe(
      { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: hours, minute: minutes, second: 0, millisecond: 0 },
      { timeZone: zone, adjustForTimeZone: true, disambiguation: "compatible" }
    )
    const isoWeekday = ((date.getUTCDay() + 6) % 7) + 1
    if (schedule.frequency === "weekly" && isoWeekday !== schedule.weekday) continue
    const utc = DateTime.toUtc(candidate)
    if (DateTime.isGreaterThan(utc, after)) return utc
  }
  throw new Error(`no close within 8 days of ${DateTime.formatIso(after)}`)
}

/** Every close in `(from, to]`, oldest first, at most `limit`. */
export const closesBetween = (
  schedule: Pick<SettlementSchedule, "frequency" | "weekday" | "time" | "timeZone">,
  from: DateTime.Utc,
  to: DateTime.Utc,
  limit = 500
): ReadonlyArray<DateTime.Utc> => {
  const closes: Array<DateTime.Utc> = []
  if (schedule.frequency === "manual") return closes
  for (let at = nextClose(schedule, from); !DateTime.isGreaterThan(at, to) && closes.length < limit; at = nextClose(schedule, at)) {
    closes.push(at)
  }
  return closes
}
