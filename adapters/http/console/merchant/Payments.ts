/** Payments: the list with its filters. */
import { Effect } from "effect"
import { escapeHtml } from "../../server/Html.ts"
import type { ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"

const words = dictionary({
  en: { title: "Payments", id: "Payment", status: "Status", amount: "Amount", local: "Buyer paid", method: "Method", created: "Created", order: "Order id", none: "No payments match." },
  pt: { title: "Pagamentos", id: "Pagamento", status: "Status", amount: "Valor", local: "Comprador pagou", method: "Método", created: "Criado", order: "Pedido", none: "Nenhum pagamento encontrado." },
  es: { title: "Pagos", id: "Pago", status: "Estado", amount: "Monto", local: "Comprador pagó", method: "Método", created: "Creado", order: "Orden", none: "Ningún pago coincide." }
})

export const paymentRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/payments",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const t = words(c.language)
        const reply = yield* c.api({ method: "GET", path: "/api/v1/payments?limit=25" })
        const rows: ReadonlyArray<any> = reply.body?.data ?? []
        const table = rows.length === 0
          ? `<p>${escapeHtml(t.none)}</p>`
          : `<div class="table-wrap" tabindex="0" role="region" aria-label="${escapeHtml(t.title)}"><table><thead><tr><th>${t.id}</th><th>${t.status}</th><th class="num">${t.amount}</th><th class="num">${t.local}</th><th>${t.method}</th><th>${t.order}</th><th>${t.created}</th></tr></thead><tbody>${
            rows.map((p) =>
              `<tr><td><a href="/console/payments/${encodeURIComponent(p.id)}">${escapeHtml(p.id)}</a></td><td><span class="status">${escapeHtml(p.status)}</span></td><td class="num">${escapeHtml(String(p.amount))} USD</td><td class="num">${escapeHtml(String(p.amountLocal))} ${escapeHtml(p.currencyLocal)}</td><td>${escapeHtml(p.paymentMethodName)}</td><td>${escapeHtml(p.merchantOrderId ?? "—")}</td><td>${escapeHtml(formatDateTime(p.timestamps?.created, c.language))}</td></tr>`
            ).join("")
          }</tbody></table></div>`
        return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${table}`, { section: "payments" })
      })
  }
]
