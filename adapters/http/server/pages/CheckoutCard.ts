/**
 * The hosted checkout's form posts and its card step, served beside `CheckoutPages.ts`:
 *
 * - `POST /checkout/{token}/pay` (form-encoded, what the page's form sends): for a card rail on a
 *   host with a card vault, the buyer's data is held on the session with a fresh state
 *   (`Checkout.holdForCard`) and the answer is 303 to the vault's card page
 *   (`{VAULT_URL}/fields?session=<jwt>&lang=`), whose session names this merchant and returns to
 *   `/checkout/{token}/card?state=`, for 10 minutes. The script lets a card rail's form post go
 *   as it is; a buyer without script gets the same, and for any other rail this is select
 *   followed by 303 to the payment's link, as the script would do.
 * - `GET /checkout/{token}/card?state=&card_token=` (the vault's 303): `Checkout.selectCard`
 *   checks the state, picks the rail of the card's brand and creates the payment with the card;
 *   then 303 to the payment's `nextAction` URL when it has one (3DS), else to its link, as for
 *   every rail.
 *
 * The card number and code go from the buyer's browser to the vault; this host only ever sees the
 * token. Refusals are pages in the buyer's language with a way back, never a stack trace.
 */
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import type { ApiError } from "../../../../core/ApiError.ts"
import { Checkout } from "../../../../core/checkout/Checkout.ts"
import { type CardStepRefused, cardStepTtlSeconds } from "../../../../core/checkout/CheckoutCard.ts"
import type { CheckoutSession } from "../../../../core/checkout/CheckoutSession.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import type { Payment } from "../../../../core/payments/Payment.ts"
import { checkoutUrlOf } from "../../../../core/payments/PaymentView.ts"
import { PaymentStore } from "../../../../core/ports/PaymentStore.ts"
import { issueCardSession } from "../../../vault/CardSessions.ts"
import { httpStatus } from "../../api/ErrorStatus.ts"
import { SelectBody } from "../../api/CheckoutApi.ts"
import { clientIp } from "../support/ClientIp.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { addressInputs } from "./CheckoutScript.ts"
import { cardStepText } from "./CheckoutCardText.ts"
import { escapeHtml, page, queryParam } from "./Html.ts"
import { type Language, languageFor, pageText } from "./PageText.ts"

/** Where a created payment sends the buyer first: its `nextAction` (a 3-D Secure challenge) while it has one. */
export const nextActionUrl = (payment: Payment): string | undefined =>
  payment.status === "pending" ? payment.nextAction?.url : undefined

const decodeSelect = Schema.decodeUnknownEffect(SelectBody)

/** The form's fields as select's body: empty fields are left out, the address only when some part of it was typed. */
const selectBodyOf = (form: UrlParams.UrlParams) => {
  const get = (name: string) => Option.getOrElse(UrlParams.getFirst(form, name), () => "").trim()
  const present = (name: string) => (get(name) === "" ? {} : { [name]: get(name) })
  const address = Object.fromEntries(addressInputs.map((i) => [i.name, get(i.name)]).filter(([, v]) => v !== ""))
  // One payment is no instalment plan; anything but a count is left to select's schema to refuse.
  const count = get("installments")
  return {
    ...present("paymentMethodId"),
    ...(count === "" || count === "1" ? {} : { installments: { count: /^\d{1,3}$/.test(count) ? Number(count) : count } }),
    customer: {
      ...present("fullName"),
      ...present("email"),
      ...present("documentId"),
      ...present("phone"),
      ...(Object.keys(address).length === 0 ? {} : { address })
    }
  }
}

export const CheckoutCardPages = Layer.unwrap(Effect.gen(function*() {
  const checkout = yield* Checkout
  const store = yield* PaymentStore
  const config = yield* EngineConfig
  const http = yield* HttpConfig
  const vault = Option.fromNullishOr(http.cardSessions)

  const problem = (language: Language, token: string, message: string, status: number) => {
    const t = cardStepText[language]
    return page(
      t.problemTitle,
      `<h1>${escapeHtml(t.problemTitle)}</h1><p role="alert">${escapeHtml(message)}</p>
       <p><a class="button" href="/checkout/${escapeHtml(encodeURIComponent(token))}">${escapeHtml(t.back)}</a></p>`,
      { status, lang: language }
    )
  }

  const expired = (language: Language) => {
    const t = pageText[language]
    return page(t.expiredTitle, `<h1>${escapeHtml(t.expiredHeading)}</h1><p>${escapeHtml(t.expiredBody)}</p>`, { status: 404, lang: language })
  }

  /** Where the buyer goes once the payment exists: its 3DS step, else its link (the provider's form). */
  const onward = (payment: Payment) => HttpServerResponse.redirect(nextActionUrl(payment) ?? checkoutUrlOf(config.checkoutUrl, payment), { status: 303 })

  /** A refusal as the buyer reads it; a completed session sends the buyer on to its payment. */
  const refused = (language: Language, token: string) => (error: ApiError | CardStepRefused) =>
    Effect.gen(function*() {
      const t = cardStepText[language]
      if (error._tag === "CardStepRefused") return problem(language, token, error.reason === "state" ? t.stepExpired : t.brandNotAccepted, error.reason === "state" ? 403 : 422)
      const status = httpStatus[error.code]
      switch (error.code) {
        case "checkout_session_not_found":
          return expired(language)
        case "checkout_session_already_completed": {
          const id = (error.details as { readonly existingTxId?: string | null } | undefined)?.existingTxId ?? null
          const payment = id === null ? Option.none() : yield* store.findById(id)
          return Option.isSome(payment) ? onward(payment.value) : problem(language, token, t.failed, status)
        }
        case "invalid_request":
        case "missing_required_fields":
          return problem(language, token, t.checkDetails, status)
        case "card_token_not_found":
          return problem(language, token, t.cardNotFound, status)
        case "card_expired":
          return problem(language, token, t.cardExpired, status)
        case "card_brand_mismatch":
        case "card_not_accepted":
          return problem(language, token, t.brandNotAccepted, status)
        case "card_vault_unavailable":
          return problem(language, token, t.vaultUnavailable, status)
        default:
          return problem(language, token, t.failed, status)
      }
    })

  const sessionOf = (token: string, acceptLanguage: string | undefined) =>
    Effect.map(checkout.get(token).pipe(Effect.option), (found) => ({
      found,
      language: languageFor(Option.match(found, { onNone: () => null, onSome: (s: CheckoutSession) => s.country }), acceptLanguage)
    }))

  const pay = Effect.gen(function*() {
    const { token = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const { found, language } = yield* sessionOf(token, request.headers["accept-language"])
    if (Option.isNone(found)) return expired(language)
    const form = yield* Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty)
    const input = yield* Effect.option(decodeSelect(selectBodyOf(form)))
    if (Option.isNone(input)) return problem(language, token, cardStepText[language].checkDetails, 400)
    const offered = (yield* checkout.methods(found.value)).find((o) => o.method.id === (input.value.paymentMethodId ?? found.value.paymentMethodId))
    return yield* Effect.gen(function*() {
      if (offered?.method.channel !== "CREDIT_CARD" || Option.isNone(vault)) {
        // The page shows the instalment select beside every rail when it runs no script: it counts for a card only.
        const { installments, ...rest } = input.value
        const chosen = offered?.method.channel === "CREDIT_CARD" && installments !== undefined ? { ...rest, installments } : rest
        return onward(yield* checkout.select(token, chosen, clientIp(request, http.trustedProxies)))
      }
      const { state } = yield* checkout.holdForCard(token, input.value)
      const returnUrl = `${config.checkoutUrl}/checkout/${encodeURIComponent(token)}/card?state=${encodeURIComponent(state)}`
      const session = yield* issueCardSession(vault.value, found.value.merchantId, { returnUrl, ttlSeconds: cardStepTtlSeconds })
      const target = new URL(`${session.vaultUrl}/fields`)
      target.searchParams.set("session", session.token)
      target.searchParams.set("lang", language)
      return HttpServerResponse.redirect(target.toString(), { status: 303 })
    }).pipe(Effect.catchTag("ApiError", refused(language, token)))
  })

  const returned = Effect.gen(function*() {
    const { token = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const { found, language } = yield* sessionOf(token, request.headers["accept-language"])
    if (Option.isNone(found)) return expired(language)
    const state = queryParam(request.url, "state") ?? ""
    const cardToken = queryParam(request.url, "card_token") ?? ""
    if (state === "" || cardToken === "") return problem(language, token, cardStepText[language].stepExpired, 400)
    return yield* checkout.selectCard(token, state, cardToken, clientIp(request, http.trustedProxies)).pipe(
      Effect.map(onward),
      Effect.catchTags({ ApiError: refused(language, token), CardStepRefused: refused(language, token) })
    )
  })

  return Layer.mergeAll(
    HttpRouter.add("POST", "/checkout/:token/pay", pay),
    HttpRouter.add("GET", "/checkout/:token/card", returned)
  )
}))
