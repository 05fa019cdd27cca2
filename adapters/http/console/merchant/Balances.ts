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

const words = dictionary({
  en: {
    title: "Balances", payin: "Pay-in balance", payout: "Payout balance", currency: "Currency", available: "Available", pending: "Pending",
    frozen: "Frozen", reserve: "Reserve", owed: "Owed", reserved: "Reserved", localNote: "Local currencies show frozen and reserve together, under Reserve.",
    transferable: "Transferable from pay-in", chart: "Available balance, last 30 days", day: "Day", movements: "Recent movements",
    when: "When", type: "Type", reference: "Reference", amount: "Amount", books: "Books", noMovements: "No movements yet.",
    noPayout: "No payout balance yet.", swap: "Swap a local currency to USD", swapped: "Swap done: the USD is in your available balance.",
    warnings: "Warnings", net: "Net balance", unavailable: "The balance could not be read.", fund: "Fund the payout balance",
    movement: "Movement", availableChange: "Available", elsewhere: "Pending, frozen, reserve"
  },
  pt: {
    title: "Saldos", payin: "Saldo de recebimentos", payout: "Saldo de pagamentos", currency: "Moeda", available: "Disponível", pending: "Pendente",
    frozen: "Congelado", reserve: "Reserva", owed: "Devido", reserved: "Reservado", localNote: "Moedas locais mostram congelado e reserva juntos, em Reserva.",
    transferable: "Transferível dos recebimentos", chart: "Saldo disponível, últimos 30 dias", day: "Dia", movements: "Movimentos recentes",
    when: "Quando", type: "Tipo", reference: "Referência", amount: "Valor", books: "Contas", noMovements: "Nenhum movimento ainda.",
    noPayout: "Nenhum saldo de pagamentos ainda.", swap: "Trocar uma moeda local por USD", swapped: "Troca feita: os USD estão no seu saldo disponível.",
    warnings: "Avisos", net: "Saldo líquido", unavailable: "Não foi possível ler o saldo.", fund: "Abastecer o saldo de pagamentos",
    movement: "Movimento", availableChange: "Disponível", elsewhere: "Pendente, congelado, reserva"
  },
  es: {
    title: "Saldos", payin: "Saldo de cobros", payout: "Saldo de dispersiones", currency: "Moneda", available: "Disponible", pending: "Pendiente",
    frozen: "Congelado", reserve: "Reserva", owed: "Adeudado", reserved: "Reservado", localNote: "Las monedas locales muestran congelado y reserva juntos, en Reserva.",
    transferable: "Transferible desde cobros", chart: "Saldo disponible, últimos 30 días", day: "Día", movements: "Movimientos recientes",
    when: "Cuándo", type: "Tipo", reference: "Referencia", amount: "Monto", books: "Cuentas", noMovements: "Aún no hay movimientos.",
    noPayout: "Aún no hay saldo de dispersiones.", swap: "Cambiar una moneda local a USD", swapped: "Cambio hecho: los USD están en su saldo disponible.",
    warnings: "Avisos", net: "Saldo neto", unavailable: "No se pudo leer el saldo.", fund: "Fondear el saldo de dispersiones",
    movement: "Movimiento", availableChange: "Disponible", elsewhere: "Pendiente, congelado, reserva"
  }
})

/** Journal entry kinds in words a merchant reads; a kind not listed is shown with its dots as spaces. */
const kindWords = dictionary({
  en: {
    "payment.completed": "Payment received", "payment.settled": "Payment settled", "payment.failed": "Payment failed",
    "reserve.released": "Reserve released", "claim.opened": "Refund requested", "claim.resolved": "Refund completed",
    "claim.rejected": "Refund rejected", "refund.completed": "Refund completed", "refund.failed": "Refund failed",
    "chargeback.opened": "Chargeback opened", "chargeback.won": "Chargeback won", "chargeback.lost": "Chargeback lost",
    "balance.swap": "Currency swap", "balance.fund_sandbox": "Sandbox funding", "withdrawal.requested": "Withdrawal requested",
    "withdrawal.completed": "Withdrawal completed", "withdrawal.failed": "Withdrawal failed (returned)", "payout.transfer": "Transfer to payout balance",
    "settlement.closed": "Settlement batch closed", "settlement.failed": "Settlement payout failed (returned)", "deposit.credited": "Deposit credited"
  },
  pt: {
    "payment.completed": "Pagamento recebido", "payment.settled": "Pagamento liquidado", "payment.failed": "Pagamento falhou",
    "reserve.released": "Reserva liberada", "claim.opened": "Reembolso solicitado", "claim.resolved": "Reembolso concluído",
    "claim.rejected": "Reembolso rejeitado", "refund.completed": "Reembolso concluído", "refund.failed": "Reembolso falhou",
    "chargeback.opened": "Chargeback aberto", "chargeback.won": "Chargeback ganho", "chargeback.lost": "Chargeback perdido",
    "balance.swap": "Troca de moeda", "balance.fund_sandbox": "Fundos de sandbox", "withdrawal.requested": "Saque solicitado",
    "withdrawal.completed": "Saque concluído", "withdrawal.failed": "Saque falhou (devolvido)", "payout.transfer": "Transferência ao saldo de pagamentos",
    "settlement.closed": "Lote de liquidação fechado", "settlement.failed": "Pagamento da liquidação falhou (devolvido)", "deposit.credited": "Depósito creditado"
  },
  es: {
    "payment.completed": "Pago recibido", "payment.settled": "Pago liquidado", "payment.failed": "Pago fallido",
    "reserve.released": "Reserva liberada", "claim.opened": "Reembolso solicitado", "claim.resolved": "Reembolso completado",
    "claim.rejected": "Reembolso rechazado", "refund.completed": "Reembolso completado", "refund.failed": "Reembolso fallido",
    "chargeback.opened": "Contracargo abierto", "chargeback.won": "Contracargo ganado", "chargeback.lost": "Contracargo perdido",
    "balance.swap": "Cambio de moneda", "balance.fund_sandbox": "Fondos de sandbox", "withdrawal.requested": "Retiro solicitado",
    "withdrawal.completed": "Retiro completado", "withdrawal.failed": "Retiro fallido (devuelto)", "payout.transfer": "Transferencia al saldo de dispersiones",
    "settlement.closed": "Lote de liquidación cerrado", "settlement.failed": "Pago de la liquidación fallido (devuelto)", "deposit.credited": "Depósito acreditado"
  }
})

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
