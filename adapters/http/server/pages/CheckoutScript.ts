/**
 * The checkout page's client side: its inline script (inline validation, the phone and address
 * fields shown for the methods that need them, the select call and its errors) and the address
 * block's style. Nothing is loaded from another host.
 */
import type { PageText } from "./PageText.ts"

/** `</script>` cannot end the page's JSON early: `<` is escaped inside the script. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")

/** The address block's inputs: page name, its `BuyerAddress` key, `autocomplete` token, maximum length (as the API's), required. */
export const addressInputs = [
  { name: "street", autocomplete: "address-line1", max: 200, required: true },
  { name: "number", autocomplete: undefined, max: 20, required: true },
  { name: "complement", autocomplete: "address-line2", max: 200, required: false },
  { name: "district", autocomplete: "address-level3", max: 100, required: true },
  { name: "city", autocomplete: "address-level2", max: 100, required: true },
  { name: "state", autocomplete: "address-level1", max: 40, required: true },
  { name: "postalCode", autocomplete: "postal-code", max: 20, required: true }
] as const

export type AddressInput = (typeof addressInputs)[number]["name"]

/**
 * The page's extra layout: the address block in rows on a wide screen (each cell's label, input,
 * hint and error on the rows of a subgrid, so inputs of a row line up whatever their labels' lines),
 * one column on a phone.
 */
export const addressStyle = `<style>
[hidden]{display:none!important}
.address-grid{display:grid;grid-template-columns:repeat(6,minmax(0,1fr));column-gap:.75rem}
.address-grid>div{grid-column:span 6;grid-row:span 4;display:grid;grid-template-rows:subgrid;min-width:0}
.address-grid label{align-self:end;overflow-wrap:break-word}
#error-address:empty{min-height:0;margin:0}
@media (min-width:32rem){
.address-grid>.w4{grid-column:span 4}.address-grid>.w3{grid-column:span 3}.address-grid>.w2{grid-column:span 2}
}
</style>`

/**
 * The method tiles, compact: one line of 44 px (a finger's target) per method, and a group's
 * further methods behind a disclosure that looks like the tiles it opens.
 */
export const tileStyle = `<style>
.methods{gap:.35rem}
.methods label{padding:.25rem .5rem;min-height:44px;box-sizing:border-box}
details.more{margin-top:.35rem}
details.more>summary{cursor:pointer;padding:.6rem .5rem;border:1px dashed #8886;border-radius:.6rem;min-height:44px;box-sizing:border-box}
details.more[open]>summary{margin-bottom:.35rem}
</style>`

/** The page's script; `nonce` is the request's (`SecurityHeaders.ts`: no other inline script runs). */
export const script = (token: string, messages: PageText["script"], nonce: string) => `
<script nonce="${nonce}">
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
  // Shows the phone and the address only when the chosen method needs them, the instalments for a card.
  const instalments = group("installments");
  const sync = () => {
    const needed = needs(chosen());
    for (const field of ["userPhone", "userAddress"]) group(field).hidden = !needed.includes(field);
    if (instalments) instalments.hidden = !(chosen() && chosen().dataset.channel === "CREDIT_CARD");
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
    const errors = check();
    const method = chosen();
    // A card rail: the form's own post, which the host answers with the card vault's page.
    if (Object.keys(errors).length === 0 && method.dataset.card === "vault") return;
    event.preventDefault();
    if (focusFirst(errors)) return;
    const data = new FormData(form);
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
      },
      ...(instalments && !instalments.hidden && Number(value(data, "installments")) > 1 ? { installments: { count: Number(value(data, "installments")) } } : {})
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
            errors[fieldNames[field] || field] = field === "documentId" ? text.documentInvalid : text.check;
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

