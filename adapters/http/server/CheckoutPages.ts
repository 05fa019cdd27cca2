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
import { Checkout, type OfferedMethod } from "../../../core/checkout/Checkout.ts"
import type { CheckoutSession } from "../../../core/checkout/CheckoutSession.ts"
import { EngineConfig } from "../../../core/EngineConfig.ts"
import { Fx } from "../../../core/fx/Fx.ts"
import type { BuyerAddress } from "../../../core/ports/PaymentProvider.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { TenancyStore } from "../../../core/ports/TenancyStore.ts"
import type { FieldName } from "../../../core/payments/BuyerData.ts"
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

/** The address block's inputs: page name, its `BuyerAddress` key, `autocomplete` token, maximum length (as the API's), required. */
const addressInputs = [
  { name: "street", autocomplete: "address-line1", max: 200, required: true },
  { name: "number", autocomplete: undefined, max: 20, required: true },
  { name: "complement", autocomplete: "address-line2", max: 200, required: false },
  { name: "district", autocomplete: "address-level3", max: 100, required: true },
  { name: "city", autocomplete: "address-level2", max: 100, required: true },
  { name: "state", autocomplete: "address-level1", max: 40, required: true },
  { name: "postalCode", autocomplete: "postal-code", max: 20, required: true }
] as const

type AddressInput = (typeof addressInputs)[number]["name"]

/**
 * The page's extra layout: the address block in rows on a wide screen (each cell's label, input,
 * hint and error on the rows of a subgrid, so inputs of a row line up whatever their labels' lines),
 * one column on a phone.
 */
const addressStyle = `<style>
[hidden]{display:none!important}
.address-grid{display:grid;grid-template-columns:repeat(6,minmax(0,1fr));column-gap:.75rem}
.address-grid>div{grid-column:span 6;grid-row:span 4;display:grid;grid-template-rows:subgrid;min-width:0}
.address-grid label{align-self:end;overflow-wrap:break-word}
#error-address:empty{min-height:0;margin:0}
@media (min-width:32rem){
.address-grid>.w4{grid-column:span 4}.address-grid>.w3{grid-column:span 3}.address-grid>.w2{grid-column:span 2}
}
</style>`

const script = (token: string, messages: PageText["script"]) => `
<script>
(() => {
  const form = document.getElementById("checkout");
  const email = /^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+$/;
  const phone = /^\\+[0-9][0-9 ()-]{6,38}$/;
  // Countries whose postal codes and state abbreviations have one shape; elsewhere any text.
  const postalCodes = { BR: /^[0-9]{5}-?[0-9]{3}$/, MX: /^[0-9]{5}$/ };
  const stateCodes = { BR: /^[A-Za-z]{2}$/ };
  const addressKeys = ${scriptJson(addressInputs.map((i) => i.name))};
  const requiredAddress = ${scriptJson(addressInputs.filter((i) => i.required).map((i) => i.name))};
  const fieldNames = { userName: "fullName", email: "email", documentId: "documentId", userPhone: "phone", userAddress: "address" };
  const text = ${scriptJson(messages)};
  const chosen = () => form.querySelector("input[name=paymentMethodId]:checked");
  const needs = (method) => (method && method.dataset.requires ? method.dataset.requires.split(" ") : []);
  const group = (field) => form.querySelector("[data-needed-for=" + field + "]");
  const shown = (field) => !group(field).hidden;
  const setError = (name, message) => {
    const input = form.elements[name];
    const error = document.getElementById("error-" + name);
    if (error) error.textContent = message || "";
    if (input && input.setAttribute) input.setAttribute("aria-invalid", message ? "true" : "false");
  };
  // Shows the phone and the address only when the chosen method needs them.
  const sync = () => {
    const needed = needs(chosen());
    for (const field of ["userPhone", "userAddress"]) group(field).hidden = !needed.includes(field);
  };
  form.addEventListener("change", (event) => { if (event.target.name === "paymentMethodId") sync(); });
  sync();
  const value = (data, key) => String(data.get(key) || "").trim();
  const check = () => {
    const data = new FormData(form);
    const method = chosen();
    const country = method ? method.dataset.country : "";
    const errors = {};
    if (value(data, "fullName").split(/\\s+/).filter(Boolean).length < 2) errors.fullName = text.name;
    if (!email.test(value(data, "email"))) errors.email = text.email;
    if (value(data, "documentId") === "") errors.documentId = text.document;
    if (!method) errors.paymentMethodId = text.method;
    if (shown("userPhone") && !phone.test(value(data, "phone"))) errors.phone = text.phone;
    if (shown("userAddress")) {
      for (const key of requiredAddress) if (value(data, key) === "") errors[key] = text[key];
      const state = stateCodes[country];
      if (!errors.state && state && !state.test(value(data, "state"))) errors.state = text.stateCode;
      const postal = postalCodes[country];
      if (!errors.postalCode && postal && !postal.test(value(data, "postalCode"))) errors.postalCode = text.postalCode;
    }
    for (const key of ["paymentMethodId", "fullName", "email", "documentId", "phone", ...addressKeys]) setError(key, errors[key]);
    setError("address", "");
    return errors;
  };
  const focusFirst = (errors) => {
    const first = Object.keys(errors)[0];
    if (!first) return false;
    const target = first === "paymentMethodId" ? form.querySelector("input[name=paymentMethodId]") : form.elements[first];
    if (target && target.focus) target.focus();
    return true;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (focusFirst(check())) return;
    const data = new FormData(form);
    const method = chosen();
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    document.getElementById("form-error").textContent = "";
    const address = {};
    for (const key of addressKeys) if (value(data, key) !== "") address[key] = value(data, key);
    if (address.state && stateCodes[method.dataset.country]) address.state = address.state.toUpperCase();
    const body = {
      paymentMethodId: String(method.value),
      customer: {
        fullName: value(data, "fullName"),
        email: value(data, "email"),
        documentId: value(data, "documentId"),
        ...(shown("userPhone") ? { phone: value(data, "phone") } : {}),
        ...(shown("userAddress") ? { address } : {})
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
        // The method's providers need more than the page knew: show those fields, and say so next to them.
        const errors = {};
        for (const missing of (error.details && error.details.missingFields) || []) {
          // \`userAddress.district\`: the address lacks one of its parts.
          const [field, part] = missing.split(".");
          if (field === "userPhone" || field === "userAddress") {
            // Kept for this method when the buyer switches away and back.
            if (method && !needs(method).includes(field)) method.dataset.requires = needs(method).concat(field).join(" ");
            group(field).hidden = false;
          }
          if (field === "userAddress") {
            if (part && addressKeys.includes(part)) errors[part] = text[part] || text.check;
            else for (const key of requiredAddress) if (value(data, key) === "") errors[key] = text[key];
            errors.address = text.address;
          } else {
            errors[fieldNames[field] || field] = text.check;
          }
        }
        for (const key of Object.keys(errors)) setError(key, errors[key]);
        focusFirst(errors.address && Object.keys(errors).length === 1 ? { street: true } : errors);
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

  const methodOption = (offer: OfferedMethod, name: string, local: Option.Option<BigDecimal.BigDecimal>, checked: boolean) => {
    const m = offer.method
    return `
    <li><label>
      <input type="radio" name="paymentMethodId" value="${escapeHtml(m.id)}" data-country="${escapeHtml(m.country)}" data-requires="${escapeHtml(offer.requiredFields.join(" "))}"${checked ? " checked" : ""}>
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
    const offered = yield* checkout.methods(session)
    const methods = offered.map((o) => o.method)
    const headline = yield* payments.headline(session.amount, session.currency).pipe(Effect.option)
    const usd = Option.map(headline, (h) => h.conversion.converted)
    const locals = new Map<string, Option.Option<BigDecimal.BigDecimal>>()
    for (const { method: m } of offered) locals.set(m.id, Option.isNone(usd) ? Option.none() : yield* localAmount(usd.value, m))
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
    const grid = channelOrder
      .map((channel) => {
        const inGroup = offered.filter((o) => o.method.channel === channel)
        return inGroup.length === 0 ? "" : `
          <fieldset><legend>${escapeHtml(t.channel[channel])}</legend><ul class="methods">
            ${
          inGroup.map((o) =>
            methodOption(o, names.get(o.method.id) ?? o.method.name, single === undefined ? locals.get(o.method.id) ?? Option.none() : Option.none(), only !== undefined)
          ).join("")
        }
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
        ${field("fullName", t.fullName, fullName === "" ? null : fullName, { autocomplete: "name", max: 120, required: true })}
        ${field("email", t.email, c.email, { type: "email", autocomplete: "email", max: 254, required: true })}
        ${field("documentId", t.documentId, null, { autocomplete: "off", hint: t.documentHint, max: 40, required: true })}
        <div data-needed-for="userPhone"${needs("userPhone") ? "" : " hidden"}>
          ${field("phone", t.phone, c.phone, { type: "tel", autocomplete: "tel", hint: t.phoneHint, max: 40, required: true })}
        </div>
        ${addressBlock(t, c.address, needs("userAddress"))}
        <p class="error" id="form-error" role="alert"></p>
        <p><button type="submit">${escapeHtml(t.submit)}</button></p>
      </form>
      ${session.returnUrl === null ? "" : `<p><a href="${escapeHtml(session.returnUrl)}">${escapeHtml(t.cancel)}</a></p>`}
      ${script(session.token, t.script)}`
    return page(t.title, body, { lang: language, head: addressStyle })
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

