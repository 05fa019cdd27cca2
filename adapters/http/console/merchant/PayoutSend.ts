/**
 * Sending a payout: pick a method (`GET /me/payout/methods`), then its recipient form, drawn from
 * the fields the method declares (`recipientFields`: key, label, required, type, options), and
 * `POST /me/payout/send` with the form's idempotency key. The API's field errors
 * (`recipient.account`, `amount`) are told on the fields.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { type ApiReply, fieldErrors } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { dictionary } from "../Text.ts"
import { field, link, money, problem, table } from "../View.ts"
import { payoutWords } from "./Payouts.ts"
import { amountOf } from "./Swaps.ts"

const words = dictionary((catalog) => catalog.console.merchant.payoutSend)

interface RecipientField {
  readonly key: string
  readonly label: string
  readonly required: boolean
  readonly type: string
  readonly options?: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly description?: string
}

/** The form control of a recipient field: `recipient_<key>`, so that ids stay plain. */
const controlId = (key: string) => `recipient_${key.replace(/[^A-Za-z0-9_-]/g, "_")}`

const inputType = (type: string) => type === "email" ? "email" : type === "phone" ? "tel" : "text"

const sendPage = (c: Console, state: { readonly methodId: string; readonly form?: URLSearchParams; readonly reply?: ApiReply }) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const back = `<p>${link("/console/payouts", payoutWords(c.language).back)}</p>`
    const methods = yield* c.api({ method: "GET", path: "/api/v1/me/payout/methods" })
    if (methods.status !== 200) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${problem(methods)}${back}`, { section: "payouts", status: methods.status })
    const items: ReadonlyArray<any> = methods.body.items
    if (items.length === 0) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.noMethods)}</p>${back}`, { section: "payouts" })
    const method = items.find((m) => m.id === state.methodId)
    const chooser = `<form method="get" action="/console/payouts/send" class="stack">
${field("method", t.chooseMethod, {
      value: method?.id ?? "",
      required: true,
      options: items.map((m) => [m.id, `${m.name} (${m.currency})${m.routable === false ? ` · ${t.notRoutable}` : ""}`] as const)
    })}<div><button type="submit" class="secondary">${escapeHtml(t.choose)}</button></div></form>`
    if (method === undefined) {
      const overview = table(
        t.chooseMethod,
        [{ label: t.chooseMethod }, { label: t.currency }, { label: t.available, numeric: true }, { label: t.limits, numeric: true }],
        items.map((m) => [escapeHtml(m.name), escapeHtml(m.currency), money(m.currencyAvailable, m.currency, c.language), `${escapeHtml(String(m.minUsd))}–${escapeHtml(String(m.maxUsd))}`]),
        t.noMethods
      )
      const body = `<h1>${escapeHtml(t.title)}</h1>${state.reply === undefined ? "" : problem(state.reply)}${chooser}<h2>${escapeHtml(t.chooseMethod)}</h2>${overview}${back}`
      return c.page(t.title, body, { section: "payouts", status: state.reply?.status ?? 200 })
    }
    const errors = state.reply === undefined ? new Map<string, string>() : fieldErrors(state.reply)
    const code = state.reply?.body?.error?.code
    const amountError = errors.get("amount") ??
      (code === "balance_insufficient" || code === "amount_invalid" || code === "currency_not_funded" ? String(state.reply?.body?.error?.message ?? "") : undefined)
    const fields: ReadonlyArray<RecipientField> = method.recipientFields ?? []
    const recipientControls = fields.map((f) =>
      field(controlId(f.key), f.required ? f.label : `${f.label} (${t.optional})`, {
        type: inputType(f.type),
        value: state.form?.get(controlId(f.key)) ?? "",
        required: f.required,
        hint: f.description,
        error: errors.get(`recipient.${f.key}`),
        ...(f.options === undefined ? {} : { options: [["", "—"] as const, ...f.options.map((o) => [o.value, o.label] as const)] }),
        attributes: `autocomplete="off"${f.type === "email" ? "" : ' spellcheck="false"'}`
      })
    )
    const recipientError = errors.get("recipient")
    const form = `<form method="post" action="/console/payouts/send" class="stack">${formFields(c.session, yield* c.newKey)}
<input type="hidden" name="methodId" value="${escapeHtml(method.id)}">
<p><strong>${escapeHtml(method.name)}</strong> · ${escapeHtml(t.available)}: ${money(method.currencyAvailable, method.currency, c.language)}${
      method.funded === false ? ` <span class="muted">${escapeHtml(t.fundFirst)}</span>` : ""
    }</p>
${field("amount", `${t.amount} (${method.currency})`, { value: state.form?.get("amount") ?? "", error: amountError, required: true, attributes: 'inputmode="decimal" autocomplete="off"' })}
<fieldset class="stack"><legend>${escapeHtml(t.recipient)}</legend>${recipientError === undefined ? "" : `<p class="field-error">${escapeHtml(recipientError)}</p>`}${recipientControls.join("")}</fieldset>
<div><button type="submit">${escapeHtml(t.send)}</button></div></form>`
    const body = `<h1>${escapeHtml(t.title)}</h1>${state.reply === undefined ? "" : problem(state.reply)}${form}<p>${link("/console/payouts/send", t.change)}</p>${back}`
    return c.page(t.title, body, { section: "payouts", status: state.reply?.status ?? 200 })
  })

export const payoutSendRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/payouts/send",
    side: "merchant",
    handler: (c) => sendPage(c, { methodId: c.query.get("method") ?? "" })
  },
  {
    method: "POST",
    path: "/console/payouts/send",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const methodId = c.form.get("methodId") ?? ""
        // Only the fields the form drew (recipient_<key>), and only those filled in.
        const recipient: Record<string, string> = {}
        for (const [name, value] of c.form) {
          if (name.startsWith("recipient_") && value.trim() !== "") recipient[name.slice("recipient_".length)] = value.trim()
        }
        const reply = yield* c.api({
          method: "POST",
          path: "/api/v1/me/payout/send",
          body: { methodId, amount: amountOf(c.form.get("amount")), recipient },
          idempotencyKey: c.form.get("idempotencyKey") ?? undefined
        })
        if (reply.status === 200 || reply.status === 201) return redirect(`/console/payouts/${encodeURIComponent(reply.body.payout.id)}?done=sent`)
        return yield* sendPage(c, { methodId, form: c.form, reply })
      })
  }
]
