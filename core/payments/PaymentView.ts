/**
 * A payment as the API shows it (spec 2.5): the create response, the read/list record, and the
 * `data` of payment events. Numbers are JSON numbers in major units.
 */
import { DateTime } from "effect"
import { iconUrl } from "../catalog/Icons.ts"
import { toJsonNumber as n } from "../Money.ts"
import type { Payment } from "./Payment.ts"
import { publicStatus } from "./PaymentState.ts"

const iso = (t: DateTime.Utc) => DateTime.formatIso(t)

const fees = (p: Payment) => ({
  platform: n(p.fees.platform),
  provider: n(p.fees.provider),
  network: n(p.fees.network),
  total: n(p.fees.total)
})

const settlement = (p: Payment) => ({
  type: p.settlement.type,
  delay: p.settlement.delay,
  reserve: n(p.settlement.reserve),
  status: p.settlement.status
})

const tags = (p: Payment) => ({ tag1: p.tag1, tag2: p.tag2, tag3: p.tag3 })

const presentment = (p: Payment) =>
  p.inputCurrency === null || p.inputAmount === null ? {} : { inputCurrency: p.inputCurrency, inputAmount: n(p.inputAmount) }

/** `{checkout_url}/c/{transactionId}?returnUrl=<encoded>`. */
export const checkoutUrlOf = (checkoutUrl: string, p: Payment) =>
  `${checkoutUrl}/c/${encodeURIComponent(p.id)}${p.returnUrl === null ? "" : `?returnUrl=${encodeURIComponent(p.returnUrl)}`}`

/** What the create response and the read record both show. */
const money = (p: Payment) => ({
  status: publicStatus(p.status),
  amount: n(p.amount),
  currency: "USD" as const,
  ...presentment(p),
  amountLocal: n(p.amountLocal),
  currencyLocal: p.currencyLocal,
  paymentMethodId: p.paymentMethodId,
  paymentMethod: p.method,
  paymentMethodName: p.methodName
})

export const createView = (p: Payment, urls: { readonly publicUrl: string; readonly checkoutUrl: string }) => ({
  transactionId: p.id,
  ...money(p),
  logoUrl: iconUrl(urls.publicUrl, p.paymentMethodId),
  iconUrl: iconUrl(urls.publicUrl, p.paymentMethodId),
  fees: fees(p),
  settlement: settlement(p),
  ...(p.hostedCheckout ? { checkoutUrl: checkoutUrlOf(urls.checkoutUrl, p) } : { paymentFormUrl: p.paymentFormUrl }),
  paymentData: { ...p.paymentData, method: p.method },
  merchantOrderId: p.merchantOrderId,
  ...tags(p),
  expiresAt: iso(p.expiresAt)
})

export const readView = (p: Payment) => ({
  id: p.id,
  ...money(p),
  country: p.country,
  fees: fees(p),
  settlement: settlement(p),
  timestamps: {
    created: iso(p.createdAt),
    updated: iso(p.updatedAt),
    completed: p.completedAt === null ? null : iso(p.completedAt),
    expires: iso(p.expiresAt)
  },
  merchantOrderId: p.merchantOrderId,
  ...tags(p),
  failureReason: p.failureReason
})
/**
 * Who paid, as the merchant gave it: shown to the merchant's own reads (`GET /payments`, the
 * console), never put in an event, a log line or an error.
 */
export const buyerView = (p: Payment) => ({ name: p.userName, email: p.userEmail })

/** The single read adds how the payment was routed, so an operator can see the cascade. */
export const detailView = (p: Payment) => ({
  ...readView(p),
  routing: {
    provider: p.provider,
    attempts: p.attempts.map((a) => ({
      provider: a.provider,
      outcome: a.outcome,
      latencyMs: a.latencyMs,
      reason: a.reason,
      at: iso(a.at),
      ...(a.routing === undefined ? {} : { routing: a.routing })
    }))
  }
})
