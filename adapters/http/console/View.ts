/**
 * The pieces every console page is made of, so that a table, a field with its error, a status or
 * an amount looks and reads the same everywhere. Every argument is text: these escape it.
 */
import * as Money from "../../../core/Money.ts"
import { escapeHtml } from "../server/pages/Html.ts"
import { type ApiReply, errorOf } from "./ApiClient.ts"
import type { Language } from "./Text.ts"

const locales: Readonly<Record<Language, string>> = { en: "en-US", pt: "pt-BR", es: "es-MX" }

/** `1,234.50 BRL`, with the currency's minor digits (display only: no arithmetic is done on it). */
export const money = (amount: number | string | null | undefined, currency: string, language: Language = "en") => {
  if (amount === null || amount === undefined || amount === "") return "—"
  const digits = Money.exponent(currency)
  const value = Number(amount)
  if (!Number.isFinite(value)) return `${escapeHtml(String(amount))} ${escapeHtml(currency)}`
  return `${escapeHtml(value.toLocaleString(locales[language], { minimumFractionDigits: digits, maximumFractionDigits: digits }))} ${escapeHtml(currency)}`
}

const good = new Set(["paid", "succeeded", "completed", "active", "delivered", "won", "approved", "settled", "closed", "resolved", "healthy", "ok"])
const bad = new Set(["failed", "rejected", "lost", "dead_letter", "expired", "cancelled", "canceled", "chargeback", "open_circuit", "down", "returned"])

/**
 * A status as a badge: green for done, red for failed, amber for waiting. `tone` colours a
 * translated word the sets above cannot know.
 */
export const status = (value: string | null | undefined, tone?: "good" | "bad" | "wait") => {
  const text = value ?? "—"
  const kind = tone !== undefined ? ` ${tone}` : good.has(text) ? " good" : bad.has(text) ? " bad" : text === "—" ? "" : " wait"
  return `<span class="status${kind}">${escapeHtml(text)}</span>`
}

export interface Column {
  readonly label: string
  readonly numeric?: boolean
}

/**
 * A table in a scrolling region (a narrow screen scrolls the table, never the page). `rows` are
 * already-escaped cells.
 */
export const table = (label: string, columns: ReadonlyArray<Column>, rows: ReadonlyArray<ReadonlyArray<string>>, empty: string) =>
  rows.length === 0
    ? `<p class="muted">${escapeHtml(empty)}</p>`
    : `<div class="table-wrap" tabindex="0" role="region" aria-label="${escapeHtml(label)}"><table><thead><tr>${
      columns.map((c) => `<th scope="col"${c.numeric === true ? ' class="num"' : ""}>${escapeHtml(c.label)}</th>`).join("")
    }</tr></thead><tbody>${
      rows.map((cells) => `<tr>${cells.map((cell, i) => `<td${columns[i]?.numeric === true ? ' class="num"' : ""}>${cell}</td>`).join("")}</tr>`).join("")
    }</tbody></table></div>`

export interface FieldOptions {
  readonly type?: string
  readonly value?: string | undefined
  readonly error?: string | undefined
  readonly hint?: string | undefined
  readonly required?: boolean
  /** A select's options: value and label. */
  readonly options?: ReadonlyArray<readonly [string, string]>
  readonly attributes?: string
}

/** A labelled input (or select, or textarea) with its error told on the field. */
export const field = (id: string, label: string, options: FieldOptions = {}) => {
  const described = [options.hint === undefined ? undefined : `${id}-hint`, options.error === undefined ? undefined : `${id}-error`].filter((x) => x !== undefined)
  const common = `id="${id}" name="${id}"${options.required === true ? " required" : ""}${options.error === undefined ? "" : ' aria-invalid="true"'}${
    described.length === 0 ? "" : ` aria-describedby="${described.join(" ")}"`
  }${options.attributes === undefined ? "" : ` ${options.attributes}`}`
  const control = options.options !== undefined
    ? `<select ${common}>${options.options.map(([value, text]) => `<option value="${escapeHtml(value)}"${value === (options.value ?? "") ? " selected" : ""}>${escapeHtml(text)}</option>`).join("")}</select>`
    : options.type === "textarea"
    ? `<textarea ${common}>${escapeHtml(options.value ?? "")}</textarea>`
    : `<input ${common} type="${options.type ?? "text"}" value="${escapeHtml(options.value ?? "")}">`
  return `<div><label for="${id}">${escapeHtml(label)}</label>${control}${
    options.hint === undefined ? "" : `<p class="muted" id="${id}-hint">${escapeHtml(options.hint)}</p>`
  }${options.error === undefined ? "" : `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>`}</div>`
}

export const notice = (text: string) => `<p class="notice" role="status">${escapeHtml(text)}</p>`

/** A failed API call, as the API told it (code, message and request id, for support). */
export const problem = (reply: ApiReply) => {
  const error = errorOf(reply)
  return `<div class="problem" role="alert"><strong>${escapeHtml(error.code)}</strong>: ${escapeHtml(error.message)}${
    error.requestId === "" ? "" : ` <span class="muted">(${escapeHtml(error.requestId)})</span>`
  }</div>`
}

/** A definition list of label and already-escaped value pairs, in a card. */
export const facts = (pairs: ReadonlyArray<readonly [string, string]>) =>
  `<dl class="card">${pairs.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`).join("")}</dl>`

export const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`

/**
 * The pager of a list read by offset: the range shown and the total, with links to the page
 * before (`back`) and after (`forward`) where there is one; nothing when one page holds it all.
 */
export const offsetPager = (options: {
  readonly label: string
  readonly at: (offset: number) => string
  readonly offset: number
  readonly total: number
  readonly pageSize: number
  readonly back: string
  readonly forward: string
}) => {
  const { at, offset, total, pageSize } = options
  if (total <= pageSize) return ""
  return `<nav class="pager" aria-label="${escapeHtml(options.label)}">${offset > 0 ? link(at(Math.max(0, offset - pageSize)), options.back) : ""}<span>${
    offset + 1
  }–${Math.min(total, offset + pageSize)} / ${total}</span>${offset + pageSize < total ? link(at(offset + pageSize), options.forward) : ""}</nav>`
}
