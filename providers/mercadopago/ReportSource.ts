/**
 * Mercado Pago's release report fetched through its reports API, with the connector's
 * access token (`Authorization: Bearer`), for the scheduled reconciliation runs:
 *
 * 1. `POST /v1/account/release_report` `{ begin_date, end_date }` (UTC, `...Z`) asks for the
 *    period's report (documented answer `202` with the report's `id`, `currency_id`...). The
 *    period is `[start, end)`; `end_date` is sent as `end` minus one second, as the documented
 *    sample's `end_date` (`...T02:59:59Z`) is inclusive.
 * 2. The report is generated asynchronously: `GET /v1/account/release_report/list` is polled (after
 *    0.5 s, 1 s, 2 s..., at most every `pollInterval`) until the report with that `id` has a
 *    `file_name`.
 * 3. `GET /v1/account/release_report/{file_name}` downloads the CSV.
 *
 * All of it within `maxWait` (each call within `timeoutMs`); otherwise, and on any refusal, the
 * answer is `ReportUnavailable` (never a defect). A `currency_id` other than the account currency
 * configured is refused too: the format reads amounts in that currency.
 *
 * References: https://www.mercadopago.com.br/developers/en/reference/releases-report/create-report/post ,
 * https://www.mercadopago.com.br/developers/en/reference/releases-report/consult-report/get ,
 * https://www.mercadopago.com.br/developers/en/docs/checkout-api/additional-content/reports/released-money/api
 */
import { DateTime, Duration, Effect, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { Money } from "../../core/ports/index.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { type ReportPeriod, type ReportSource, ReportUnavailable } from "../../core/ports/ProviderReports.ts"
import type { ConnectorSettings } from "../kit/Connector.ts"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"
import { mercadopagoReleaseReport } from "./Report.ts"

/** The setting naming the account's currency (the release report names none). */
export const accountCurrencySetting = "ACCOUNT_CURRENCY"
export const defaultAccountCurrency = "BRL"

/**
 * How long after a period ends its release report is complete. Not documented as a number: the
 * report's details cover "at least 1 day" and releases are booked as they happen, so a day.
 */
export const releaseReportDelay = Duration.days(1)
export const defaultPollInterval = Duration.seconds(15)
export const defaultMaxWait = Duration.minutes(10)

export interface ReportSourceOptions {
  readonly id: string
  readonly baseUrl: string
  readonly accessToken: Redacted.Redacted<string>
  readonly accountCurrency: Money.Currency
  /** Budget of one call. Default 10 s. */
  readonly timeoutMs?: number | undefined
  readonly pollInterval?: Duration.Input | undefined
  /** Budget of the whole fetch: create, poll, download. */
  readonly maxWait?: Duration.Input | undefined
}

const Id = Schema.Union([Schema.Number, Schema.String])
const Created = Schema.Struct({ id: Id, currency_id: Schema.optionalKey(Schema.NullOr(Schema.String)) })
const Listed = Schema.Array(Schema.Struct({
  id: Id,
  status: Schema.optionalKey(Schema.NullOr(Schema.String)),
  file_name: Schema.optionalKey(Schema.NullOr(Schema.String))
}))

/** `2026-03-01T00:00:00Z`: whole seconds, UTC, as the documentation writes them. */
const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")

const readError = UpstreamHttp.jsonWords("error", "message")

export const make = (options: ReportSourceOptions): Effect.Effect<ReportSource, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const timeout = Duration.millis(options.timeoutMs ?? 10_000)
    const pollInterval = Duration.fromInputUnsafe(options.pollInterval ?? defaultPollInterval)
    const maxWait = Duration.fromInputUnsafe(options.maxWait ?? defaultMaxWait)
    const format = mercadopagoReleaseReport(options.accountCurrency)
    const upstream = yield* UpstreamHttp.make({ providerId: options.id, secrets: [options.accessToken], timeout, readError })
    const unavailable = (reason: string) => new ReportUnavailable({ provider: options.id, reason })
    const fromProvider = (e: ProviderError) => unavailable(`${e.code}: ${e.message}`)
    const authorized = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(HttpClientRequest.bearerToken(options.accessToken))
    const call = <A>(operation: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, unknown>) =>
      upstream.call(operation, authorized(request).pipe(HttpClientRequest.acceptJson), schema).pipe(Effect.mapError(fromProvider))

    /** The file's text. */
    const download = (fileName: string) =>
      Effect.gen(function*() {
        const request = authorized(HttpClientRequest.get(`${baseUrl}/v1/account/release_report/${encodeURIComponent(fileName)}`))
        const response = yield* http.execute(request).pipe(Effect.mapError((e) => unavailable(`network_error: ${e.reason._tag}`)))
        const text = yield* response.text.pipe(Effect.mapError((e) => unavailable(`network_error: ${e.reason._tag}`)))
        if (response.status < 200 || response.status >= 300) {
          return yield* Effect.fail(unavailable(`download answered ${response.status}: ${upstream.clip(readError(text).message ?? "")}`))
        }
        return unwrapJsonText(response.headers["content-type"], text)
      }).pipe(Effect.timeoutOrElse({ duration: timeout, orElse: () => Effect.fail(unavailable("timeout: the download did not answer")) }))

    /** Waits 0.5 s, 1 s, 2 s... between polls, never longer than `pollInterval`. */
    const fileOf = (id: string, attempt = 0): Effect.Effect<string, ReportUnavailable> =>
      Effect.gen(function*() {
        const list = yield* call("report.list", HttpClientRequest.get(`${baseUrl}/v1/account/release_report/list`), Listed)
        const found = list.find((r) => String(r.id) === id)
        if (found?.file_name !== undefined && found.file_name !== null && found.file_name !== "") return found.file_name
        yield* Effect.sleep(Duration.min(pollInterval, Duration.millis(500 * 2 ** Math.min(attempt, 10))))
        return yield* fileOf(id, attempt + 1)
      })

    const fetch = (period: ReportPeriod) =>
      Effect.gen(function*() {
        const start = DateTime.toEpochMillis(period.start)
        const end = DateTime.toEpochMillis(period.end)
        if (end - 1000 < start) return yield* Effect.fail(unavailable("the period is shorter than a second"))
        const body = JSON.stringify({ begin_date: utc(start), end_date: utc(end - 1000) })
        const created = yield* call(
          "report.create",
          HttpClientRequest.post(`${baseUrl}/v1/account/release_report`).pipe(HttpClientRequest.bodyText(body, "application/json")),
          Created
        )
        const currency = created.currency_id
        if (currency !== undefined && currency !== null && currency.toUpperCase() !== options.accountCurrency) {
          return yield* Effect.fail(unavailable(`currency_mismatch: the account's reports are in ${currency}, ${accountCurrencySetting} says ${options.accountCurrency}`))
        }
        const fileName = yield* fileOf(String(created.id))
        return yield* download(fileName)
      }).pipe(
        Effect.timeoutOrElse({
          duration: maxWait,
          orElse: () => Effect.fail(unavailable(`not_ready: the report was not there within ${Duration.format(maxWait)}`))
        })
      )

    return { format, delay: releaseReportDelay, fetch } satisfies ReportSource
  })

/**
 * The file's text. A CSV travels as itself (`text/csv`); a body that is one JSON string (how the
 * simulator kit's JSON-only server carries it) is that string. A CSV is never a lone JSON string:
 * a quoted header is followed by a separator or a line end.
 */
export const unwrapJsonText = (contentType: string | undefined, text: string): string => {
  if (!(contentType ?? "").includes("json") || !text.trimStart().startsWith("\"")) return text
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "string" ? value : text
  } catch {
    return text
  }
}

/** The account currency a connector instance is configured with (`ACCOUNT_CURRENCY`, default BRL). */
export const accountCurrencyOf = (settings: ConnectorSettings): Money.Currency => {
  const given = settings.values[accountCurrencySetting]
  const currency = Money.normalizeCurrency(given ?? defaultAccountCurrency)
  if (currency._tag === "None") throw new Error(`${accountCurrencySetting} is not an ISO 4217 currency: ${given}`)
  return currency.value
}

export const ReportSourceMercadoPago = { make, accountCurrencyOf, unwrapJsonText, releaseReportDelay }
