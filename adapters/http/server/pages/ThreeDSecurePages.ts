/**
 * 3-D Secure pages: the engine's return page, and the sandbox provider's challenge page.
 *
 * `GET /3ds/return/{transactionId}` is where a provider sends the buyer after a challenge (every
 * card charge's `returnUrl`, `ThreeDSecure.ts`). It asks the payment's provider how the charge
 * stands (the reconcile poll's step, `Payments.refresh`), which applies only what the provider
 * says, and sends the buyer on to the payment's `returnUrl` with `transactionId` (the shop
 * confirms the outcome with the API), or shows a plain page. It needs no secret: anyone holding
 * a transaction id can make the engine ask the provider once more, which changes nothing the
 * provider has not said; and what it answers tells nothing of the payment (not its status, not
 * its hosted link), only where the shop asked its buyers to go back to.
 *
 * `/sandbox/3ds/{transactionId}?secret=` is the sandbox's challenge (the `nextAction` of its
 * challenge test cards), opened with the secret of the charge's form as the sandbox form is:
 * "Complete authentication" and "Fail authentication" make the sandbox provider send its signed
 * callback, then the buyer goes to the return page, as from an issuer's challenge.
 */
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { Mac } from "effect/crypto"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { merchantUrlProblem } from "../../../../core/MerchantUrl.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { PaymentStore } from "../../../../core/ports/PaymentStore.ts"
import { opensForm, sandboxProviderId } from "../../../../core/ports/SandboxForm.ts"
import { signatureHeader } from "../../../../core/Signatures.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { escapeHtml, formatAmount, page, queryParam } from "./Html.ts"
import { languageFor, pageText } from "./PageText.ts"

const Choice = Schema.Struct({ secret: Schema.String, action: Schema.Literals(["authenticated", "failed"]) })

/** `returnUrl` with `transactionId` added to its query (its own parameters kept). */
const withTransaction = (returnUrl: string, transactionId: string) => {
  const url = new URL(returnUrl)
  url.searchParams.set("transactionId", transactionId)
  return url.toString()
}

const languageOf = (country: string | null) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => languageFor(country, request.headers["accept-language"]))

export const ThreeDSecurePages = Layer.unwrap(Effect.gen(function*() {
  const store = yield* PaymentStore
  const payments = yield* Payments
  const config = yield* HttpConfig
  const mac = yield* Mac.Mac

  const notFound = (country: string | null) =>
    Effect.map(languageOf(country), (language) => {
      const t = pageText[language].threeDSecure
      return page(t.notFoundTitle, `<h1>${escapeHtml(t.notFoundTitle)}</h1>`, { status: 404, lang: language })
    })

  const returned = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const after = yield* payments.refresh(id)
    if (Option.isNone(after) || after.value.channel !== "CREDIT_CARD") return yield* notFound(null)
    const p = after.value
    // A return URL stored before merchant URLs were checked, and not one now, is not followed.
    if (p.returnUrl !== null && merchantUrlProblem(p.returnUrl) === undefined) {
      return HttpServerResponse.redirect(withTransaction(p.returnUrl, p.id), { status: 303 })
    }
    const language = yield* languageOf(p.country)
    const t = pageText[language].threeDSecure
    return page(t.title, `<h1>${escapeHtml(t.title)}</h1><p data-testid="returned">${escapeHtml(t.body)}</p>`, { lang: language })
  })

  /** The sandbox payment `id` waiting for its challenge, when `secret` is its form's. */
  const challenged = (id: string, secret: string | undefined) =>
    Effect.map(
      store.findById(id),
      Option.filter((p) =>
        p.environment === "sandbox" && p.provider === sandboxProviderId && p.status === "pending" && p.nextAction !== null &&
        opensForm(p.paymentFormUrl, secret)
      )
    )

  const challenge = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const secret = queryParam((yield* HttpServerRequest.HttpServerRequest).url, "secret")
    const found = yield* challenged(id, secret)
    if (Option.isNone(found)) return yield* notFound(null)
    const p = found.value
    const language = yield* languageOf(p.country)
    const t = pageText[language].sandbox
    const card = p.card === undefined ? "" : `<p class="muted" data-testid="card">${escapeHtml(`${p.card.brand} •••• ${p.card.last4}`)}</p>`
    return page(t.challengeTitle, `
      <p class="muted">${escapeHtml(t.notice)}</p>
      <h1>${escapeHtml(t.challengeTitle)}</h1>
      <p class="amount" data-testid="amount">${escapeHtml(formatAmount(p.amountLocal, p.currencyLocal))}</p>
      ${card}
      <p>${escapeHtml(t.challengeBody)}</p>
      <form method="post" action="${escapeHtml(`/sandbox/3ds/${encodeURIComponent(p.id)}`)}"><input type="hidden" name="secret" value="${escapeHtml(secret ?? "")}"><p>
        <button name="action" value="authenticated">${escapeHtml(t.authenticate)}</button>
        <button class="secondary" name="action" value="failed">${escapeHtml(t.failAuthentication)}</button></p></form>`, { lang: language })
  })

  const choose = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const form = yield* HttpServerRequest.schemaBodyUrlParams(Choice).pipe(Effect.option)
    const found = yield* challenged(id, Option.getOrUndefined(Option.map(form, (f) => f.secret)))
    if (Option.isNone(found) || Option.isNone(form)) return yield* notFound(null)
    const p = found.value
    const body = JSON.stringify({
      reference: p.providerRef,
      transactionId: p.id,
      status: form.value.action === "authenticated" ? "completed" : "authentication_failed"
    })
    const signature = yield* signatureHeader(body, [Redacted.value(config.sandboxCallbackSecret)]).pipe(Effect.provideService(Mac.Mac, mac))
    yield* payments.handleCallback(sandboxProviderId, { "x-sandbox-signature": signature }, body).pipe(Effect.orDie)
    // As an issuer's challenge does: back to the charge's return page, which asks the provider.
    return HttpServerResponse.redirect(`/3ds/return/${encodeURIComponent(p.id)}`, { status: 303 })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/3ds/return/:id", returned),
    HttpRouter.add("GET", "/sandbox/3ds/:id", challenge),
    HttpRouter.add("POST", "/sandbox/3ds/:id", choose)
  )
}))
