/**
 * `capture: false` at creation (authorize only), checked before anything is written: only a card
 * rail takes it (422 `capture_requires_card`), and only providers that can capture and void
 * later are tried (none: 422 `capture_not_supported`). The record then carries its
 * `authorization`, which tells the provider to authorize only (`Upstream.chargeRequestOf`).
 * What follows an authorization is `Capture.ts`.
 */
import { Effect } from "effect"
import { apiError } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import type { PaymentProvider } from "../ports/PaymentProvider.ts"
import type { Chosen } from "./CreateRequest.ts"
import type { Payment } from "./Payment.ts"

/** Whether a provider can hold an authorization and settle it later. */
export const canAuthorizeOnly = (provider: PaymentProvider): boolean => provider.capture !== undefined && provider.void !== undefined

/** A create asking `capture: false` on a rail that is not a card rail is refused. */
export const checkCaptureRail = (capture: boolean | undefined, method: PaymentMethodDef) =>
  capture === false && method.channel !== "CREDIT_CARD"
    ? Effect.fail(apiError("capture_requires_card", `${method.name} (${method.id}) is not a card rail: capture: false is for card rails only`))
    : Effect.void

/** The providers an authorize-only create may try: those that can capture and void; none is refused. */
export const authorizeOnlyProviders = (capture: boolean | undefined, method: PaymentMethodDef, chosen: Chosen) => {
  if (capture !== false) return Effect.succeed(chosen)
  const providers = chosen.providers.filter((r) => canAuthorizeOnly(r.provider))
  return providers.length === 0
    ? Effect.fail(apiError("capture_not_supported", `No provider for ${method.name} (${method.id}) on this shop can authorize without capturing`))
    : Effect.succeed({ ...chosen, providers })
}

/** The record of an authorize-only create: what it will authorize, no expiry until the provider answers. */
export const withAuthorization = (capture: boolean | undefined, p: Payment): Payment =>
  capture !== false ? p : { ...p, authorization: { amountLocal: p.amountLocal, amountUsd: p.amount, expiresAt: null, operation: null } }
