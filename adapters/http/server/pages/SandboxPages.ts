/**
 * The sandbox provider's payment form (`paymentFormUrl` of sandbox charges): what a buyer sees at
 * the provider, with buttons to pay or fail the charge. Choosing one makes the sandbox provider
 * send its signed callback, which the engine verifies and applies like any provider's. It speaks
 * the buyer's language as the checkout pages do (`PageText.languageFor`: the payment's country,
 * unless the browser asks for a language the pages speak).
 *
 * The form opens with the secret its URL carries (`?secret=`, drawn for the charge by the sandbox
 * provider), and a POST needs it in its body: without it, or with another charge's, the answer is
 * the 404 of an unknown payment, before anything else is read, so neither a guessed id nor a
 * cross-site form can pay or fail a payment, nor learn that it exists.
 */
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { Mac } from "effect/crypto"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PaymentStore } from "../../../../core/ports/PaymentStore.ts"
import { publicStatus } from "../../../../core/payments/PaymentState.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { signatureHeader } from "../../../../core/Signatures.ts"
import { opensForm, sandboxProviderId } from "../../../../core/ports/SandboxForm.ts"
import { merchantUrlProblem } from "../../../../core/MerchantUrl.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { escapeHtml, formatAmount, page, queryParam } from "./Html.ts"
import { type Language, languageFor, pageText } from "./PageText.ts"

const Action = Schema.Struct({ action: Schema.Literals(["paid", "failed"]) })
const Secret = Schema.Struct({ secret: Schema.String })

/** `returnUrl` with `transactionId` and `status` added to its query (its own parameters kept). */
export const withOutcome = (returnUrl: string, transactionId: string, status: string) => {
  const url = new URL(returnUrl)
  url.searchParams.set("transactionId", transactionId)
  url.searchParams.set("status", status)
  return url.toString()
}

const notFoundPage = (language: Language) => {
  const t = pageText[language].sandbox
  return page(t.notFoundTitle, `<h1>${escapeHtml(t.notFoundTitle)}</h1><p>${escapeHtml(t.notFoundBody)}</p>`, { status: 404, lang: language })
}

/** The buyer's language: the payment's country, unless the browser asks for one the pages speak. */
const languageOf = (country: string | null) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => languageFor(country, request.headers["accept-language"]))

export const SandboxPages = Layer.unwrap(Effect.gen(function*() {
  const store = yield* PaymentStore
  const payments = yield* Payments
  const config = yield* HttpConfig
  const mac = yield* Mac.Mac

  /** The sandbox payment `id`, when `secret` is its form's. */
  const load = (id: string, secret: string | undefined) =>
    Effect.map(
      store.findById(id),
      Option.filter((p) => p.environment === "sandbox" && p.provider === sandboxProviderId && opensForm(p.paymentFormUrl, secret))
    )

  const show = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const secret = queryParam(request.url, "secret")
    const found = yield* load(id, secret)
    if (Option.isNone(found)) return notFoundPage(yield* languageOf(null))
    const p = found.value
    const language = yield* languageOf(p.country)
    const t = pageText[language].sandbox
    const status = publicStatus(p.status)
    const action = `/sandbox/pay/${encodeURIComponent(p.id)}`
    const buttons = status === "pending"
      ? `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="secret" value="${escapeHtml(secret ?? "")}"><p>
           <button name="action" value="paid">${escapeHtml(t.pay)}</button>
           <button class="secondary" name="action" value="failed">${escapeHtml(t.fail)}</button></p></form>`
      : ""
    // The sentence is translated whole; the id and the status are marked up inside it.
    const sentence = escapeHtml(t.paymentIs("\u0000id", "\u0000status"))
      .replace("\u0000id", `<code>${escapeHtml(p.id)}</code>`)
      .replace("\u0000status", `<strong data-testid="status" data-status="${escapeHtml(status)}">${escapeHtml(t.status[status])}</strong>`)
    return page(`Sandbox · ${p.methodName}`, `
      <p class="muted">${escapeHtml(t.notice)}</p>
      <h1>${escapeHtml(p.methodName)}</h1>
      <p class="amount" data-testid="amount">${escapeHtml(formatAmount(p.amountLocal, p.currencyLocal))}</p>
      <p>${sentence}</p>
      ${buttons}`, { lang: language, head: "<style>code{overflow-wrap:anywhere}</style>" })
  })

  const act = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const formSecret = Option.getOrUndefined(Option.map(yield* HttpServerRequest.schemaBodyUrlParams(Secret).pipe(Effect.option), (s) => s.secret))
    const found = yield* load(id, formSecret)
    if (Option.isNone(found)) return notFoundPage(yield* languageOf(null))
    const form = yield* HttpServerRequest.schemaBodyUrlParams(Action).pipe(Effect.option)
    if (Option.isNone(form)) {
      const language = yield* languageOf(found.value.country)
      const t = pageText[language].sandbox
      return page(t.badRequest, `<h1>${escapeHtml(t.badRequest)}</h1>`, { status: 400, lang: language })
    }
    const p = found.value
    const secret = Redacted.value(config.sandboxCallbackSecret)
    const body = JSON.stringify({ reference: p.providerRef, transactionId: p.id, status: form.value.action === "paid" ? "completed" : "failed" })
    const signature = yield* signatureHeader(body, [secret]).pipe(Effect.provideService(Mac.Mac, mac))
    yield* payments.handleCallback(sandboxProviderId, { "x-sandbox-signature": signature }, body).pipe(Effect.orDie)
    // A return URL stored before merchant URLs were checked, and not one now, is not followed.
    if (p.returnUrl === null || merchantUrlProblem(p.returnUrl) !== undefined) return HttpServerResponse.redirect(`/sandbox/pay/${encodeURIComponent(p.id)}?secret=${encodeURIComponent(formSecret ?? "")}`, { status: 303 })
    // Back to the shop, telling it which payment and how it ended (the shop confirms with the API).
    const status = Option.match(yield* store.findById(p.id), { onNone: () => p.status, onSome: (now) => now.status })
    return HttpServerResponse.redirect(withOutcome(p.returnUrl, p.id, status), { status: 303 })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/sandbox/pay/:id", show),
    HttpRouter.add("POST", "/sandbox/pay/:id", act)
  )
}))
