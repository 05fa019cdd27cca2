/**
 * Pagar.me's payables of a period, fetched with the connector's secret key (HTTP Basic
 * `<secret key>:`), for the scheduled reconciliation runs:
 * `GET /core/v5/payables?created_since=<start>&created_until=<end>&size=<pageSize>`, page after
 * page, answered as ONE payables document `{ "data": [...every page's items...], "paging": {} }`
 * that `Report.ts` parses.
 *
 * Paging: the reference documents `paging.next` (a URL with `page` and `size`,
 * https://docs.pagar.me/reference/paginação-1); Pagar.me announced cursor-only paging for payables
 * (https://docs.pagar.me/docs/financeiro) and the official SDK 7 reads `paging.forward_cursor`.
 * Both are followed: `next`'s query on this base URL (never another host), else the same query
 * with `cursor=<forward_cursor>` (the name v4 documents for its cursor; v5's is not public).
 * Items seen twice (an id on two pages) are kept once. At most `maxPages` pages.
 *
 * A period is `[start, end)`: `created_until` is `end` minus one millisecond. Any refusal, an
 * unreadable page or the budget `maxWait` running out is `ReportUnavailable`, never a defect.
 */
import { DateTime, Duration, Effect, Redacted, Schema } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { type ReportPeriod, type ReportSource, ReportUnavailable } from "../../core/ports/ProviderReports.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { pagarmePayablesReport } from "./Report.ts"

/**
 * A payable exists from the moment its charge is paid (or refunded): a day is left for the
 * account's books to settle. Not a documented number.
 */
export const payablesDelay = Duration.days(1)
export const defaultPageSize = 100
export const defaultMaxPages = 1_000

export interface ReportSourceOptions {
  readonly id: string
  readonly baseUrl: string
  readonly secretKey: Redacted.Redacted<string>
  readonly timeoutMs?: number | undefined
  readonly pageSize?: number | undefined
  readonly maxPages?: number | undefined
  /** Budget of the whole fetch. Default 5 minutes. */
  readonly maxWait?: Duration.Input | undefined
}

const Page = Schema.Struct({
  data: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Unknown))),
  paging: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    next: Schema.optionalKey(Schema.NullOr(Schema.String)),
    forward_cursor: Schema.optionalKey(Schema.NullOr(Schema.String))
  })))
})

const idOf = (item: unknown): string | undefined => {
  const id = typeof item === "object" && item !== null ? (item as Record<string, unknown>)["id"] : undefined
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined
}

export const make = (options: ReportSourceOptions): Effect.Effect<ReportSource, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const pageSize = options.pageSize ?? defaultPageSize
    const maxPages = options.maxPages ?? defaultMaxPages
    const maxWait = Duration.fromInputUnsafe(options.maxWait ?? Duration.minutes(5))
    const upstream = yield* UpstreamHttp.make({
      providerId: options.id,
      secrets: [options.secretKey],
      timeout: Duration.millis(options.timeoutMs ?? 10_000),
      readError: UpstreamHttp.jsonWords("code", "message")
    })
    const unavailable = (reason: string) => new ReportUnavailable({ provider: options.id, reason })
    const fromProvider = (e: ProviderError) => unavailable(`${e.code}: ${e.message}`)
    const basic = `Basic ${Buffer.from(`${Redacted.value(options.secretKey)}:`).toString("base64")}`

    const page = (query: URLSearchParams) =>
      upstream.call(
        "payables.list",
        HttpClientRequest.get(`${baseUrl}/payables?${query.toString()}`).pipe(
          HttpClientRequest.setHeader("authorization", basic),
          HttpClientRequest.acceptJson
        ),
        Page
      ).pipe(Effect.mapError(fromProvider))

    const fetch = (period: ReportPeriod) =>
      Effect.gen(function*() {
        const first = new URLSearchParams({
          created_since: DateTime.formatIso(period.start),
          created_until: new Date(DateTime.toEpochMillis(period.end) - 1).toISOString(),
          size: String(pageSize)
        })
        const items: Array<unknown> = []
        const seen = new Set<string>()
        let query: URLSearchParams | undefined = first
        for (let n = 0; query !== undefined; n++) {
          if (n >= maxPages) return yield* Effect.fail(unavailable(`too_many_pages: more than ${maxPages} pages of ${pageSize}`))
          const answer: typeof Page.Type = yield* page(query)
          const data = answer.data ?? []
          for (const item of data) {
            const id = idOf(item)
            if (id !== undefined && seen.has(id)) continue
            if (id !== undefined) seen.add(id)
            items.push(item)
          }
          const next = answer.paging?.next
          const cursor = answer.paging?.forward_cursor
          if (data.length === 0) query = undefined
          else if (typeof next === "string" && next !== "") query = new URL(next, `${baseUrl}/payables`).searchParams
          else if (typeof cursor === "string" && cursor !== "") {
            query = new URLSearchParams(first)
            query.set("cursor", cursor)
          } else query = undefined
        }
        return JSON.stringify({ data: items, paging: { forward_cursor: null } })
      }).pipe(
        Effect.timeoutOrElse({
          duration: maxWait,
          orElse: () => Effect.fail(unavailable(`timeout: the payables were not read within ${Duration.format(maxWait)}`))
        })
      )

    return { format: pagarmePayablesReport, delay: payablesDelay, fetch } satisfies ReportSource
  })

export const PagarmeReportSource = { make, payablesDelay }
