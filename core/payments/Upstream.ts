/**
 * What the engine sends a provider about a payment: the charge request, and the URL its
 * notifications (about the charge and its refunds) come back to.
 */
import { DateTime, type Redacted } from "effect"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import { baseUrlOf, type EngineConfig } from "../EngineConfig.ts"
import type { BuyerAddress, ChargeRequest, PaymentProvider } from "../ports/PaymentProvider.ts"
import type { BuyerText } from "./BuyerData.ts"
import type { Payment } from "./Payment.ts"
import { idempotencyKeyOf, isRetry } from "./ThreeDSecure.ts"

/**
 * The buyer's data that is forwarded to the provider and never stored: a retry of the request
 * brings it again; the recovery job continues without it.
 */
export interface Forwarded {
  readonly documentId?: BuyerText | undefined
  readonly address?: Redacted.Redacted<BuyerAddress> | undefined
  /** Whether the vault held the card's security code when the request described it (the record keeps no such thing: a resume says no). */
  readonly securityCodeHeld?: boolean | undefined
}

/** Where `providerId` sends its signed notifications. */
export const callbackUrlOf = (config: EngineConfig["Service"], providerId: string) =>
  `${baseUrlOf(config)}/providers/${encodeURIComponent(providerId)}/callbacks`

/**
 * The charge a provider is asked for; its idempotency key is the same on every retry (the one
 * 3-D Secure retry after `authentication_required` has its own, `ThreeDSecure.ts`). `returnUrl`:
 * a card rail's, where the buyer comes back after a challenge.
 */
export const chargeRequestOf = (
  p: Payment,
  method: PaymentMethodDef,
  provider: PaymentProvider,
  forwarded: Forwarded,
  callbackUrl: string,
  returnUrl?: string
): ChargeRequest => ({
  transactionId: p.id,
  idempotencyKey: idempotencyKeyOf(p, provider.id),
  environment: p.environment,
  method,
  amount: p.amountLocal,
  currency: p.currencyLocal,
  country: method.country,
  // Still `Redacted`: the connector reads each field only where it puts it on its wire.
  customer: {
    name: p.userName ?? undefined,
    email: p.userEmail ?? undefined,
    documentId: forwarded.documentId,
    phone: p.userPhone ?? undefined,
    ip: p.userIp ?? undefined,
    address: forwarded.address
  },
  expiresAt: DateTime.toDateUtc(p.expiresAt),
  callbackUrl,
  simulate: p.simulate ?? undefined,
  ...(isRetry(p, provider.id) ? { threeDSecure: "required" as const } : {}),
  ...(returnUrl === undefined ? {} : { returnUrl }),
  // An authorize-only payment (`capture: false`) says so on every retry of its charge.
  ...(p.authorization === undefined ? {} : { capture: false }),
  ...(p.installments === undefined ? {} : { installments: { count: p.installments.count, interest: p.installments.interest } }),
  ...(p.card === undefined ? {} : { card: { ...p.card, merchantId: p.merchantId, securityCodeHeld: forwarded.securityCodeHeld ?? false } })
})
