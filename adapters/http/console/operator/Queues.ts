/**
 * What needs a human, across every shop of an environment: payouts stuck in processing past their
 * window, open chargebacks, withdrawals waiting on the bank, and open reconciliation
 * discrepancies, each with its resolve action (the existing admin operations, see QueueActions.ts).
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { ApiReply } from "../ApiClient.ts"
import { formFields } from "../Layout.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { money, notice, status, table } from "../View.ts"
import { common, failedStatus, failure, ok, shownEnvironment, shownNote } from "./Common.ts"

export const queueWords = dictionary((catalog) => catalog.console.operator.queues)

/** A failed resolve, shown above the queues (the row's fields marked by their API path). */
export interface QueueState {
  readonly failed?: { readonly id: string; readonly reply: ApiReply; readonly errors: ReadonlyMap<string, string> }
}

export const minutesOf = (value: string | null | undefined) => {
  const n = Number(value ?? "60")
  return Number.isInteger(n) && n >= 0 && n <= 525_600 ? n : 60
}

const select = (name: string, label: string, options: ReadonlyArray<readonly [string, string]>) =>
  `<select name="${name}" aria-label="${escapeHtml(label)}" style="width:auto">${options.map(([v, text]) => `<option value="${v}">${escapeHtml(text)}</option>`).join("")}</select>`

const input = (name: string, label: string, error: string | undefined, extra = "") =>
  `<span style="display:block;width:11rem"><input name="${name}" aria-label="${escapeHtml(label)}" placeholder="${escapeHtml(label)}"${error === undefined ? "" : ` aria-invalid="true" title="${escapeHtml(error)}"`} ${extra}>${
    error === undefined ? "" : `<p class="field-error">${escapeHtml(error)}</p>`
  }</span>`

const resolveForm = (c: Console, key: string, action: string, id: string, environment: string, minutes: number, controls: string, label: string) =>
  `<form method="post" action="${action}" class="queue-action" style="display:flex;flex-wrap:wrap;gap:.4rem;align-items:start;min-width:16rem">${formFields(c.session, key)}<input type="hidden" name="id" value="${escapeHtml(id)}"><input type="hidden" name="environment" value="${environment}"><input type="hidden" name="olderThanMinutes" value="${minutes}">${controls}<button type="submit" aria-label="${
    escapeHtml(label)
  }">${escapeHtml(queueWords(c.language).resolve)}</button></form>`

/** A record's id with its shop under it. */
const owned = (id: string, shopId: string | null) => `${escapeHtml(id)}${shopId === null ? "" : `<br><span class="muted">${escapeHtml(shopId)}</span>`}`

export const queuesPage = (c: Console, environment: "sandbox" | "production", minutes: number, state: QueueState = {}, defaulted = false) =>
  Effect.gen(function*() {
    const t = queueWords(c.language)
    const [payouts, chargebacks, withdrawals, discrepancies] = yield* Effect.all([
      c.api({ method: "GET", path: `/admin/v1/payouts?status=processing&olderThanMinutes=${minutes}&environment=${environment}&limit=100` }),
      c.api({ method: "GET", path: `/admin/v1/claims?kind=chargeback&status=open&environment=${environment}&limit=100` }),
      c.api({ method: "GET", path: `/admin/v1/withdrawals?status=processing&environment=${environment}&limit=100` }),
      c.api({ method: "GET", path: `/admin/v1/reconciliation/discrepancies?status=open&environment=${environment}&limit=100` })
    ])
    const bad = [payouts, chargebacks, withdrawals, discrepancies].find((r) => !ok(r))
    if (bad !== undefined) return c.page(t.title, `<h1>${escapeHtml(t.title)}</h1>${failure(c, bad)}`, { section: "queues", status: failedStatus(bad) })
    const errorsOf = (id: string) => state.failed?.id === id ? state.failed.errors : new Map<string, string>()
    const key = () => c.newKey
    const payoutRows = yield* Effect.forEach(payouts.body.data as ReadonlyArray<any>, (p) =>
      Effect.map(key(), (k) => [
        owned(p.id, p.shopId), escapeHtml(p.methodName), money(p.amount, p.currency, c.language), escapeHtml(formatDateTime(p.createdAt, c.language)),
        resolveForm(c, k, "/console/operator/queues/payouts", p.id, environment, minutes,
          select("status", t.outcome, [["failed", t.failed], ["completed", t.completed]]) + input("failureReason", t.reason, errorsOf(p.id).get("failureReason"), 'maxlength="200"'), `${t.resolve} ${p.id}`)
      ]))
    const chargebackRows = yield* Effect.forEach(chargebacks.body.data as ReadonlyArray<any>, (cb) =>
      Effect.map(key(), (k) => [
        owned(cb.id, cb.shopId), escapeHtml(cb.transactionId), money(cb.amount, cb.currency, c.language), escapeHtml(formatDateTime(cb.createdAt, c.language)),
        resolveForm(c, k, "/console/operator/queues/chargebacks", cb.id, environment, minutes, select("outcome", t.outcome, [["won", t.won], ["lost", t.lost]]), `${t.resolve} ${cb.id}`)
      ]))
    const withdrawalRows = yield* Effect.forEach(withdrawals.body.data as ReadonlyArray<any>, (w) =>
      Effect.map(key(), (k) => [
        owned(w.id, w.shopId), money(w.amount, "USD", c.language), escapeHtml(`${w.destination.bankName} ${w.destination.accountNumber}`), escapeHtml(formatDateTime(w.createdAt, c.language)),
        resolveForm(c, k, "/console/operator/queues/withdrawals", w.id, environment, minutes,
          select("status", t.outcome, [["completed", t.completed], ["failed", t.failed]]) + input("failureReason", t.reason, errorsOf(w.id).get("failureReason"), 'maxlength="200"'), `${t.resolve} ${w.id}`)
      ]))
    const discrepancyRows = yield* Effect.forEach(discrepancies.body.data as ReadonlyArray<any>, (d) =>
      Effect.map(key(), (k) => [
        owned(d.id, d.shopId), escapeHtml(d.provider), status(d.kind), `<span class="wrap">${escapeHtml(d.detail)}</span>`, escapeHtml(formatDateTime(d.createdAt, c.language)),
        resolveForm(c, k, "/console/operator/queues/discrepancies", d.id, environment, minutes,
          input("note", t.note, errorsOf(d.id).get("note"), 'required maxlength="2000"') + input("resolvedBy", t.resolvedBy, errorsOf(d.id).get("resolvedBy"), 'required maxlength="200" value="operator"') +
            input("writeOffUsd", t.writeOff, errorsOf(d.id).get("writeOffUsd"), 'inputmode="decimal"'), `${t.resolve} ${d.id}`)
      ]))
    const done = c.query.get("done")
    const doneText = done === "payout" ? t.donePayout : done === "chargeback" ? t.doneChargeback : done === "withdrawal" ? t.doneWithdrawal : done === "discrepancy" ? t.doneDiscrepancy : undefined
    const cw = common(c.language)
    const filters = `<form method="get" action="/console/operator/queues" class="filters"><div><label for="environment">${escapeHtml(cw.environment)}</label><select id="environment" name="environment">${
      (["production", "sandbox"] as const).map((e) => `<option value="${e}"${e === environment ? " selected" : ""}>${escapeHtml(cw[e])}</option>`).join("")
    }</select></div><div><label for="olderThanMinutes">${escapeHtml(t.olderThan)}</label><input id="olderThanMinutes" name="olderThanMinutes" type="number" min="0" max="525600" value="${minutes}"></div><div><button type="submit" class="secondary">${escapeHtml(t.show)}</button></div></form>`
    const section = (id: string, heading: string, total: number, body: string) =>
      `<section aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(heading)} <span class="muted">(${total} ${escapeHtml(t.total)})</span></h2>${body}</section>`
    const body = `<h1>${escapeHtml(t.title)}</h1>${shownNote(c, { environment, defaulted })}${doneText === undefined ? "" : notice(doneText)}${state.failed === undefined ? "" : failure(c, state.failed.reply)}${filters}
${section("payouts-heading", t.payouts, payouts.body.pagination.total, table(t.payouts, [{ label: t.id }, { label: t.method }, { label: t.amount, numeric: true }, { label: t.created }, { label: t.action }], payoutRows, t.nonePayouts))}
${section("chargebacks-heading", t.chargebacks, chargebacks.body.pagination.total, table(t.chargebacks, [{ label: t.id }, { label: t.payment }, { label: t.amount, numeric: true }, { label: t.created }, { label: t.action }], chargebackRows, t.noneChargebacks))}
${section("withdrawals-heading", t.withdrawals, withdrawals.body.pagination.total, table(t.withdrawals, [{ label: t.id }, { label: t.amount, numeric: true }, { label: t.destination }, { label: t.created }, { label: t.action }], withdrawalRows, t.noneWithdrawals))}
${section("discrepancies-heading", t.discrepancies, discrepancies.body.pagination.total, table(t.discrepancies, [{ label: t.id }, { label: t.provider }, { label: t.kind }, { label: t.detail }, { label: t.created }, { label: t.action }], discrepancyRows, t.noneDiscrepancies))}`
    return c.page(t.title, body, { section: "queues", ...(state.failed === undefined ? {} : { status: failedStatus(state.failed.reply) }) })
  })

export const queueRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/operator/queues",
    side: "operator",
    handler: (c) =>
      Effect.flatMap(shownEnvironment(c, c.query.get("environment")), (shown) =>
        queuesPage(c, shown.environment, minutesOf(c.query.get("olderThanMinutes")), {}, shown.defaulted))
  }
]
