/**
 * Balances: the pay-in buckets per currency (`GET /me/balance`), the payout balance
 * (`GET /me/payout/balance`), the last 30 days of the available balance per currency (one chart
 * per currency, from `GET /me/balance/history`, the ledger's daily closing balances) and the recent
 * movements. Figures are shown as the API gives them: nothing is added up here.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { lineChart } from "../Chart.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, money, notice, problem, table } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.balances)

/** Journal entry kinds in words a merchant reads; a kind not listed is shown with its dots as spaces. */
const kindWords = dictionary((catalog) => catalog.console.merchant.balanceKinds)

const kindLabel = (kind: string, language: Parameters<typeof kindWords>[0]): string => {
  const known = (kindWords(language) as Readonly<Record<string, string>>)[kind]
  if (known !== undefined) return known
  const words = kind.replace(/[._]/g, " ")
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export const balanceRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/balances",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const l = c.language
        const [payin, payout, history] = yield* Effect.all([
          c.api({ method: "GET", path: "/api/v1/me/balance" }),
          c.api({ method: "GET", path: "/api/v1/me/payout/balance" }),
          c.api({ method: "GET", path: "/api/v1/me/balance/history?days=30" })
        ])
        if (payin.status !== 200) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${problem(payin)}`, { section: "balances", status: payin.status })
        const b = payin.body
        const local: ReadonlyArray<any> = b.balances ?? []
        const payinRows = [
          ["USD", money(b.balance.available, "USD", l), money(b.balance.pending, "USD", l), money(b.balance.frozen, "USD", l), money(b.balance.reserve, "USD", l), money(b.owed, "USD", l)],
          ...local.map((x) => [escapeHtml(x.currency), money(x.available, x.currency, l), money(x.pending, x.currency, l), "—", money(x.reserved, x.currency, l), "—"])
        ]
        const num = (label: string) => ({ label, numeric: true })
        const payinTable = table(`${t.payin} (${t.currency})`, [{ label: t.currency }, num(t.available), num(t.pending), num(t.frozen), num(t.reserve), num(t.owed)], payinRows, "")
        const warnings: ReadonlyArray<string> = b.ledgerWarnings ?? []
        const payoutBalances: ReadonlyArray<any> = payout.body?.balances ?? []
        const payoutSection = payout.status !== 200
          ? problem(payout)
          : table(
            `${t.payout} (${t.currency})`,
            [{ label: t.currency }, num(t.available), num(t.pending), num(t.reserved)],
            payoutBalances.map((x) => [escapeHtml(x.currency), money(x.available, x.currency, l), money(x.pending, x.currency, l), money(x.reserved, x.currency, l)]),
            t.noPayout
          ) + facts([[t.transferable, money(payout.body.transferableFromPayin?.amount, "USD", l)]])
        const charts = history.status !== 200 ? problem(history) : (history.body.currencies as ReadonlyArray<{ currency: string; closing: ReadonlyArray<number> }>)
          .filter((s) => s.currency === "USD" || s.closing.some((v) => v !== 0))
          .map((s) => lineChart({ title: `${t.chart} (${s.currency})`, labels: history.body.days, series: [{ name: s.currency, values: s.closing }], labelHeader: t.day }))
          .join("")
        // Each movement by what it did to the available balance (what a merchant can withdraw),
        // signed as the balance moved; what it moved between the other buckets is said beside it.
        const movements: ReadonlyArray<any> = b.movements ?? []
        const bookNames: Readonly<Record<string, string>> = { payin_pending: t.pending, payin_frozen: t.frozen, payin_reserve: t.reserve }
        const signed = (amount: number, currency: string) => `${amount > 0 ? "+" : ""}${money(amount, currency, l)}`
        const movementTable = table(
          `${t.movements} (${t.reference})`,
          [{ label: t.when }, { label: t.movement }, { label: t.reference }, num(t.availableChange), { label: t.elsewhere }],
          movements.slice(0, 25).map((m) => {
            const books: Readonly<Record<string, number>> = m.books ?? {}
            const available = books["payin_available"] ?? 0
            const elsewhere = Object.entries(books).filter(([book, amount]) => book !== "payin_available" && amount !== 0)
            return [
              escapeHtml(formatDateTime(m.createdAt, l)),
              escapeHtml(kindLabel(m.type, l)),
              escapeHtml(m.reference),
              available === 0 ? `<span class="muted">—</span>` : signed(available, m.currency),
              elsewhere.map(([book, amount]) => `${escapeHtml(bookNames[book] ?? book)} ${signed(amount, m.currency)}`).join(", ")
            ]
          }),
          t.noMovements
        )
        const body = `<h1>${escapeHtml(t.title)}</h1>
${c.query.get("done") === "swapped" ? notice(t.swapped) : ""}
<section aria-labelledby="payin-heading"><h2 id="payin-heading">${escapeHtml(t.payin)}</h2>${payinTable}
${local.length > 0 ? `<p class="muted">${escapeHtml(t.localNote)}</p>` : ""}
${warnings.length > 0 ? `<div class="problem" role="note"><strong>${escapeHtml(t.warnings)}</strong>: ${warnings.map(escapeHtml).join(" ")}</div>` : ""}
${facts([[t.net, money(b.feeSummary?.netBalance, "USD", l)]])}
<p><a class="button secondary" href="/console/balances/swap">${escapeHtml(t.swap)}</a></p></section>
<section aria-labelledby="chart-heading"><h2 id="chart-heading">${escapeHtml(t.chart)}</h2><div class="grid" style="grid-template-columns:repeat(auto-fill,minmax(min(100%,30rem),1fr))">${charts}</div></section>
<section aria-labelledby="payout-heading"><h2 id="payout-heading">${escapeHtml(t.payout)}</h2>${payoutSection}
<p><a class="button secondary" href="/console/balances/payout-funding">${escapeHtml(t.fund)}</a></p></section>
<section aria-labelledby="movements-heading"><h2 id="movements-heading">${escapeHtml(t.movements)}</h2>${movementTable}</section>`
        return c.page(t.title, body, { section: "balances" })
      })
  }
]
