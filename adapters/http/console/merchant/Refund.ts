/**
 * Refunding a payment from its page (the form: `RefundForm.ts`): an amount in the payment's local currency (what remains
 * refundable shown, and filled in) and an optional reason, sent to
 * `POST /api/v1/payments/{id}/refund` with the form's idempotency key, so that a second submit of
 * the same form (a double click, going back and sending again) answers the first refund and makes
 * no other. The API's refusal is shown on the field, with its status code.
 */
import { Effect } from "effect"
import { errorOf, fieldErrors } from "../ApiClient.ts"
import { type ConsoleRoute, redirect } from "../Page.ts"
import { problem } from "../View.ts"
import { detailPage, paymentIdOf } from "./PaymentDetail.ts"

/** Refusals about the amount itself, told on the amount field. */
const amountCodes = new Set(["refund_amount_exceeds_remaining", "balance_insufficient", "invalid_request"])

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
