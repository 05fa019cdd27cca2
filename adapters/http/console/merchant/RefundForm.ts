/** The refund form on a payment's page: the amount (what remains refundable, filled in) and an optional reason. */
import { Effect } from "effect"
import * as Money from "../../../../core/Money.ts"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields } from "../Layout.ts"
import type { Console } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { field, money } from "../View.ts"

const words = dictionary((catalog) => catalog.console.merchant.refundForm)

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
