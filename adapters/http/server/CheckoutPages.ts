/**
 * The buyer's hosted pages, served from `CHECKOUT_URL`:
 *
 * - `GET /checkout/{token}`: the amount in the buyer's currency, the session's routable methods
 *   grouped by kind with their icons, and the buyer fields the transaction needs, validated inline
 *   before the page calls select; the buyer then goes on to the provider's form.
 * - `POST /checkout/{token}/select`: the same-origin twin of the API's select, for the page.
 * - `GET /c/{transactionId}`: 307 to the provider's payment form.
 *
 * Opening the page records the buyer's address (trusted forwarded hop, see `ClientIp.ts`).
 * Expired, unknown and already used sessions get a clear page, never a stack trace.
 */
import { type BigDecimal, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type ApiError, apiError } from "../../../core/ApiError.ts"
import type { Channel } from "../../../core/catalog/Channel.ts"
import { iconPath } from "../../../core/catalog/Icons.ts"
import type { PaymentMethodDef } from "../../../core/catalog/PaymentMethod.ts"
import { Checkout } from "../../../core/checkout/Checkout.ts"
import type { CheckoutSession } from "../../../core/checkout/CheckoutSession.ts"
import { EngineConfig } from "../../../core/EngineConfig.ts"
import { Fx } from "../../../core/fx/Fx.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import { Payments } from "../../../core/payments/Payments.ts"
import { checkoutUrlOf } from "../../../core/payments/PaymentView.ts"
import { SelectBody } from "../api/CheckoutApi.ts"
import { clientIp } from "./ClientIp.ts"
import { renderError } from "./ErrorRendering.ts"
import { HttpConfig } from "./HttpConfig.ts"
import { escapeHtml, formatAmount, page } from "./Html.ts"
import { displayNames, type Language, languageFor, type PageText, pageText } from "./PageText.ts"
import { RequestId } from "./RequestLifecycle.ts"

const channelOrder: ReadonlyArray<Channel> = ["ONLINE", "CASH", "CREDIT_CARD"]

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
     ${session.returnUrl === null ? "" : `<p><a href="${escapeHtml(session.returnUrl)}">${escapeHtml(t.backToShop)}</a></p>`}`,
    { status: 409, lang: language }
  )
}

/** `</script>` cannot end the page's JSON early: `<` is escaped inside the script. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")

const script = (token: string, messages: PageText["script"]) => `
<script>
(() => {
  const form = document.getElementById("checkout");
  const email = /^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+$/;
  const phone = /^\\+[0-9][0-9 ()-]{6,38}$/;
  const fieldNames = { userName: "fullName", email: "email", documentId: "documentId", userPhone: "phone" };
  const text = ${scriptJson(messages)};
  const setError = (name, message) => {
    const input = form.elements[name];
    const error = document.getElementById("error-" + name);
    if (error) error.textContent = message || "";
    if (input && input.setAttribute) input.setAttribute("aria-invalid", message ? "true" : "false");
  };
  const check = () => {
    const data = new FormData(form);
    const method = form.querySelector("input[name=paymentMethodId]:checked");
    const errors = {};
    const name = String(data.get("fullName") || "").trim();
    if (name.split(/\\s+/).filter(Boolean).length < 2) errors.fullName = text.name;
    if (!email.test(String(data.get("email") || "").trim())) errors.email = text.email;
    if (String(data.get("documentId") || "").trim() === "") errors.documentId = text.document;
    const phoneValue = String(data.get("phone") || "").trim();
    const needsPhone = method && method.dataset.requiresPhone === "true";
    if ((needsPhone || phoneValue !== "") && !phone.test(phoneValue)) errors.phone = text.phone;
    if (!method) errors.paymentMethodId = text.method;
    for (const key of ["fullName", "email", "documentId", "phone", "paymentMethodId"]) setError(key, errors[key]);
    return errors;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const errors = check();
    const first = Object.keys(errors)[0];
    if (first) {
      const target = first === "paymentMethodId" ? form.querySelector("input[name=paymentMethodId]") : form.elements[first];
      if (target && target.focus) target.focus();
      return;
    }
    const data = new FormData(form);
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    document.getElementById("form-error").textContent = "";
    const body = {
      paymentMethodId: String(form.querySelector("input[name=paymentMethodId]:checked").value),
      customer: {
        fullName: String(data.get("fullName")).trim(),
        email: String(data.get("email")).trim(),
        documentId: String(data.get("documentId")).trim(),
        ...(String(data.get("phone") || "").trim() === "" ? {} : { phone: String(data.get("phone")).trim() })
      }
    };
    try {
      const response = await fetch(${JSON.stringify(`/checkout/${encodeURIComponent(token)}/select`)}, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body)
      });
      const result = await response.json();
      if (response.ok) { window.location.assign(result.checkoutUrl); return; }
      const error = result.error || {};
      if (error.code === "checkout_session_already_completed" && error.details && error.details.continueUrl) {
        window.location.assign(error.details.continueUrl); return;
      }
      if (error.code === "missing_required_fields") {
        for (const field of error.details.missingFields || []) setError(fieldNames[field] || field, text.check);
      }
      document.getElementById("form-error").textContent = text.failed;
    } catch (e) {
      document.getElementById("form-error").textContent = text.offline;
    }
    submit.disabled = false;
  });
})();
</script>`

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

  const localAmount = (usd: BigDecimal.BigDecimal, method: PaymentMethodDef) =>
    fx.fromUsd(usd, method.currencies[0]!).pipe(Effect.map((c) => c.converted), Effect.option)

  const methodOption = (m: PaymentMethodDef, name: string, local: Option.Option<BigDecimal.BigDecimal>, checked: boolean) => `
    <li><label>
      <input type="radio" name="paymentMethodId" value="${escapeHtml(m.id)}" data-requires-phone="${m.requires.includes("userPhone")}"${checked ? " checked" : ""}>
      <img src="${escapeHtml(iconPath(m.id))}" alt="" width="48" height="30">
      <span>${escapeHtml(name)}${Option.match(local, { onNone: () => "", onSome: (a) => `<br><small class="muted">${escapeHtml(formatAmount(a, m.currencies[0]!))}</small>` })}</span>
    </label></li>`

  const field = (name: string, label: string, value: string | null, type: string, autocomplete: string, hint = "") => `
    <label for="${name}">${escapeHtml(label)}</label>
    <input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" value="${escapeHtml(value ?? "")}" aria-describedby="error-${name}">
    ${hint === "" ? "" : `<small class="muted">${escapeHtml(hint)}</small>`}
    <p class="error" id="error-${name}" role="alert"></p>`

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
    const methods = yield* checkout.methods(session)
    const headline = yield* payments.headline(session.amount, session.currency).pipe(Effect.option)
    const usd = Option.map(headline, (h) => h.conversion.converted)
    const locals = new Map<string, Option.Option<BigDecimal.BigDecimal>>()
    for (const m of methods) locals.set(m.id, Option.isNone(usd) ? Option.none() : yield* localAmount(usd.value, m))
    // The amount in the buyer's currency: the rails' currency when they share one, else as created.
    const currencies = [...new Set(methods.map((m) => m.currencies[0]!))]
    const single = currencies.length === 1 ? methods[0] : undefined
    const amountText = single !== undefined && Option.isSome(locals.get(single.id)!)
      ? formatAmount(Option.getOrThrow(locals.get(single.id)!), currencies[0]!)
      : formatAmount(session.amount, session.currency)
    const c = session.customer
    const fullName = [c.firstName, c.lastName].filter((x) => x !== null).join(" ")
    const names = displayNames(methods, language)
    const grid = channelOrder
      .map((channel) => {
        const inGroup = methods.filter((m) => m.channel === channel)
        return inGroup.length === 0 ? "" : `
          <fieldset><legend>${escapeHtml(t.channel[channel])}</legend><ul class="methods">
            ${inGroup.map((m) => methodOption(m, names.get(m.id) ?? m.name, single === undefined ? locals.get(m.id) ?? Option.none() : Option.none(), methods.length === 1)).join("")}
          </ul></fieldset>`
      })
      .join("")
    const body = methods.length === 0
      ? `<h1>${escapeHtml(t.noMethodHeading)}</h1><p>${escapeHtml(t.noMethodBody)}</p>`
      : `
      <p class="muted">${escapeHtml(Option.match(shop, { onNone: () => "", onSome: (s) => s.name }))}</p>
      <h1>${escapeHtml(t.heading)}</h1>
      <p class="amount" data-testid="amount">${escapeHtml(amountText)}</p>
      <form id="checkout" novalidate>
        <h2>${escapeHtml(t.payWith)}</h2>
        ${grid}
        <p class="error" id="error-paymentMethodId" role="alert"></p>
        <h2>${escapeHtml(t.yourDetails)}</h2>
        ${field("fullName", t.fullName, fullName === "" ? null : fullName, "text", "name")}
        ${field("email", t.email, c.email, "email", "email")}
        ${field("documentId", t.documentId, null, "text", "off", t.documentHint)}
        ${field("phone", t.phone, c.phone, "tel", "tel", t.phoneHint)}
        <p class="error" id="form-error" role="alert"></p>
        <p><button type="submit">${escapeHtml(t.submit)}</button></p>
      </form>
      ${session.returnUrl === null ? "" : `<p><a href="${escapeHtml(session.returnUrl)}">${escapeHtml(t.cancel)}</a></p>`}
      ${script(session.token, t.script)}`
    return page(t.title, body, { lang: language })
  })

  const selectForPage = Effect.gen(function*() {
    const { token = "" } = yield* HttpRouter.params
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = Option.getOrElse(yield* Effect.serviceOption(RequestId), () => "")
    const answer = (error: ApiError) =>
      Effect.gen(function*() {
        if (error.code === "checkout_session_already_completed") {
          const session = yield* checkout.get(token).pipe(Effect.option)
          if (Option.isSome(session)) {
            const url = yield* continueUrl(session.value)
            return renderError(apiError(error.code, error.message, { existingTxId: session.value.completedTxId, continueUrl: url }), requestId, config.publicUrl)
          }
        }
        return renderError(error, requestId, config.publicUrl)
      })
    return yield* Effect.gen(function*() {
      const payload = yield* HttpServerRequest.schemaBodyJson(SelectBody).pipe(
        Effect.mapError(() => ({ _tag: "BadBody" as const }))
      )
      const payment = yield* checkout.select(token, payload, clientIp(request, http.trustedProxies))
      return yield* HttpServerResponse.json({ transactionId: payment.id, checkoutUrl: checkoutUrlOf(config.checkoutUrl, payment), status: payment.status })
    }).pipe(
      Effect.catchTag("BadBody", () => HttpServerResponse.json({ error: { code: "invalid_request", message: "Expected a JSON body", requestId } }, { status: 400 })),
      Effect.catchTag("ApiError", answer),
      Effect.orDie
    )
  })

  const redirectToProvider = Effect.gen(function*() {
    const { transactionId = "" } = yield* HttpRouter.params
    const payment = yield* store.findById(transactionId)
    if (Option.isNone(payment)) {
      return page("Payment not found", "<h1>Payment not found</h1><p>This payment link does not exist.</p>", { status: 404 })
    }
    return HttpServerResponse.redirect(payment.value.paymentFormUrl, { status: 307 })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/checkout/:token", show),
    HttpRouter.add("POST", "/checkout/:token/select", selectForPage),
    HttpRouter.add("GET", "/c/:transactionId", redirectToProvider)
  )
}))

