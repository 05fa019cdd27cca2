/**
 * Refunding a payment from its page: an amount in the payment's local currency (what remains
 * refundable shown, and filled in) and an optional reason, sent to
 * `POST /api/v1/payments/{id}/refund` with the form's idempotency key, so that a second submit of
 * the same form (a double click, going back and sending again) answers the first refund and makes
 * no other. The API's refusal is shown on the field, with its status code.
 */
import { Effect } from "effect"
import * as Money from "../../../../core/Money.ts"
import { escapeHtml } from "../../server/pages/Html.ts"
import { errorOf, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { field, money, problem } from "../View.ts"
import { detailPage, paymentIdOf } from "./PaymentDetail.ts"

const words = dictionary({
  en: {
    refund: "Refund", amount: "Amount", remaining: "Refundable now", reason: "Reason (optional)", none: "No reason given",
    requested_by_customer: "Requested by the customer", duplicate: "Duplicate", fraudulent: "Fraudulent", other: "Other",
    submit: "Refund", notRefundable: "Only a completed payment with an amount left can be refunded."
  },
  pt: {
    refund: "Reembolso", amount: "Valor", remaining: "Reembolsável agora", reason: "Motivo (opcional)", none: "Sem motivo",
    requested_by_customer: "Pedido pelo cliente", duplicate: "Duplicado", fraudulent: "Fraudulento", other: "Outro",
    submit: "Reembolsar", notRefundable: "Só um pagamento concluído com valor restante pode ser reembolsado."
  },
  es: {
    refund: "Reembolso", amount: "Monto", remaining: "Reembolsable ahora", reason: "Motivo (opcional)", none: "Sin motivo",
    requested_by_customer: "Solicitado por el cliente", duplicate: "Duplicado", fraudulent: "Fraudulento", other: "Otro",
    submit: "Reembolsar", notRefundable: "Solo un pago completado con monto restante puede reembolsarse."
  }
})

const reasons = ["requested_by_customer", "duplicate", "fraudulent", "other"] as const

/** What the form shows again after a refused refund. */
export interface RefundState {
  readonly amount?: string | undefined
  readonly reason?: string | undefined
  readonly amountError?: string | undefined
  readonly reasonError?: string | undefined
  /** The API's refusal, told above the form. */
  readonly problem?: string | undefined
  readonly status?: number | undefined
}

/** Refusals about the amount itself, told on the amount field. */
const amountCodes = new Set(["refund_amount_exceeds_remaining", "balance_insufficient", "invalid_request"])

export const refundForm = (c: Console, p: any, state: RefundState) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const refundable = Number(p.refundable ?? 0)
    const heading = `<h2 id="refund-heading">${escapeHtml(t.refund)}</h2>`
    if (!(refundable > 0) && state.problem === undefined) {
      return `<section>${heading}<p class="muted">${escapeHtml(t.notRefundable)}</p></section>`
    }
    const key = yield* c.newKey
    return `<section class="card">${heading}${state.problem ?? ""}
<p>${escapeHtml(t.remaining)}: <strong>${money(p.refundable, p.currencyLocal, c.language)}</strong></p>
<form method="post" action="/console/payments/${escapeHtml(encodeURIComponent(p.id))}/refund" class="stack" data-testid="refund-form">${formFields(c.session, key)}
${
      field("amount", `${t.amount} (${p.currencyLocal})`, {
        // The API's number written with the currency's digits (display only).
        value: state.amount ?? Number(p.refundable).toFixed(Money.exponent(p.currencyLocal)),
        error: state.amountError,
        required: true,
        attributes: 'inputmode="decimal" autocomplete="off"'
      })
    }
${field("reason", t.reason, { value: state.reason ?? "", error: state.reasonError, options: [["", t.none], ...reasons.map((r) => [r, t[r]] as const)] })}
<div><button type="submit" class="danger">${escapeHtml(t.submit)}</button></div></form></section>`
  })

/** The form's amount as the API's JSON number, or its text when it is not a number (the API then names it). */
const amountOf = (text: string): number | string => /^\d{1,13}([.,]\d{1,8})?$/.test(text) ? Number(text.replace(",", ".")) : text

export const refundRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "POST",
    path: "/console/payments/:id/refund",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const id = paymentIdOf(c)
        const amount = (c.form.get("amount") ?? "").trim()
        const reason = (c.form.get("reason") ?? "").trim()
        const reply = yield* c.api({
          method: "POST",
          path: `/api/v1/payments/${encodeURIComponent(id)}/refund`,
          body: { ...(amount === "" ? {} : { amount: amountOf(amount) }), ...(reason === "" ? {} : { reason }) },
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 201 || reply.status === 200) {
          const refundId = typeof reply.body?.refundId === "string" ? `&refund=${encodeURIComponent(reply.body.refundId)}` : ""
          return redirect(`/console/payments/${encodeURIComponent(id)}?done=refunded${refundId}`)
        }
        const errors = fieldErrors(reply)
        const error = errorOf(reply)
        const onAmount = errors.get("amount") ?? (amountCodes.has(error.code) && !errors.has("reason") ? error.message : undefined)
        return yield* detailPage(c, id, {
          amount,
          reason,
          amountError: onAmount,
          reasonError: errors.get("reason"),
          problem: problem(reply),
          // A 5xx is the API's to tell, never the console's own 500.
          status: reply.status >= 500 ? 502 : reply.status
        })
      })
  }
]
