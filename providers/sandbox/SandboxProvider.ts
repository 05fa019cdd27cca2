/**
 * The sandbox provider: serves every rail in sandbox, moves no money, and is deterministic. Its
 * charge reference carries what the merchant asked `Sandbox-Simulate` for and when, so its answers
 * to the reconcile poll need no state:
 *
 * | Sandbox-Simulate | at creation | then                                                          |
 * |------------------|-------------|---------------------------------------------------------------|
 * | (none)           | pending     | stays pending until paid on the sandbox form or expired        |
 * | paid             | pending     | completed at once (as by a callback): payment.completed + .captured |
 * | failed           | pending     | failed at once: payment.failed                                 |
 * | expired          | pending     | expiresAt = creation time; the expiry job expires it: payment.failed |
 * | chargeback       | pending     | completed at once, then a chargeback is opened: status chargeback, chargeback.created + claim.opened, funds frozen, fee charged |
 * | slow_payment     | pending     | no callback (lost); the provider reports it paid 2 minutes after creation, so the 5-minute reconcile poll completes it |
 *
 * On `sbx_card` with a card token and no `Sandbox-Simulate`, the 3-D Secure test cards
 * (`ThreeDSecureCards.ts`) pick the flow: frictionless (completed at once), challenge (pending
 * with `nextAction` to `/sandbox/3ds/{transactionId}?secret=`, the form's secret, whose buttons
 * send the signed callback), failed (declined `authentication_failed`), and required (declined
 * `authentication_required` until asked with `threeDSecure: "required"`, then challenge).
 * A card charge asked with `capture: false` answers `authorized` at once; its capture and void
 * are `Capture.ts`.
 *
 * The engine applies the immediate outcomes through a job; the provider answers `status` from the
 * reference alone. Callbacks to this provider are signed like any other (HMAC-SHA256 with the
 * sandbox callback secret).
 *
 * Its payment form (`paymentFormUrl`, `/sandbox/pay/{transactionId}?secret=`) carries a secret
 * drawn for that charge (24 random bytes): the form shows, pays or fails the payment only with it,
 * so an id (listed, guessed) or a cross-site POST does nothing.
 */
import { Clock, Effect, Redacted, Schema } from "effect"
import { Mac } from "effect/crypto"
import { type PaymentMethodDef, verifySignature } from "../../core/ports/index.ts"
import {
  CallbackRejected,
  type ChargeAccepted,
  type ChargeRequest,
  type ChargeStatus,
  type ChargeUpdate,
  type PaymentProvider,
  ProviderError
} from "../../core/ports/PaymentProvider.ts"
import { ProviderRegistry } from "../../core/ports/ProviderRegistry.ts"
import { challengeUrlOf, formUrlOf, sandboxProviderId } from "../../core/ports/SandboxForm.ts"
import * as Capture from "./Capture.ts"
import { threeDSecureFlowOf } from "./ThreeDSecureCards.ts"
import { callbackDetail, callbackStatuses, callbackStatusMap, scenarios, scenarioStatus } from "./Wire.ts"

/** After this long a `slow_payment` charge reports paid (its callback is never sent). */
export const slowPaymentAfterMs = 2 * 60_000

/** Random bytes of a form's secret: 192 bits. */
const formSecretBytes = 24

/** A form's secret: fresh random bytes as hex (a provider takes only the ports and effect from core). */
const newFormSecret = () => Array.from(globalThis.crypto.getRandomValues(new Uint8Array(formSecretBytes)), (b) => b.toString(16).padStart(2, "0")).join("")

/** `sbx.<scenario>.<created ms>.<transaction id>` */
export const providerRefOf = (scenario: string, createdMs: number, transactionId: string) =>
  `sbx.${scenario}.${createdMs}.${transactionId}`

const parseRef = (ref: string) => {
  const [prefix, scenario, created, ...rest] = ref.split(".")
  if (prefix !== "sbx" || scenario === undefined || !(scenarios as ReadonlyArray<string>).includes(scenario)) return undefined
  return { scenario, createdMs: Number(created), transactionId: rest.join(".") }
}

const paymentData = (method: PaymentMethodDef, request: ChargeRequest): Record<string, unknown> => {
  const reference = request.transactionId.replace(/[^0-9A-Za-z]/g, "").slice(-12).toUpperCase()
  switch (method.method) {
    case "pix":
      return { qrCode: `00020126580014br.gov.bcb.pix0136sandbox-${reference}5204000053039865802BR6304SBOX`, reference }
    case "spei":
      return { clabe: "646180157000000004", reference, bank: null }
    case "boleto":
      return { barcode: `23793.38128 60000.${reference.slice(0, 6)} 00000.000000 1 0000000000`, reference }
    default:
      return { reference }
  }
}

const CallbackBody = Schema.Struct({
  reference: Schema.String,
  transactionId: Schema.String,
  status: Schema.Literals(callbackStatuses)
})

export const make = (options: { readonly formBaseUrl: string; readonly callbackSecret: Redacted.Redacted<string> }) =>
  Effect.map(Effect.context<Mac.Mac>(), (context): PaymentProvider => ({
    id: sandboxProviderId,
    displayName: "Sandbox",
    environments: ["sandbox"],
    supports: () => true,
    charge: (request) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms): Effect.Effect<ChargeAccepted, ProviderError> => {
        // A 3-D Secure test card picks its flow, unless the merchant asked for a simulation.
        const flow = request.simulate === undefined ? threeDSecureFlowOf(request.card) : undefined
        if (flow === "failed") {
          return Effect.fail(ProviderError.declined({ providerId: sandboxProviderId, code: "authentication_failed", message: "sandbox: the issuer refused 3-D Secure authentication" }))
        }
        if (flow === "required" && request.threeDSecure !== "required") {
          return Effect.fail(ProviderError.failed({ providerId: sandboxProviderId, code: "authentication_required", message: "sandbox: the issuer asks for 3-D Secure" }))
        }
        const scenario = flow === "frictionless" ? "3ds_frictionless" : flow === undefined ? request.simulate ?? "none" : "3ds_challenge"
        const secret = newFormSecret()
        return Effect.succeed({
          providerRef: providerRefOf(scenario, ms, request.transactionId),
          status: scenario === "3ds_frictionless" ? "completed" : request.capture === false && scenario !== "3ds_challenge" ? "authorized" : "pending",
          paymentFormUrl: formUrlOf(options.formBaseUrl, request.transactionId, secret),
          paymentData: paymentData(request.method, request),
          ...(scenario === "3ds_challenge"
            ? { nextAction: { type: "redirect_to_url" as const, url: challengeUrlOf(options.formBaseUrl, request.transactionId, secret) } }
            : {})
        })
      }),
    status: (providerRef, transactionId) =>
      Effect.map(Clock.currentTimeMillis, (ms): ChargeUpdate => {
        const ref = parseRef(providerRef)
        const status: ChargeStatus = ref === undefined ||
            (ref.scenario === "slow_payment" && ms - ref.createdMs < slowPaymentAfterMs)
          ? "pending"
          : scenarioStatus(ref.scenario)
        return { providerRef, transactionId, status }
      }),
    verifyCallback: (headers, rawBody) =>
      Effect.gen(function*() {
        const verdict = yield* verifySignature(rawBody, headers["x-sandbox-signature"], [Redacted.value(options.callbackSecret)])
        if (verdict !== "valid") return yield* new CallbackRejected({ reason: `signature ${verdict}` })
        const body = yield* Schema.decodeUnknownEffect(Schema.fromJsonString(CallbackBody))(rawBody).pipe(
          Effect.mapError(() => new CallbackRejected({ reason: "unreadable body" }))
        )
        const detail = callbackDetail[body.status]
        return [{ providerRef: body.reference, transactionId: body.transactionId, status: callbackStatusMap[body.status], ...(detail === undefined ? {} : { detail }) }]
      }).pipe(Effect.provide(context)),
    refund: (request) => Effect.succeed({ providerRef: `sbx.refund.${request.refundId}`, status: "succeeded" }),
    capture: Capture.capture,
    void: Capture.voidAuthorization,
    authorizationWindow: Capture.sandboxAuthorizationWindow
  }))

/** Registers the sandbox provider; it needs `Mac` to verify callbacks. */
export const layer = (options: { readonly formBaseUrl: string; readonly callbackSecret: Redacted.Redacted<string> }) =>
  ProviderRegistry.register(make(options))

export const SandboxProvider = { make, layer, id: sandboxProviderId }
