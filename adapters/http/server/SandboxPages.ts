/**
 * The sandbox provider's payment form (`paymentFormUrl` of sandbox charges): what a buyer sees at
 * the provider, with buttons to pay or fail the charge. Choosing one makes the sandbox provider
 * send its signed callback, which the engine verifies and applies like any provider's.
 */
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { Mac } from "effect/crypto"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { Payments } from "../../../core/payments/Payments.ts"
import { signatureHeader } from "../../../core/Signatures.ts"
import { sandboxProviderId } from "../../../providers/sandbox/SandboxProvider.ts"
import { HttpConfig } from "./HttpConfig.ts"
import { escapeHtml, formatAmount, page } from "./Html.ts"

const Action = Schema.Struct({ action: Schema.Literals(["paid", "failed"]) })

/** `returnUrl` with `transactionId` and `status` added to its query (its own parameters kept). */
export const withOutcome = (returnUrl: string, transactionId: string, status: string) => {
  const url = new URL(returnUrl)
  url.searchParams.set("transactionId", transactionId)
  url.searchParams.set("status", status)
  return url.toString()
}

const notFoundPage = page("Payment not found", "<h1>Payment not found</h1><p>This sandbox payment does not exist.</p>", { status: 404 })

export const SandboxPages = Layer.unwrap(Effect.gen(function*() {
  const store = yield* PaymentStore
  const payments = yield* Payments
  const config = yield* HttpConfig
  const mac = yield* Mac.Mac

  const load = (id: string) =>
    Effect.map(store.findById(id), Option.filter((p) => p.environment === "sandbox" && p.provider === sandboxProviderId))

  const show = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const found = yield* load(id)
    if (Option.isNone(found)) return notFoundPage
    const p = found.value
    const action = `/sandbox/pay/${encodeURIComponent(p.id)}`
    const buttons = p.status === "pending"
      ? `<form method="post" action="${escapeHtml(action)}"><p>
           <button name="action" value="paid">Pay</button>
           <button class="secondary" name="action" value="failed">Fail the payment</button></p></form>`
      : ""
    return page(`Sandbox · ${p.methodName}`, `
      <p class="muted">Sandbox provider — no real money moves</p>
      <h1>${escapeHtml(p.methodName)}</h1>
      <p class="amount" data-testid="amount">${escapeHtml(formatAmount(p.amountLocal, p.currencyLocal))}</p>
      <p>Payment <code>${escapeHtml(p.id)}</code> is <strong data-testid="status">${escapeHtml(p.status)}</strong>.</p>
      ${buttons}`)
  })

  const act = Effect.gen(function*() {
    const { id = "" } = yield* HttpRouter.params
    const found = yield* load(id)
    if (Option.isNone(found)) return notFoundPage
    const form = yield* HttpServerRequest.schemaBodyUrlParams(Action).pipe(Effect.option)
    if (Option.isNone(form)) return page("Bad request", "<h1>Choose Pay or Fail.</h1>", { status: 400 })
    const p = found.value
    const secret = Redacted.value(config.sandboxCallbackSecret)
    const body = JSON.stringify({ reference: p.providerRef, transactionId: p.id, status: form.value.action === "paid" ? "completed" : "failed" })
    const signature = yield* signatureHeader(body, [secret]).pipe(Effect.provideService(Mac.Mac, mac))
    yield* payments.handleCallback(sandboxProviderId, { "x-sandbox-signature": signature }, body).pipe(Effect.orDie)
    if (p.returnUrl === null) return HttpServerResponse.redirect(`/sandbox/pay/${encodeURIComponent(p.id)}`, { status: 303 })
    // Back to the shop, telling it which payment and how it ended (the shop confirms with the API).
    const status = Option.match(yield* store.findById(p.id), { onNone: () => p.status, onSome: (now) => now.status })
    return HttpServerResponse.redirect(withOutcome(p.returnUrl, p.id, status), { status: 303 })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/sandbox/pay/:id", show),
    HttpRouter.add("POST", "/sandbox/pay/:id", act)
  )
}))
