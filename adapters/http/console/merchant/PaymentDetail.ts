/**
 * One payment: its summary, its life cycle as one timeline (each provider attempt with why it was
 * tried and how long it took, its events and their webhook deliveries, its ledger entries, its
 * refunds and claims), and the refund form. Everything is read through the API:
 * `GET /payments/{id}`, `/events?relatedId=`, `/events/{id}/deliveries`,
 * `/payments/{id}/ledger-entries` and `/payments/{id}/claims`.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, money, notice, problem, status, table } from "../View.ts"
import { refundForm, type RefundState } from "./RefundForm.ts"

const words = dictionary((catalog) => catalog.console.merchant.paymentDetail)

/** A card brand as people write it. */
const brandNames: Readonly<Record<string, string>> = {
  visa: "Visa", mastercard: "Mastercard", amex: "American Express", elo: "Elo", hipercard: "Hipercard", diners: "Diners Club", discover: "Discover", carnet: "Carnet"
}

/** The payment id of `/console/payments/{id}` or `/console/payments/{id}/refund`. */
export const paymentIdOf = (c: Console) => c.params["id"] ?? ""

interface Item {
  readonly at: string
  readonly html: string
}

const time = (iso: string, c: Console) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatDateTime(iso, c.language))}</time>`

/** The page of payment `id`, with the refund form in `refund` state (its values and errors). */
export const detailPage = (c: Console, id: string, refund: RefundState = {}) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const path = encodeURIComponent(id)
    const reply = yield* c.api({ method: "GET", path: `/api/v1/payments/${path}` })
    if (reply.status !== 200) {
      const title = reply.status === 404 ? t.notFound : t.payment
      return c.page(title, `<h1>${escapeHtml(title)}</h1>${problem(reply)}<p><a href="/console/payments">${escapeHtml(t.back)}</a></p>`, {
        section: "payments",
        status: reply.status
      })
    }
    const p = reply.body
    const [events, ledger, claims] = yield* Effect.all([
      c.api({ method: "GET", path: `/api/v1/events?relatedId=${path}&limit=100` }),
      c.api({ method: "GET", path: `/api/v1/payments/${path}/ledger-entries` }),
      c.api({ method: "GET", path: `/api/v1/payments/${path}/claims` })
    ], { concurrency: 3 })
    const eventRows: ReadonlyArray<any> = events.body?.data ?? []
    const deliveries = yield* Effect.forEach(eventRows, (e) =>
      Effect.map(c.api({ method: "GET", path: `/api/v1/events/${encodeURIComponent(e.id)}/deliveries` }), (r): ReadonlyArray<any> => r.body?.data ?? []), {
      concurrency: 4
    })
    const entries: ReadonlyArray<any> = ledger.body?.data ?? []
    const claimRows: ReadonlyArray<any> = claims.body?.data ?? []
    const m = (amount: number | null | undefined, currency: string) => money(amount, currency, c.language)

    const items: Array<Item> = []
    for (const a of (p.routing?.attempts ?? []) as ReadonlyArray<any>) {
      const why = a.routing === undefined
        ? ""
        : ` · ${escapeHtml(t.rule)}: ${escapeHtml(a.routing.ruleId ?? t.noRule)} · ${escapeHtml(t.strategy)}: ${escapeHtml(a.routing.strategy)} · ${escapeHtml(t.circuit)}: ${
          escapeHtml(a.routing.circuit)
        }${a.routing.score === null ? "" : ` · ${escapeHtml(t.score)}: ${escapeHtml(String(a.routing.score))}`}`
      // A card payment's attempt: the normalized decline its provider's refusal named.
      const decline = typeof a.decline === "string" ? ` · ${escapeHtml(t.decline)}: <code data-testid="decline">${escapeHtml(a.decline)}</code>` : ""
      items.push({
        at: a.at,
        html: `<strong>${escapeHtml(t.attempt)}</strong>: ${escapeHtml(a.provider)} ${status(a.outcome)} · ${escapeHtml(t.latency)} ${escapeHtml(String(Math.round(a.latencyMs)))} ms${decline}${why}${
          a.reason === null ? "" : `<br><span class="muted">${escapeHtml(a.reason)}</span>`
        }`
      })
    }
    eventRows.forEach((e, i) => {
      const sent = deliveries[i] ?? []
      const list = sent.length === 0
        ? `<span class="muted">${escapeHtml(t.noDeliveries)}</span>`
        : `<div data-testid="deliveries">${
          sent.map((d) =>
            `<div>↳ ${escapeHtml(t.delivery)} <code>${escapeHtml(d.id)}</code> ${status(d.status)} · ${escapeHtml(t.attempts)}: ${escapeHtml(String(d.attempts))}${
              d.lastStatusCode === null ? "" : ` · ${escapeHtml(t.answered)} ${escapeHtml(String(d.lastStatusCode))}`
            }${d.lastError === null ? "" : ` · <span class="muted">${escapeHtml(d.lastError)}</span>`}</div>`
          ).join("")
        }</div>`
      items.push({ at: e.created, html: `<strong>${escapeHtml(t.event)}</strong>: <code>${escapeHtml(e.type)}</code> <span class="muted">${escapeHtml(e.id)}</span>${list}` })
    })
    for (const e of entries) {
      items.push({
        at: e.createdAt,
        html: `<strong>${escapeHtml(t.ledgerEntry)}</strong>: <code>${escapeHtml(e.type)}</code> <span class="muted">${escapeHtml(e.reference)}</span>`
      })
    }
    for (const cl of claimRows) {
      items.push({
        at: cl.createdAt,
        html: `<strong>${escapeHtml(cl.kind === "user_dispute" ? t.refund : t.claim)}</strong>: ${m(cl.amount, cl.currency)} ${status(cl.refundStatus ?? cl.status)} <span class="muted">${escapeHtml(cl.id)}</span>`
      })
    }
    items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    const timeline = `<ol class="timeline" data-testid="timeline">${items.map((it) => `<li>${time(it.at, c)}<div>${it.html}</div></li>`).join("")}</ol>`

    const summary = `<div class="grid">${
      facts([
        [t.status, status(p.status)],
        [t.amountUsd, m(p.amount, "USD")],
        [t.amountLocal, m(p.amountLocal, p.currencyLocal)],
        [t.refundable, `<span data-testid="refundable">${m(p.refundable, p.currencyLocal)}</span>`],
        [t.fees, m(p.fees?.total, "USD")]
      ])
    }${
      facts([
        [t.buyer, escapeHtml(p.buyer?.name ?? "—")],
        [t.buyerEmail, escapeHtml(p.buyer?.email ?? "—")],
        [t.method, escapeHtml(p.paymentMethodName)],
        [t.country, escapeHtml(p.country)],
        [t.provider, escapeHtml(p.routing?.provider ?? "—")],
        [t.order, escapeHtml(p.merchantOrderId ?? "—")],
        [t.failure, escapeHtml(p.failureReason ?? "—")]
      ])
    }${
      facts([
        [t.created, escapeHtml(formatDateTime(p.timestamps?.created, c.language))],
        [t.updated, escapeHtml(formatDateTime(p.timestamps?.updated, c.language))],
        [t.completed, escapeHtml(formatDateTime(p.timestamps?.completed, c.language))],
        [t.expires, escapeHtml(formatDateTime(p.timestamps?.expires, c.language))]
      ])
    }</div>`

    // A card payment in instalments: "3 × R$ 6,67 (first R$ 6,68)", the first taking the rounding remainder.
    const i = p.installments
    const installments = i === undefined || i === null ? [] : [[
      t.cardInstallments,
      `<span data-testid="installments">${escapeHtml(`${i.count} ×`)} ${m(i.instalmentAmount, p.currencyLocal)}${
        i.firstInstalmentAmount === i.instalmentAmount ? "" : ` (${escapeHtml(t.firstInstalment)} ${m(i.firstInstalmentAmount, p.currencyLocal)})`
      }</span>`
    ] as const]
    // A card payment's card, as the vault's token described it (never its number): brand, BIN, last 4, expiry, fingerprint.
    const described = p.card === undefined || p.card === null ? [] : [
      [t.cardBrand, escapeHtml(brandNames[p.card.brand] ?? String(p.card.brand))],
      [t.cardNumber, `<code>${escapeHtml(`${p.card.bin} •••• ${p.card.last4}`)}</code>`],
      [t.cardExpiry, escapeHtml(`${String(p.card.expMonth).padStart(2, "0")}/${p.card.expYear}`)],
      [t.cardFingerprint, `<code>${escapeHtml(p.card.fingerprint)}</code>`]
    ] as const
    // A sandbox card payment made without a token has no card to describe, but may have installments.
    const card = described.length === 0 && installments.length === 0 ? "" : `<section><h2 id="card-heading">${escapeHtml(t.card)}</h2><div class="grid" data-testid="card">${
      facts([...described, ...installments])
    }</div></section>`

    const claimTable = table(t.claims, [
      { label: t.claim },
      { label: t.kind },
      { label: t.status },
      { label: t.amount, numeric: true },
      { label: t.reason },
      { label: t.when }
    ], claimRows.map((cl) => [
      `<code>${escapeHtml(cl.id)}</code>`,
      escapeHtml(cl.kind === "user_dispute" ? t.refund : t.claim),
      status(cl.refundStatus ?? cl.status),
      m(cl.amount, cl.currency),
      escapeHtml(cl.reason ?? "—"),
      escapeHtml(formatDateTime(cl.createdAt, c.language))
    ]), t.noClaims)

    const ledgerTable = table(t.ledger, [
      { label: t.entry },
      { label: t.type },
      { label: t.reference },
      { label: t.postings },
      { label: t.when }
    ], entries.map((e) => [
      `<code>${escapeHtml(e.id)}</code>`,
      `<code>${escapeHtml(e.type)}</code>`,
      escapeHtml(e.reference),
      (e.postings as ReadonlyArray<any>).map((x) => `${escapeHtml(x.book)}: ${m(x.amount, x.currency)}`).join("<br>"),
      escapeHtml(formatDateTime(e.createdAt, c.language))
    ]), t.noLedger)

    // The refund just asked for, as it stands now: it may have succeeded (or failed) since.
    const asked = c.query.get("refund")
    const refunds = claimRows.filter((cl) => cl.kind === "user_dispute")
    const askedRefund = refunds.find((cl) => cl.id === asked) ?? refunds[refunds.length - 1]
    const done = c.query.get("done") !== "refunded"
      ? ""
      : askedRefund?.refundStatus === "succeeded"
      ? notice(t.refundSucceeded)
      : askedRefund?.refundStatus === "failed"
      ? notice(t.refundFailed)
      : notice(t.refunded)
    const form = yield* refundForm(c, p, refund)
    return c.page(
      `${t.payment} ${p.id}`,
      `<p><a href="/console/payments">← ${escapeHtml(t.back)}</a></p><h1>${escapeHtml(t.payment)} <code>${escapeHtml(p.id)}</code></h1>${done}
<section><h2 id="summary-heading">${escapeHtml(t.summary)}</h2>${summary}</section>
${card}${form}
<section><h2 id="timeline-heading">${escapeHtml(t.timeline)}</h2>${timeline}</section>
<section><h2 id="claims-heading">${escapeHtml(t.claims)}</h2>${claimTable}</section>
<section><h2 id="ledger-heading">${escapeHtml(t.ledger)}</h2>${ledgerTable}</section>`,
      { section: "payments", ...(refund.status === undefined ? {} : { status: refund.status }) }
    )
  })

export const paymentDetailRoutes: ReadonlyArray<ConsoleRoute> = [
  {
    method: "GET",
    path: "/console/payments/:id",
    side: "merchant",
    handler: (c) => detailPage(c, paymentIdOf(c))
  }
]
