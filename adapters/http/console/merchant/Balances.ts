/**
 * Balances: the pay-in buckets per currency (`GET /me/balance`), the payout balance
 * (`GET /me/payout/balance`), the last 30 days of the available balance per currency (one chart
 * per currency, from `GET /me/balance/history`, the ledger's daily closing balances) and the recent
 * movements. Figures are shown as the API gives them: nothing is added up here.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/Html.ts"
import { lineChart } from "../Chart.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, money, notice, problem, table } from "../View.ts"

const words = dictionary({
  en: {
    title: "Balances", payin: "Pay-in balance", payout: "Payout balance", currency: "Currency", available: "Available", pending: "Pending",
    frozen: "Frozen", reserve: "Reserve", owed: "Owed", reserved: "Reserved", localNote: "Local currencies show frozen and reserve together, under Reserve.",
    transferable: "Transferable from pay-in", chart: "Available balance, last 30 days", day: "Day", movements: "Recent movements",
    when: "When", type: "Type", reference: "Reference", amount: "Amount", books: "Books", noMovements: "No movements yet.",
    noPayout: "No payout balance yet.", swap: "Swap a local currency to USD", swapped: "Swap done: the USD is in your available balance.",
    warnings: "Warnings", net: "Net balance", unavailable: "The balance could not be read.", fund: "Fund the payout balance"
  },
  pt: {
    title: "Saldos", payin: "Saldo de recebimentos", payout: "Saldo de pagamentos", currency: "Moeda", available: "Disponível", pending: "Pendente",
    frozen: "Congelado", reserve: "Reserva", owed: "Devido", reserved: "Reservado", localNote: "Moedas locais mostram congelado e reserva juntos, em Reserva.",
    transferable: "Transferível dos recebimentos", chart: "Saldo disponível, últimos 30 dias", day: "Dia", movements: "Movimentos recentes",
    when: "Quando", type: "Tipo", reference: "Referência", amount: "Valor", books: "Contas", noMovements: "Nenhum movimento ainda.",
    noPayout: "Nenhum saldo de pagamentos ainda.", swap: "Trocar uma moeda local por USD", swapped: "Troca feita: os USD estão no seu saldo disponível.",
    warnings: "Avisos", net: "Saldo líquido", unavailable: "Não foi possível ler o saldo.", fund: "Abastecer o saldo de pagamentos"
  },
  es: {
    title: "Saldos", payin: "Saldo de cobros", payout: "Saldo de dispersiones", currency: "Moneda", available: "Disponible", pending: "Pendiente",
    frozen: "Congelado", reserve: "Reserva", owed: "Adeudado", reserved: "Reservado", localNote: "Las monedas locales muestran congelado y reserva juntos, en Reserva.",
    transferable: "Transferible desde cobros", chart: "Saldo disponible, últimos 30 días", day: "Día", movements: "Movimientos recientes",
    when: "Cuándo", type: "Tipo", reference: "Referencia", amount: "Monto", books: "Cuentas", noMovements: "Aún no hay movimientos.",
    noPayout: "Aún no hay saldo de dispersiones.", swap: "Cambiar una moneda local a USD", swapped: "Cambio hecho: los USD están en su saldo disponible.",
    warnings: "Avisos", net: "Saldo neto", unavailable: "No se pudo leer el saldo.", fund: "Fondear el saldo de dispersiones"
  }
})

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
        const movements: ReadonlyArray<any> = b.movements ?? []
        const movementTable = table(
          `${t.movements} (${t.reference})`,
          [{ label: t.when }, { label: t.type }, { label: t.reference }, num(t.amount), { label: t.books }],
          movements.slice(0, 25).map((m) => [
            escapeHtml(formatDateTime(m.createdAt, l)),
            escapeHtml(m.type),
            escapeHtml(m.reference),
            money(m.amount, m.currency, l),
            escapeHtml(Object.entries(m.books ?? {}).map(([book, amount]) => `${book.replace(/^payin_/, "")} ${amount}`).join(", "))
          ]),
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
