/**
 * A payment as the API shows it (spec 2.5): the create response, the read/list record, and the
 * `data` of payment events. Numbers are JSON numbers in major units.
 */
import { DateTime, Schema } from "effect"
import { iconUrl } from "../catalog/Icons.ts"
import { toJsonNumber as n } from "../Money.ts"
import { safeEqual } from "../Secrets.ts"
import { revealed } from "./BuyerData.ts"
import { split } from "./Installments.ts"
import type { Payment } from "./Payment.ts"
import { PaymentStatus, publicStatus } from "./PaymentState.ts"

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

/** Random bytes of a payment's hosted-link capability (`Payment.linkToken`): 192 bits. */
export const linkTokenBytes = 24

/**
 * `{checkout_url}/c/{transactionId}?returnUrl=<encoded>&token=<linkToken>`: the id names the
 * payment, the token opens it (`opensLink`), so a guessed or listed id opens nothing.
 */
export const checkoutUrlOf = (checkoutUrl: string, p: Payment) => {
  const query = [
    ...(p.returnUrl === null ? [] : [`returnUrl=${encodeURIComponent(p.returnUrl)}`]),
    ...(p.linkToken === null ? [] : [`token=${encodeURIComponent(p.linkToken)}`])
  ]
  return `${checkoutUrl}/c/${encodeURIComponent(p.id)}${query.length === 0 ? "" : `?${query.join("&")}`}`
}

/** Whether `token` is the payment's link token, compared in constant time; a payment with none opens to no token. */
export const opensLink = (p: Payment, token: string | undefined): boolean =>
  p.linkToken !== null && token !== undefined && token.length === p.linkToken.length && safeEqual(token, p.linkToken)

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

/**
 * The create response as the core keeps it: what `createView` makes, and what an
 * `Idempotency-Key` of `POST /payments` stores for a replay (its last write stores it with the
 * payment: `PaymentStore.updateCompletingKey`). JSON as it stands (numbers in major units, ISO
 * times); the HTTP layer encodes it with its own schema when it answers, the first time and on
 * every replay alike.
 */
/**
 * The card a card-rail payment was charged with, as every view shows it (create, reads and
 * webhook events): what the card's token says of it, never the token itself (the merchant sent
 * it) nor the holder's name (buyer data).
 */
export const CardView = Schema.Struct({
  brand: Schema.String,
  bin: Schema.String,
  last4: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  fingerprint: Schema.String
})

const cardView = (p: Payment) =>
  p.card === undefined ? {} : {
    card: { brand: p.card.brand, bin: p.card.bin, last4: p.card.last4, expMonth: p.card.expMonth, expYear: p.card.expYear, fingerprint: p.card.fingerprint }
  }

/** What the buyer must do before the payment can go on (a 3-D Secure challenge): shown while it is pending, absent otherwise. */
export const NextActionView = Schema.Struct({ type: Schema.Literal("redirect_to_url"), url: Schema.String })

const nextActionView = (p: Payment) =>
  p.nextAction === null || p.status !== "pending" ? {} : { nextAction: { type: p.nextAction.type, url: p.nextAction.url } }
/** An authorize-only payment's authorization, as every view shows it. */
export const AuthorizationView = Schema.Struct({
  amountLocal: Schema.Finite,
  amountUsd: Schema.Finite,
  expiresAt: Schema.NullOr(Schema.String),
  operation: Schema.NullOr(Schema.Struct({
    kind: Schema.Literals(["capture", "void"]),
    amountLocal: Schema.Finite,
    outcome: Schema.Literals(["in_flight", "unknown", "failed", "declined", "succeeded"]),
    reason: Schema.NullOr(Schema.String),
    at: Schema.String
  }))
})

const authorizationView = (p: Payment) => {
  const a = p.authorization
  if (a === undefined) return {}
  return {
    ...(a.expiresAt === null ? {} : { authorizationExpiresAt: iso(a.expiresAt) }),
    authorization: {
      amountLocal: n(a.amountLocal),
      amountUsd: n(a.amountUsd),
      expiresAt: a.expiresAt === null ? null : iso(a.expiresAt),
      operation: a.operation === null ? null : {
        kind: a.operation.kind,
        amountLocal: n(a.operation.amountLocal),
        outcome: a.operation.outcome,
        reason: a.operation.reason,
        at: iso(a.operation.at)
      }
    }
  }
}

/** A card payment's installments, as every view shows them: in `currencyLocal`, the first instalment taking the rounding remainder. */
export const InstallmentsView = Schema.Struct({
  count: Schema.Int,
  interest: Schema.Literals(["merchant", "buyer"]),
  instalmentAmount: Schema.Finite,
  firstInstalmentAmount: Schema.Finite
})

const installmentsView = (p: Payment) => {
  const i = p.installments
  if (i === undefined) return {}
  const parts = split(p.amountLocal, i.count, p.currencyLocal)
  return { installments: { count: i.count, interest: i.interest, instalmentAmount: n(parts[i.count - 1]!), firstInstalmentAmount: n(parts[0]!) } }
}

export const CreatedView = Schema.Struct({
  transactionId: Schema.String,
  status: PaymentStatus,
  amount: Schema.Finite,
  currency: Schema.Literal("USD"),
  inputCurrency: Schema.optional(Schema.String),
  inputAmount: Schema.optional(Schema.Finite),
  amountLocal: Schema.Finite,
  currencyLocal: Schema.String,
  paymentMethodId: Schema.String,
  paymentMethod: Schema.String,
  paymentMethodName: Schema.String,
  logoUrl: Schema.String,
  iconUrl: Schema.String,
  fees: Schema.Struct({ platform: Schema.Finite, provider: Schema.Finite, network: Schema.Finite, total: Schema.Finite }),
  settlement: Schema.Struct({ type: Schema.String, delay: Schema.String, reserve: Schema.Finite, status: Schema.String }),
  paymentFormUrl: Schema.optional(Schema.String),
  checkoutUrl: Schema.optional(Schema.String),
  paymentData: Schema.StructWithRest(Schema.Struct({ method: Schema.String }), [Schema.Record(Schema.String, Schema.Unknown)]),
  merchantOrderId: Schema.NullOr(Schema.String),
  tag1: Schema.NullOr(Schema.String),
  tag2: Schema.NullOr(Schema.String),
  tag3: Schema.NullOr(Schema.String),
  card: Schema.optional(CardView),
  nextAction: Schema.optional(NextActionView),
  authorizationExpiresAt: Schema.optional(Schema.String),
  authorization: Schema.optional(AuthorizationView),
  installments: Schema.optional(InstallmentsView),
  expiresAt: Schema.String
})
export type CreatedView = typeof CreatedView.Type

/**
 * The view as a key stores it: its JSON as it stands, since the schema's encoded form is the
 * view itself (checked here by type). Running the schema's encoder instead would cost about as
 * much again as the HTTP answer's own encoding, on every create, to produce the same text.
 */
export const createdViewJson = (view: CreatedView): string => JSON.stringify(view satisfies typeof CreatedView.Encoded)

export const createView = (p: Payment, urls: { readonly publicUrl: string; readonly checkoutUrl: string }): CreatedView => ({
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
  ...cardView(p),
  ...nextActionView(p),
  ...authorizationView(p),
  ...installmentsView(p),
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
  ...cardView(p),
  ...nextActionView(p),
  ...authorizationView(p),
  ...installmentsView(p),
  failureReason: p.failureReason
})
/**
 * Who paid, as the merchant gave it: shown to the merchant's own reads (`GET /payments`, the
 * console), never put in an event, a log line or an error.
 */
export const buyerView = (p: Payment) => ({ name: revealed(p.userName), email: revealed(p.userEmail) })

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
      // A card payment's attempts show their normalized decline, null when none.
      ...(p.card === undefined ? {} : { decline: a.decline ?? null }),
      at: iso(a.at),
      ...(a.threeDSecure === undefined ? {} : { threeDSecure: a.threeDSecure }),
      ...(a.routing === undefined ? {} : { routing: a.routing })
    })),
    skipped: p.skipped ?? []
  }
})
