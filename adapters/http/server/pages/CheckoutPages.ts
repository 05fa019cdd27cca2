/**
 * The buyer's hosted pages, served from `CHECKOUT_URL`:
 *
 * - `GET /checkout/{token}`: the amount in the buyer's currency, the session's routable methods
 *   grouped by kind with their icons, and the buyer fields the transaction needs, validated inline
 *   before the page calls select; the buyer then goes on to the provider's form. The phone and the
 *   postal address appear only when the chosen method needs them, by the rail's `requires` or
 *   because every provider of it does (`Checkout.methods`' `requiredFields`, each radio's
 *   `data-requires`); they go to select as `customer.phone` and `customer.address`, and a 422
 *   `missing_required_fields` naming them is shown next to them.
 * - `POST /checkout/{token}/select`: the same-origin twin of the API's select, for the page.
 * - `POST /checkout/{token}/pay` and `GET /checkout/{token}/card`: the form's own post (a card
 *   rail's way to the card vault's page, and the page without script) and the card step's
 *   return (`CheckoutCard.ts`). A card tile carries `data-card="vault"` when this host has a vault.
 * - The card rails' instalments: when the session's card rails are of one country, a select of
 *   the counts that country allows for the amount (`Installments.quoteOptions`, what
 *   `GET /installments` quotes), shown while a card rail is chosen; the count goes to select.
 * - `GET /c/{transactionId}?token=`: 307 to the provider's payment form, with the payment's link
 *   token (`PaymentView.checkoutUrlOf`); without it, 404 as for an unknown payment.
 *
 * Opening the page records the buyer's address (trusted forwarded hop, see `ClientIp.ts`).
 * Expired, unknown and already used sessions get a clear page, never a stack trace.
 */
import { type BigDecimal, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { apiError, type ApiErrorOf, catchCode } from "../../../../core/ApiError.ts"
import type { Channel } from "../../../../core/catalog/Channel.ts"
import { iconPath } from "../../../../core/catalog/Icons.ts"
import type { PaymentMethodDef } from "../../../../core/catalog/PaymentMethod.ts"
import { Checkout, type OfferedMethod } from "../../../../core/checkout/Checkout.ts"
import type { CheckoutSession } from "../../../../core/checkout/CheckoutSession.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import { type Conversion, Fx } from "../../../../core/fx/Fx.ts"
import type { BuyerAddress } from "../../../../core/ports/PaymentProvider.ts"
import { PaymentStore } from "../../../../core/ports/PaymentStore.ts"
import { TenancyStore } from "../../../../core/ports/TenancyStore.ts"
import type { FieldName } from "../../../../core/payments/BuyerData.ts"
import { quoteOptions } from "../../../../core/payments/Installments.ts"
import { Payments } from "../../../../core/payments/Payments.ts"
import { checkoutUrlOf, opensLink } from "../../../../core/payments/PaymentView.ts"
import { SelectBody } from "../../api/CheckoutApi.ts"
import { clientIp } from "../support/ClientIp.ts"
import { renderError } from "../support/ErrorRendering.ts"
import { HttpConfig } from "../support/HttpConfig.ts"
import { escapeHtml, formatAmount, merchantLink, page, queryParam } from "./Html.ts"
import { displayNames, type Language, languageFor, type PageText, pageText } from "./PageText.ts"
import { type AddressInput, addressInputs, addressStyle, script, tileStyle } from "./CheckoutScript.ts"
import { RequestId } from "../middleware/RequestLifecycle.ts"
import { CheckoutCardPages } from "./CheckoutCard.ts"
import { cspNonce } from "../middleware/SecurityHeaders.ts"

const channelOrder: ReadonlyArray<Channel> = ["ONLINE", "CASH", "CREDIT_CARD"]

/**
 * A group of more than `foldAbove` methods shows its first `shownPerGroup` (the catalog's order,
 * most used first) and folds the rest into a disclosure, so that on a phone the details form is
 * reached after a screen or so, not after thirty tiles.
 */
const foldAbove = 8
const shownPerGroup = 5

const expiredPage = (language: Language) => {
  const t = pageText[language]
  return page(t.expiredTitle, `<h1>${escapeHtml(t.expiredHeading)}</h1><p>${escapeHtml(t.expiredBody)}</p>`, { status: 404, lang: language })
}

const usedPage = (session: CheckoutSession, continueUrl: string, language: Language) => {
  const t = pageText[language]
  return page(
    t.usedTitle,
    `<h1>${escapeHtml(t.usedHeading)}</h1>
     <p>${escapeHtml(t.usedBody)}</p>
     <p><a class="button" href="${escapeHtml(continueUrl)}">${escapeHtml(t.usedContinue)}</a></p>
     ${merchantLink(session.returnUrl, t.backToShop)}`,
    { status: 409, lang: language }
  )
}

export const CheckoutPages = Layer.unwrap(Effect.gen(function*() {
  const checkout = yield* Checkout
  const payments = yield* Payments
  const fx = yield* Fx
  const tenancy = yield* TenancyStore
  const store = yield* PaymentStore
  const config = yield* EngineConfig
  const http = yield* HttpConfig

  const continueUrl = (session: CheckoutSession) =>
    Effect.gen(function*() {
      const payment = session.completedTxId === null ? Option.none() : yield* store.findById(session.completedTxId)
      return Option.match(payment, {
        onNone: () => `/c/${encodeURIComponent(session.completedTxId ?? "")}`,
        onSome: (p) => checkoutUrlOf(config.checkoutUrl, p)
      })
    })

  // What the buyer pays on a rail: the price itself when it is in the rail's currency.
  const localAmount = (headline: Conversion, method: PaymentMethodDef) =>
    fx.localOf(headline, method.currencies[0]!).pipe(Effect.map((c) => c.converted), Effect.option)

  // A card rail's form post goes to the host, which sends the buyer to the card vault's page.
  const viaVault = http.cardSessions !== undefined
  const methodOption = (offer: OfferedMethod, name: string, local: Option.Option<BigDecimal.BigDecimal>, checked: boolean) => {
    const m = offer.method
    const card = viaVault && m.channel === "CREDIT_CARD" ? ` data-card="vault"` : ""
    return `
    <li><label>
      <input type="radio" name="paymentMethodId" value="${escapeHtml(m.id)}" data-channel="${escapeHtml(m.channel)}" data-country="${escapeHtml(m.country)}" data-requires="${escapeHtml(offer.requiredFields.join(" "))}"${card}${checked ? " checked" : ""}>
      <img src="${escapeHtml(iconPath(m.id))}" alt="" width="48" height="30">
      <span>${escapeHtml(name)}${Option.match(local, { onNone: () => "", onSome: (a) => `<br><small class="muted">${escapeHtml(formatAmount(a, m.currencies[0]!))}</small>` })}</span>
    </label></li>`
  }

  const field = (
    name: string,
    label: string,
    value: string | null | undefined,
    options: { readonly type?: string; readonly autocomplete?: string | undefined; readonly hint?: string; readonly max?: number; readonly required?: boolean; readonly hintSlot?: boolean }
  ) => {
    const hint = options.hint ?? ""
    return `
    <label for="${name}">${escapeHtml(label)}</label>
    <input id="${name}" name="${name}" type="${options.type ?? "text"}"${options.autocomplete === undefined ? "" : ` autocomplete="${options.autocomplete}"`}${
      options.max === undefined ? "" : ` maxlength="${options.max}"`
    }${options.required === true ? " required" : ""} value="${escapeHtml(value ?? "")}" aria-describedby="${hint === "" ? "" : `hint-${name} `}error-${name}">
    ${hint === "" ? options.hintSlot === true ? "<small></small>" : "" : `<small class="muted" id="hint-${name}">${escapeHtml(hint)}</small>`}
    <p class="error" id="error-${name}" role="alert"></p>`
  }

  /** Where each address input sits in the wide layout's six columns. */
  const addressWidth: Readonly<Record<AddressInput, string>> = {
    street: "w4",
    number: "w2",
    complement: "w3",
    district: "w3",
    city: "w2",
    state: "w2",
    postalCode: "w2"
  }

  /** The buyer's address, for the methods whose providers need it (`OfferedMethod.requiredFields`). */
  const addressBlock = (t: PageText, address: BuyerAddress | null, shown: boolean) => `
        <fieldset data-needed-for="userAddress"${shown ? "" : " hidden"}>
          <legend>${escapeHtml(t.address)}</legend>
          <p class="error" id="error-address" role="alert"></p>
          <div class="address-grid">
            ${
    addressInputs.map((input) =>
      `<div class="${addressWidth[input.name]}">${
        field(input.name, t[input.name], address?.[input.name], {
          autocomplete: input.autocomplete,
          max: input.max,
          required: input.required,
          hint: input.name === "number" ? t.numberHint : "",
          hintSlot: true
        })
      }</div>`
    ).join("")
  }
          </div>
        </fieldset>`

  /**
   * The instalment counts of the session's card rails, when they are of one country and the
   * amount in its currency is known: the select the page shows while a card rail is chosen.
   */
  const installmentsBlock = (t: PageText, offered: ReadonlyArray<OfferedMethod>, locals: ReadonlyMap<string, Option.Option<BigDecimal.BigDecimal>>, shown: boolean) => {
    const cards = offered.map((o) => o.method).filter((m) => m.channel === "CREDIT_CARD")
    const countries = new Set(cards.map((m) => `${m.country} ${m.currencies[0]}`))
    const local = cards[0] === undefined ? Option.none() : locals.get(cards[0].id) ?? Option.none()
    if (countries.size !== 1 || Option.isNone(local)) return ""
    const currency = cards[0]!.currencies[0]!
    const options = quoteOptions(cards[0]!.country, local.value, currency)
    if (options.length < 2) return ""
    return `
        <div data-needed-for="installments"${shown ? "" : " hidden"}>
          <label for="installments">${escapeHtml(t.installments)}</label>
          <select id="installments" name="installments" aria-describedby="hint-installments">
            ${
      options.map((o) =>
        `<option value="${o.count}">${
          escapeHtml(o.count === 1
            ? t.payOnce(formatAmount(o.total, currency))
            : t.payInInstalments(o.count, formatAmount(o.instalmentAmount, currency), formatAmount(o.firstInstalmentAmount, currency)))
        }</option>`
      ).join("")
    }
          </select>
          <small class="muted" id="hint-installments">${escapeHtml(t.installmentsHint)}</small>
        </div>`
  }

  const show = Effect.gen(function*() {
    const { token = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const acceptLanguage = request.headers["accept-language"]
    const found = yield* checkout.get(token).pipe(Effect.option)
    if (Option.isNone(found)) return expiredPage(languageFor(null, acceptLanguage))
    const session = found.value
    const language = languageFor(session.country, acceptLanguage)
    const t = pageText[language]
    if (session.completedTxId !== null) return usedPage(session, yield* continueUrl(session), language)
    const ip = clientIp(request, http.trustedProxies)
    if (ip !== undefined) yield* checkout.recordBuyerIp(session, ip)

    const shop = yield* tenancy.findShop(session.shopId)
    const nonce = yield* cspNonce
    const offered = yield* checkout.methods(session)
    const methods = offered.map((o) => o.method)
    const headline = yield* payments.headline(session.amount, session.currency).pipe(Effect.option)
    const locals = new Map<string, Option.Option<BigDecimal.BigDecimal>>()
    for (const { method: m } of offered) locals.set(m.id, Option.isNone(headline) ? Option.none() : yield* localAmount(headline.value.conversion, m))
    // The amount in the buyer's currency: the rails' currency when they share one, else as created.
    const currencies = [...new Set(methods.map((m) => m.currencies[0]!))]
    const single = currencies.length === 1 ? methods[0] : undefined
    const amountText = single !== undefined && Option.isSome(locals.get(single.id)!)
      ? formatAmount(Option.getOrThrow(locals.get(single.id)!), currencies[0]!)
      : formatAmount(session.amount, session.currency)
    const c = session.customer
    const fullName = [c.firstName, c.lastName].filter((x) => x !== null).join(" ")
    const names = displayNames(methods, language)
    // One method is chosen already: what it needs is shown before any script runs.
    const only = offered.length === 1 ? offered[0] : undefined
    const needs = (field: FieldName) => only?.requiredFields.includes(field) === true
    const tiles = (group: ReadonlyArray<OfferedMethod>) =>
      group.map((o) =>
        methodOption(o, names.get(o.method.id) ?? o.method.name, single === undefined ? locals.get(o.method.id) ?? Option.none() : Option.none(), only !== undefined)
      ).join("")
    const grid = channelOrder
      .map((channel) => {
        const inGroup = offered.filter((o) => o.method.channel === channel)
        const folds = inGroup.length > foldAbove
        const shown = folds ? inGroup.slice(0, shownPerGroup) : inGroup
        const folded = folds ? inGroup.slice(shownPerGroup) : []
        return inGroup.length === 0 ? "" : `
          <fieldset><legend>${escapeHtml(t.channel[channel])}</legend><ul class="methods">${tiles(shown)}</ul>${
          folded.length === 0 ? "" : `
            <details class="more"><summary>${escapeHtml(t.moreMethods(folded.length))}</summary><ul class="methods">${tiles(folded)}</ul></details>`
        }</fieldset>`
      })
      .join("")
    const body = methods.length === 0
      ? `<h1>${escapeHtml(t.noMethodHeading)}</h1><p>${escapeHtml(t.noMethodBody)}</p>`
      : `
      <p class="muted">${escapeHtml(Option.match(shop, { onNone: () => "", onSome: (s) => s.name }))}</p>
      <h1>${escapeHtml(t.heading)}</h1>
      <p class="amount" data-testid="amount">${escapeHtml(amountText)}</p>
      <form id="checkout" method="post" action="/checkout/${escapeHtml(encodeURIComponent(token))}/pay" novalidate>
        <h2>${escapeHtml(t.payWith)}</h2>
        ${grid}
        <p class="error" id="error-paymentMethodId" role="alert"></p>
        <h2>${escapeHtml(t.yourDetails)}</h2>
        ${field("fullName", t.fullName, fullName === "" ? null : fullName, { autocomplete: "name", max: 120, required: true })}
        ${field("email", t.email, c.email, { type: "email", autocomplete: "email", max: 254, required: true })}
        ${field("documentId", t.documentId, null, { autocomplete: "off", hint: t.documentHint, max: 40, required: true })}
        <div data-needed-for="userPhone"${needs("userPhone") ? "" : " hidden"}>
          ${field("phone", t.phone, c.phone, { type: "tel", autocomplete: "tel", hint: t.phoneHint, max: 40, required: true })}
        </div>
        ${addressBlock(t, c.address, needs("userAddress"))}
        ${installmentsBlock(t, offered, locals, only === undefined || only.method.channel === "CREDIT_CARD")}
        <p class="error" id="form-error" role="alert"></p>
        <p><button type="submit">${escapeHtml(t.submit)}</button></p>
      </form>
      ${merchantLink(session.returnUrl, t.cancel)}
      ${script(token, t.script, nonce)}`
    return page(t.title, body, { lang: language, head: addressStyle + tileStyle })
  })

  const selectForPage = Effect.gen(function*() {
    const { token = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = Option.getOrElse(yield* Effect.serviceOption(RequestId), () => "")
    /** A completed session: the page sends the buyer on to where the payment continues. */
    const completed = (error: ApiErrorOf<"checkout_session_already_completed">) =>
      Effect.gen(function*() {
        const session = yield* checkout.get(token).pipe(Effect.option)
        if (Option.isNone(session)) return renderError(error, requestId, config.publicUrl)
        const url = yield* continueUrl(session.value)
        return renderError(apiError(error.code, error.message, { existingTxId: session.value.completedTxId, continueUrl: url }), requestId, config.publicUrl)
      })
    return yield* Effect.gen(function*() {
      const payload = yield* HttpServerRequest.schemaBodyJson(SelectBody).pipe(
        Effect.mapError(() => ({ _tag: "BadBody" as const }))
      )
      const payment = yield* checkout.select(token, payload, clientIp(request, http.trustedProxies))
      return yield* HttpServerResponse.json({ transactionId: payment.id, checkoutUrl: checkoutUrlOf(config.checkoutUrl, payment), status: payment.status })
    }).pipe(
      Effect.catchTag("BadBody", () => HttpServerResponse.json({ error: { code: "invalid_request", message: "Expected a JSON body", requestId } }, { status: 400 })),
      catchCode("checkout_session_already_completed", completed),
      Effect.catchTag("ApiError", (error) => Effect.succeed(renderError(error, requestId, config.publicUrl))),
      Effect.orDie
    )
  })

  // The payment's link token opens it; an id alone, or another payment's token, answers as an
  // unknown id does (same page, same status), so a guessed id learns nothing.
  const redirectToProvider = Effect.gen(function*() {
    const { transactionId = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = queryParam(request.url, "token")
    const payment = Option.filter(yield* store.findById(transactionId), (p) => opensLink(p, token))
    if (Option.isNone(payment)) {
      return page("Payment not found", "<h1>Payment not found</h1><p>This payment link does not exist.</p>", { status: 404 })
    }
    return HttpServerResponse.redirect(payment.value.paymentFormUrl, { status: 307 })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/checkout/:token", show),
    HttpRouter.add("POST", "/checkout/:token/select", selectForPage),
    HttpRouter.add("GET", "/c/:transactionId", redirectToProvider),
    CheckoutCardPages
  )
}))

