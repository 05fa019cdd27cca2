/**
 * The range filters of `GET /payments` read from query text: a bad value is a 400 naming its
 * parameter, never a silent empty list. Amounts are exact decimals (no float), dates UTC.
 */
import { BigDecimal, DateTime, Effect, Option } from "effect"
import { invalidRequest } from "../../../../core/ApiError.ts"

const dateOnly = /^\d{4}-\d{2}-\d{2}$/
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/
const decimalText = /^\d{1,12}(\.\d{1,8})?$/

const instantOf = (name: string, text: string) => {
  const trimmed = text.trim()
  const parsed = dateOnly.test(trimmed) || dateTime.test(trimmed) ? DateTime.make(dateOnly.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed) : Option.none()
  return Option.isSome(parsed)
    ? Effect.succeed({ at: DateTime.toUtc(parsed.value), wholeDay: dateOnly.test(trimmed) })
    : Effect.fail(invalidRequest(`${name} is not a date`, [{ path: name, message: "Expected an ISO 8601 date-time (2026-11-26T15:00:00Z) or a date (2026-11-26)" }]))
}

const amountOf = (name: string, text: string) => {
  const trimmed = text.trim()
  return decimalText.test(trimmed)
    ? Effect.succeed(BigDecimal.fromStringUnsafe(trimmed))
    : Effect.fail(invalidRequest(`${name} is not an amount`, [{ path: name, message: "Expected a USD amount of at least 0, like 25 or 99.90" }]))
}

export interface RangeQuery {
  readonly createdFrom?: string | undefined
  readonly createdTo?: string | undefined
  readonly amountMin?: string | undefined
  readonly amountMax?: string | undefined
}

/** The store's range filter of the query: `createdTo` inclusive (a date: its whole UTC day). */
export const rangeFilter = (query: RangeQuery) =>
  Effect.gen(function*() {
    const from = query.createdFrom === undefined ? undefined : yield* instantOf("createdFrom", query.createdFrom)
    const to = query.createdTo === undefined ? undefined : yield* instantOf("createdTo", query.createdTo)
    const createdBefore = to === undefined ? undefined : DateTime.add(to.at, to.wholeDay ? { days: 1 } : { milliseconds: 1 })
    if (from !== undefined && createdBefore !== undefined && DateTime.toEpochMillis(from.at) >= DateTime.toEpochMillis(createdBefore)) {
      return yield* invalidRequest("createdFrom is after createdTo", [{ path: "createdFrom", message: "Expected a date at or before createdTo" }])
    }
    const amountMin = query.amountMin === undefined ? undefined : yield* amountOf("amountMin", query.amountMin)
    const amountMax = query.amountMax === undefined ? undefined : yield* amountOf("amountMax", query.amountMax)
    if (amountMin !== undefined && amountMax !== undefined && BigDecimal.isGreaterThan(amountMin, amountMax)) {
      return yield* invalidRequest("amountMin is above amountMax", [{ path: "amountMin", message: "Expected an amount at most amountMax" }])
    }
    return { createdFrom: from?.at, createdBefore, amountMin, amountMax }
  })
