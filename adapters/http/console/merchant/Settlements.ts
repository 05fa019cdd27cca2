/**
 * Settlements: the batches (`GET /me/settlements`), one batch with its totals and its statement's
 * lines (`GET /me/settlements/{id}` and `/lines`), and the statement downloads: the console's
 * `.../statement.pdf` and `.../statement.csv` pass the API's answer on unchanged (type, attachment
 * name and bytes), or its error envelope as a page.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, link, offsetPager, money, problem, status, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.settlements)

/** The batch id of `/console/settlements/<id>[/...]`. */
const batchId = (c: Console) => c.params["id"] ?? ""

const usd = (value: number | null | undefined, c: Console) => money(value, "USD", c.language)

const destinationText = (d: any) =>
  d?.kind === "usdc" ? `USDC · ${d.chain} · ${d.address}` : d?.kind === "bank" ? `${d.bankName} · ${d.accountHolder} · ${d.accountNumber}` : "—"

const pageSize = 50

/** A statement as the API answers it: the same status, headers and bytes; an error as a page. */
const download = (ext: "pdf" | "csv"): ConsoleRoute["handler"] => (c) =>
  Effect.gen(function*() {
    const id = batchId(c)
    const reply = yield* c.api({ method: "GET", path: `/api/v1/me/settlements/${encodeURIComponent(id)}/statement.${ext}` })
    if (reply.status === 200) return reply.response
    const t = words(c.language)
    return c.page(t.title, `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.batch)} ${escapeHtml(id)}</h1>${problem(reply)}<p>${link(`/console/settlements/${encodeURIComponent(id)}`, t.back)}</p>`, {
      section: "settlements",
      status: reply.status
    })
  })

export const settlementRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/settlements",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const reply = yield* c.api({ method: "GET", path: "/api/v1/me/settlements?limit=50" })
        if (reply.status !== 200) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${problem(reply)}`, { section: "settlements", status: reply.status })
        const rows: ReadonlyArray<any> = reply.body.data
        const list = table(
          t.title,
          [{ label: t.batch }, { label: t.status }, { label: t.period }, { label: t.gross, numeric: true }, { label: t.net, numeric: true }, { label: t.lines, numeric: true }, { label: t.downloads }],
          rows.map((b) => [
            link(`/console/settlements/${encodeURIComponent(b.id)}`, b.id),
            status(b.status),
            `${escapeHtml(formatDateTime(b.period.start, c.language))} – ${escapeHtml(formatDateTime(b.period.end, c.language))}`,
            usd(b.gross, c),
            usd(b.net, c),
            escapeHtml(String(b.lineCount)),
            b.statement === null ? "—" : `${link(`/console/settlements/${encodeURIComponent(b.id)}/statement.pdf`, "PDF")} · ${link(`/console/settlements/${encodeURIComponent(b.id)}/statement.csv`, "CSV")}`
          ]),
          t.none
        )
        return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${list}`, { section: "settlements" })
      })
  },
  {
    method: "GET",
    path: "/console/settlements/:id",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const id = batchId(c)
        const back = `<p>${link("/console/settlements", t.back)}</p>`
        const reply = yield* c.api({ method: "GET", path: `/api/v1/me/settlements/${encodeURIComponent(id)}` })
        if (reply.status !== 200) {
          return c.page(t.batch, `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.batch)} ${escapeHtml(id)}</h1>${problem(reply)}${back}`, { section: "settlements", status: reply.status })
        }
        const b = reply.body
        const summary = `<div class="grid" style="overflow-wrap:anywhere">${facts([
          [t.status, status(b.status)],
          [t.period, `${escapeHtml(formatDateTime(b.period.start, c.language))} – ${escapeHtml(formatDateTime(b.period.end, c.language))}`],
          [t.closed, escapeHtml(formatDateTime(b.closedAt, c.language))],
          [t.net, usd(b.net, c)]
        ])}${facts([
          [t.gross, usd(b.gross, c)],
          [t.platformFees, usd(b.fees?.platform, c)],
          [t.providerFees, usd(b.fees?.provider, c)],
          [t.chargebackFees, usd(b.fees?.chargeback, c)],
          [t.refunds, usd(b.refunds, c)],
          [t.chargebacks, usd(b.chargebacks, c)]
        ])}${facts([
          [t.owedRecovered, usd(b.owedRecovered, c)],
          [t.reserveHeld, usd(b.reserve?.held, c)],
          [t.reserveReleased, usd(b.reserve?.released, c)],
          [t.other, usd(b.other, c)]
        ])}${facts([
          [t.destination, escapeHtml(destinationText(b.destination))],
          [t.payoutRef, escapeHtml(b.payout.reference ?? "—")],
          [t.txHash, escapeHtml(b.payout.transactionHash ?? "—")],
          [t.paidAt, escapeHtml(formatDateTime(b.payout.paidAt, c.language))],
          ...(b.payout.failureReason ? [[t.failure, escapeHtml(b.payout.failureReason)] as const] : [])
        ])}</div>`
        if (b.status === "open") {
          return c.page(`${t.batch} ${b.id}`, `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.batch)} ${escapeHtml(b.id)}</h1>${summary}<p class="muted">${escapeHtml(t.openNote)}</p>${back}`, { section: "settlements" })
        }
        const offset = Math.max(0, Math.trunc(Number(c.query.get("offset") ?? 0)) || 0)
        const lines = yield* c.api({ method: "GET", path: `/api/v1/me/settlements/${encodeURIComponent(b.id)}/lines?limit=${pageSize}&offset=${offset}` })
        const base = `/console/settlements/${encodeURIComponent(b.id)}`
        const lineTable = lines.status !== 200 ? problem(lines) : table(
          `${t.lines} ${b.id}`,
          [{ label: t.at }, { label: t.kind }, { label: t.transaction }, { label: t.order }, { label: t.method }, { label: t.local, numeric: true },
            ...[t.gross, t.fees, t.reserve, t.owedRecovered, t.refunds, t.chargebacks, t.other, t.usd].map((label) => ({ label, numeric: true }))],
          (lines.body.data as ReadonlyArray<any>).map((l) => [
            escapeHtml(formatDateTime(l.at, c.language)),
            escapeHtml(l.kind),
            l.transactionId === null ? escapeHtml(l.reference) : link(`/console/payments/${encodeURIComponent(l.transactionId)}`, l.transactionId),
            escapeHtml(l.merchantOrderId ?? "—"),
            escapeHtml(l.method ?? "—"),
            l.currencyLocal === null ? "—" : money(l.amountLocal, l.currencyLocal, c.language),
            // From gross to net, each amount signed as it moved the net (what came off is negative).
            ...[l.grossUsd, -l.feesUsd, l.reserveUsd, -l.owedRecoveredUsd, -l.refundsUsd, -l.chargebacksUsd, l.otherUsd].map((v: number) => v === 0 ? "—" : usd(v, c)),
            usd(l.amountUsd, c)
          ]),
          t.noLines
        )
        const total: number = lines.body?.pagination?.total ?? 0
        const pager = offsetPager({ label: t.page, at: (o) => `${base}?offset=${o}`, offset, total, pageSize, back: t.previous, forward: t.next })
        const downloads = `<p><a class="button secondary" href="${base}/statement.pdf" download>${escapeHtml(t.pdf)}</a> <a class="button secondary" href="${base}/statement.csv" download>${escapeHtml(t.csv)}</a></p>`
        const body = `<h1 style="overflow-wrap:anywhere">${escapeHtml(t.batch)} ${escapeHtml(b.id)}</h1>${summary}${downloads}
<section aria-labelledby="lines-heading"><h2 id="lines-heading">${escapeHtml(t.lines)}</h2>${lineTable}${pager}</section>${back}`
        return c.page(`${t.batch} ${b.id}`, body, { section: "settlements" })
      })
  },
  { method: "GET", path: "/console/settlements/:id/statement.pdf", side: "merchant", handler: download("pdf") },
  { method: "GET", path: "/console/settlements/:id/statement.csv", side: "merchant", handler: download("csv") }
]
