/**
 * Settlement batches as the API shows them: the merchant's batches and their
 * statements (`/me/settlements`), the operator's schedule of a shop
 * (`/admin/v1/shops/{shopId}/settlement-schedule`), and the notifications of the settlement
 * payout providers (`/providers/{providerId}/settlement-callbacks`).
 *
 * The JSON shapes are `settlementView` and `scheduleView` (core/settlements/SettlementView.ts):
 * the schemas here describe exactly what those write.
 */
import { BigDecimal, Schema, SchemaTransformation } from "effect"
import * as Money from "../../../core/Money.ts"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Environment, IsoDateTime } from "./Fields.ts"
import { PageQuery, Pagination } from "./PaymentsApi.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, secretKey, signed, withErrors } from "./EndpointErrors.ts"

const Usd = Schema.Finite.annotate({ description: "USD, major units, rounded to the cent" })
/** A figure of the batch's totals: null while the batch is open (its lines are bound at the close). */
const Total = (description: string) => Schema.NullOr(Usd).annotate({ description: `${description}; null while open` })

export const SettlementStatus = Schema.Literals(["open", "paying", "paid", "failed"]).annotate({
  description: "`open`: the current period, collecting what becomes available until the next close. " +
    "`paying`: closed and swept out of `available` (`settlement.closed`), the payout sent. " +
    "`paid`: the provider confirmed the transfer (`payout.transactionHash`). " +
    "`failed`: the provider refused or lost the transfer (`payout.failureReason`): `net` went back to `available` " +
    "(balance movement `settlement.failed`) and the next batch pays it again. Final: `paid`, `failed`."
})

export const SettlementDestinationView = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("usdc"),
    chain: Schema.String.annotate({ description: "The blockchain, in Circle's names (`ETH`, `SOL`, `POLY`...); `SANDBOX` is the sandbox's own chain" }),
    address: Schema.String.annotate({ description: "The receiving address on that chain" })
  }),
  Schema.Struct({
    kind: Schema.Literal("bank"),
    accountHolder: Schema.String,
    bankName: Schema.String,
    accountNumber: Schema.String.annotate({ description: "Masked: the last 4 characters" }),
    swiftCode: Schema.NullOr(Schema.String)
  })
]).annotate({
  identifier: "SettlementDestination",
  description: "Where the batch's net is paid: a USDC address on a chain, or a bank account (through a withdrawal, `payout.reference` its `wdr_...` id)"
})

export const SettlementView = Schema.Struct({
  id: Schema.String.annotate({ description: "`STL-...`" }),
  status: SettlementStatus,
  currency: Schema.Literal("USD"),
  period: Schema.Struct({
    start: IsoDateTime.annotate({ description: "The previous close (or when the schedule began)" }),
    end: IsoDateTime.annotate({ description: "When it closed; while open, the next scheduled close" })
  }).annotate({ description: "The movements posted in `[start, end)` are this batch's lines" }),
  closedAt: Schema.NullOr(IsoDateTime),
  gross: Total("What the period's payments added"),
  fees: Schema.NullOr(Schema.Struct({
    platform: Usd,
    provider: Usd,
    chargeback: Usd.annotate({ description: "The tier's chargeback fees" })
  })).annotate({ description: "The fees taken in the period; null while open" }),
  refunds: Total("What refunds took (negative when a rejected refund returned money)"),
  chargebacks: Total("What chargebacks took (net of those won)"),
  owedRecovered: Total("What the shop owed (refunds and chargebacks its balance could not cover) and this batch repaid"),
  reserve: Schema.NullOr(Schema.Struct({
    held: Usd.annotate({ description: "Rolling reserve withheld from the period's payments" }),
    released: Usd.annotate({ description: "Reserve of earlier payments released in the period" })
  })).annotate({ description: "null while open" }),
  other: Total("Everything else that moved `available`: balance swaps, a failed batch's money returned, sandbox funding, withdrawals and transfers"),
  net: Total(
    "What the batch pays out: gross - fees - refunds - chargebacks - owedRecovered - reserve.held + reserve.released + other, to the cent; " +
      "the statement's lines sum to it"
  ),
  lineCount: Schema.Int.annotate({ description: "Lines of the statement (0 while open)" }),
  destination: SettlementDestinationView,
  payout: Schema.Struct({
    provider: Schema.NullOr(Schema.String).annotate({ description: "Who pays it: a settlement payout provider (`circle`) or `sandbox`" }),
    reference: Schema.NullOr(Schema.String).annotate({ description: "The provider's transfer id, once it answered" }),
    transactionHash: Schema.NullOr(Schema.String).annotate({ description: "The transaction on chain, once there is one" }),
    failureReason: Schema.NullOr(Schema.String).annotate({ description: "Why the payout failed (status `failed`)" }),
    paidAt: Schema.NullOr(IsoDateTime)
  }),
  statement: Schema.NullOr(Schema.Struct({
    pdf: Schema.String.annotate({ description: "Path of the PDF receipt, relative to the API's base URL" }),
    csv: Schema.String.annotate({ description: "Path of the CSV, relative to the API's base URL" }),
    readyAt: Schema.NullOr(IsoDateTime).annotate({ description: "When `settlement.pdf_ready` was sent; the statement can be fetched from the close on" })
  })).annotate({ description: "null while open (`409 settlement_open`)" }),
  environment: Environment,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime
}).annotate({
  identifier: "Settlement",
  description: "A settlement batch: what became available in USD during one period of the shop's schedule, swept at its close and paid out in one USDC transfer"
})

export const SettlementLineView = Schema.Struct({
  at: IsoDateTime,
  kind: Schema.String.annotate({ description: "payment, refund, chargeback, chargeback_won, fee, reserve_held, reserve_released, owed_recovered, withdrawal, transfer, settlement_returned, adjustment" }),
  transactionId: Schema.NullOr(Schema.String),
  reference: Schema.String,
  merchantOrderId: Schema.NullOr(Schema.String),
  method: Schema.NullOr(Schema.String),
  amountLocal: Schema.NullOr(Schema.Finite),
  currencyLocal: Schema.NullOr(Schema.String),
  grossUsd: Usd.annotate({ description: "The payment's amount in USD before anything came off it (payment lines; 0 on others)" }),
  feesUsd: Usd.annotate({ description: "Fees this line took: the payment's platform, provider and network fees, or a chargeback's fee" }),
  reserveUsd: Usd.annotate({ description: "Reserve, signed: negative what the payment held back, positive what a release gave back" }),
  owedRecoveredUsd: Usd.annotate({ description: "What the line repaid of what the shop owed (an earlier negative balance) before the rest reached available" }),
  refundsUsd: Usd.annotate({ description: "On a payment line, what its refunds and chargeback took from it before it settled; on a refund line, the refund (negative when a rejected refund returned money)" }),
  chargebacksUsd: Usd.annotate({ description: "What a chargeback took, its fee apart (negative when a won chargeback gave it back)" }),
  otherUsd: Usd.annotate({ description: "Withdrawals, transfers, swaps, a failed payout returned, adjustments (signed)" }),
  amountUsd: Usd.annotate({
    description: "Net, signed: what the line added to (positive) or took from (negative) the batch's available balance. " +
      "grossUsd - feesUsd + reserveUsd - owedRecoveredUsd - refundsUsd - chargebacksUsd + otherUsd = amountUsd, exactly before each figure is rounded to cents; " +
      "each column summed over the batch's lines is the settlement's summary figure of that name (feesUsd: platform + provider + chargeback; reserveUsd: reserveReleased - reserveHeld)"
  })
}).annotate({
  identifier: "SettlementLine",
  description: "One movement of the batch: a journal entry, split from gross to net"
})

export const SettlementPdfReady = Schema.Struct({
  settlementId: Schema.String,
  pdfUrl: Schema.String.annotate({ description: "Path of the PDF receipt, relative to the API's base URL (GET with the secret key)" }),
  csvUrl: Schema.String.annotate({ description: "Path of the CSV with the same lines" }),
  lineCount: Schema.Int,
  net: Usd
}).annotate({ identifier: "SettlementPdfReady" })

/**
 * A constraint published in the document but checked by the endpoint itself, with the request's
 * other problems (`validate` in core/settlements/Schedule.ts), so one answer names them all.
 */
const documented = (jsonSchema: Record<string, unknown>) => Schema.makeFilter(() => true, { toJsonSchema: () => jsonSchema })

const ScheduleTime = Schema.String.check(documented({ pattern: "^([01]\\d|2[0-3]):([0-5]\\d)$" })).annotate({
  description: "`HH:MM`, 24 hours, 00:00 to 23:59, in `timeZone`",
  examples: ["18:00"]
})

export const SettlementScheduleInput = Schema.Struct({
  frequency: Schema.Literals(["daily", "weekly", "manual"]).annotate({
    description: "`daily` or `weekly` closes at `time`; `manual` never closes: the money stays `available` for withdrawals and payout transfers, as without a schedule"
  }),
  weekday: Schema.optional(Schema.Int.check(documented({ minimum: 1, maximum: 7 }))).annotate({
    description: "Weekly only (required there): ISO weekday, 1 Monday to 7 Sunday"
  }),
  time: ScheduleTime,
  timeZone: Schema.optional(Schema.String).annotate({ description: "IANA time zone of `time` (`America/Mexico_City`); default `UTC`", examples: ["America/Mexico_City"] }),
  destination: Schema.Union([
    Schema.Struct({
      kind: Schema.Literal("usdc"),
      chain: Schema.String.check(documented({ pattern: "^[A-Z0-9_-]{2,20}$" })).annotate({
        description: "A chain a settlement payout provider of the environment pays on (`ETH`, `SOL`, `POLY` with Circle); sandbox: `SANDBOX`. " +
          "Another: `422 settlement_destination_unavailable` with the chains available"
      }),
      address: Schema.String.check(documented({ pattern: "^[A-Za-z0-9:_-]{8,128}$" })).annotate({ description: "The receiving address, 8 to 128 letters, digits, `:`, `_` or `-`" })
    }),
    Schema.Struct({
      kind: Schema.Literal("bank"),
      accountHolder: Schema.String.annotate({ description: "2 to 140 characters" }),
      bankName: Schema.String.annotate({ description: "2 to 140 characters" }),
      accountNumber: Schema.String.annotate({ description: "IBAN or local account number, 4 to 34 letters or digits (spaces and dashes ignored)" }),
      swiftCode: Schema.optional(Schema.NullOr(Schema.String)).annotate({ description: "BIC of 8 or 11 characters" })
    })
  ]).annotate({
    description: "A USDC address on a chain, or a bank account: a batch paid to a bank becomes a withdrawal without fee (`GET /me/withdrawals`), " +
      "confirmed as withdrawals are (the operator; sandbox: its simulate endpoint); the batch is `paid` or `failed` with it"
  }),
  minimumUsd: Schema.optional(
    Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1e12)).pipe(
      Schema.decodeTo(
        Schema.BigDecimal,
        SchemaTransformation.transform({
          decode: (n: number) => BigDecimal.normalize(BigDecimal.fromNumberUnsafe(n)),
          encode: Money.toJsonNumber
        })
      )
    )
  ).annotate({ description: "A close whose net is below it stays open and rolls over to the next close; at most 2 decimals; default 0" }),
  keepReserve: Schema.optional(Schema.Boolean).annotate({
    description: "`true` (the default): each payment's rolling reserve stays held until its release date, then a later batch pays it. " +
      "`false`: each close first releases every reserve the shop holds, so the batch pays it now (the release on its date then finds nothing left)"
  })
}).annotate({ identifier: "SettlementScheduleInput" })

export const SettlementScheduleView = Schema.Struct({
  shopId: Schema.String,
  environment: Environment,
  frequency: Schema.Literals(["daily", "weekly", "manual"]),
  weekday: Schema.NullOr(Schema.Int),
  time: Schema.String,
  timeZone: Schema.String,
  destination: SettlementDestinationView,
  minimumUsd: Usd,
  keepReserve: Schema.Boolean,
  nextCloseAt: Schema.NullOr(IsoDateTime).annotate({ description: "The next close, in UTC; null for `manual`" }),
  destinationApproval: Schema.NullOr(Schema.Struct({
    provider: Schema.String.annotate({ description: "The settlement payout provider that pays the destination (`circle`)" }),
    status: Schema.Literals(["approved", "pending", "denied", "unknown"]).annotate({
      description: "`approved`: paid at the next close. `pending`: entered in the provider's address book, waiting for its administrator (Circle Mint console); " +
        "a close keeps the batch open, nothing is sent. `denied`: the provider will not pay it (enter another destination). " +
        "`unknown`: the provider could not be asked now (`detail`); the next close asks again"
    }),
    reference: Schema.NullOr(Schema.String).annotate({ description: "The provider's id of the entry (Circle's address book id)" }),
    detail: Schema.String.annotate({ description: "The provider's own word for the state (Circle: `active`, `pending_verification`...)" })
  })).annotate({
    description: "Where the payer pays only to destinations its administrator approved (Circle Mint's address book), their state now, asked of the provider " +
      "on every read (the entry is made if missing); null where any destination is paid (bank, the sandbox chain)"
  }),
  updatedAt: IsoDateTime
}).annotate({ identifier: "SettlementSchedule" })

const Id = { id: Schema.String }

/** `Content-Disposition: attachment; filename="<id>.<ext>"`: a browser saves the file under the batch's id. */
const Attachment = (ext: "pdf" | "csv") => ({
  "content-disposition": Schema.String.annotate({ description: `\`attachment; filename="<id>.${ext}"\``, examples: [`attachment; filename="STL-01M8C3R5N2P3Q4R5S6T7U8V9W0.${ext}"`] })
})

export const SettlementPdf = HttpApiSchema.WithHeaders(
  Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
  Attachment("pdf")
)

export const SettlementCsv = HttpApiSchema.WithHeaders(
  Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv; charset=utf-8" })),
  Attachment("csv")
)

export class SettlementsApi extends HttpApiGroup.make("settlements")
  .add(
    HttpApiEndpoint.get("list", "/me/settlements", {
      query: PageQuery,
      success: Schema.Struct({ data: Schema.Array(SettlementView), pagination: Pagination })
    }).annotate(
      OpenApi.Description,
      "The shop's settlement batches, newest first: the open batch (the current period) first, then the closed ones by close. limit 1 to 100 (default 50), clamped. " +
        "A shop without a schedule has none."
    ),
    HttpApiEndpoint.get("get", "/me/settlements/:id", { params: Id, success: SettlementView }).annotate(
      OpenApi.Description,
      "One batch with its totals, destination and payout. An id of another shop answers 404 like an unknown one."
    ),
    HttpApiEndpoint.get("statementPdf", "/me/settlements/:id/statement.pdf", { params: Id, success: SettlementPdf }).annotate(
      OpenApi.Description,
      "The batch's receipt as a PDF to file: merchant and shop, period, destination and payout reference, the summary, then every line " +
        "(payment, refund, chargeback, fee, reserve...) with its transaction id and reference, merchant order id, method, local amount, and its USD " +
        "from gross to net (Gross, Fees, Reserve, Owed repaid, Refunds, Chargebacks, Other, Net USD, each signed as it moved the net, blank when 0, so a row adds up across); " +
        "the lines' Net sums to `net`. Its text is selectable; a long batch runs over as many pages as it needs. Available from the close on " +
        "(`settlement.pdf_ready` says when it is checked); an open batch answers `409 settlement_open` with `closesAt`."
    ),
    HttpApiEndpoint.get("statementCsv", "/me/settlements/:id/statement.csv", { params: Id, success: SettlementCsv }).annotate(
      OpenApi.Description,
      "The same lines as the PDF as CSV (RFC 4180, UTF-8, CRLF), one row per line after a header row: `batch_id`, `at_utc` (ISO 8601), `kind`, " +
        "`transaction_id`, `reference`, `merchant_order_id`, `method`, `amount_local`, `currency_local`, then in USD (`.` decimals, no thousands " +
        "separator) `gross_usd`, `fees_usd`, `reserve_usd` (negative held, positive released), `owed_recovered_usd`, `refunds_usd` (on a payment line, " +
        "its refunds and chargeback taken before it settled), `chargebacks_usd`, `other_usd` and `net_usd` (signed: what reached `available`), then `installments` (a card payment's instalment count, blank on other lines; added last so earlier columns keep their positions), with " +
        "`gross_usd - fees_usd + reserve_usd - owed_recovered_usd - refunds_usd - chargebacks_usd + other_usd = net_usd` on every row and each column " +
        "summed equal to the batch's figure of that name (see SettlementLine). It starts with a UTF-8 byte order mark, so that Excel reads accents right. Text cells that a spreadsheet would run as a formula are prefixed with `'`. An open batch answers `409 settlement_open`."
    ),
    HttpApiEndpoint.get("lines", "/me/settlements/:id/lines", {
      params: Id,
      query: PageQuery,
      success: Schema.Struct({ settlementId: Schema.String, data: Schema.Array(SettlementLineView), pagination: Pagination })
    }).annotate(
      OpenApi.Description,
      "The statement's lines as JSON, oldest first, paged (limit 1 to 100, default 50, clamped): the same lines as the PDF and the CSV, which sum to the batch's `net`. " +
        "An open batch answers `409 settlement_open`; an id of another shop 404."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Settlements")
  .annotate(
    OpenApi.Description,
    "A shop with a settlement schedule is paid in batches: at each close (daily or weekly, at a time of the shop's time zone) what is `available` " +
      "in USD is swept into the batch and paid to the shop's USDC address in one transfer. Sandbox shops start with a daily close at 00:00 UTC, " +
      "paid on the sandbox chain at once."
  )
  .pipe(withErrors({
    list: secretKey,
    get: secretKey,
    statementPdf: [...secretKey, "settlement_open"],
    statementCsv: [...secretKey, "settlement_open"],
    lines: [...secretKey, "settlement_open"]
  }))
{}

export class SettlementCallbacksApi extends HttpApiGroup.make("settlementCallbacks")
  .add(
    HttpApiEndpoint.post("notify", "/providers/:providerId/settlement-callbacks", {
      params: { providerId: Schema.String },
      payload: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain" })).annotate({
        description: "The provider's notification as sent, whatever its Content-Type (Circle: an AWS SNS message with `Content-Type: text/plain; charset=UTF-8`)"
      }),
      success: Schema.Struct({
        received: Schema.Boolean,
        settlements: Schema.Int.annotate({ description: "How many batches the notification named" })
      })
    }).annotate(
      OpenApi.Description,
      "Inbound notifications of settlement payout providers, verified as each provider documents it (Circle: the SNS signature, and the " +
        "subscription confirmation). The body is read as sent, of any Content-Type. A transfer's outcome moves its batch: `paid` with the " +
        "transaction hash, or `failed` (net back to `available`). An unknown provider answers 404; a notification that fails verification 401 and changes nothing."
    ),
    HttpApiEndpoint.head("check", "/providers/:providerId/settlement-callbacks", {
      params: { providerId: Schema.String },
      success: HttpApiSchema.Empty(200)
    }).annotate(OpenApi.Description, "Answers 200 for a configured provider (Circle checks a subscription's endpoint with HEAD), 404 otherwise.")
  )
  .annotate(OpenApi.Title, "Settlement callbacks")
  .pipe(withErrors({
    notify: signed,
    check: ["not_found"]
  }))
{}

export class SettlementAdminApi extends HttpApiGroup.make("settlementAdmin")
  .add(
    HttpApiEndpoint.get("getSchedule", "/shops/:shopId/settlement-schedule", {
      params: { shopId: Schema.String },
      query: { environment: Environment },
      success: SettlementScheduleView
    }).annotate(OpenApi.Description, "The shop's settlement schedule in the environment and its next close; 404 when the shop has none (its money stays available)."),
    HttpApiEndpoint.put("putSchedule", "/shops/:shopId/settlement-schedule", {
      params: { shopId: Schema.String },
      query: { environment: Environment },
      payload: SettlementScheduleInput,
      success: SettlementScheduleView
    }).annotate(
      OpenApi.Description,
      "Sets the shop's settlement schedule in the environment. The open batch (created if there is none) now closes at the new schedule's next close " +
        "and pays to the new destination. Every problem of the body is answered at once (`400 invalid_request`, `details.issues[].path`); a chain no " +
        "settlement payout provider of the environment pays on is `422 settlement_destination_unavailable`. Where the provider pays only to approved " +
        "destinations (Circle Mint's address book), the destination is entered with it now and `destinationApproval` shows its state (`pending` until " +
        "the provider's administrator approves it: closes keep the batch open meanwhile); one the provider refuses outright is " +
        "`422 settlement_destination_refused` and nothing is saved."
    )
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: settlements")
  .pipe(withErrors({
    getSchedule: admin,
    putSchedule: [...admin, "settlement_destination_unavailable", "settlement_destination_refused"]
  }))
{}
