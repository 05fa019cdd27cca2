/**
 * Hosted checkout (spec 2.6, 3.2, 4.7). A session is created by the merchant's backend in one of
 * two modes; the buyer finishes it on the hosted pages:
 *
 * - selector (no `paymentMethodId`): `awaiting_method`; the buyer picks a method on the page, which
 *   calls `select`; the transaction is created then, and the session is completed (single use).
 * - one-shot (`paymentMethodId`): with complete buyer data the transaction is created at once
 *   (`pending`, the session id is the transaction id); otherwise `awaiting_details` and the page
 *   collects what is missing, then `select` creates it.
 *
 * Buyer data for a transaction: full name (two words at least), email and document id, plus what
 * the rail requires (a phone for wallets). Missing or malformed at `select`: 422
 * `missing_required_fields` and nothing is created. Individual fields win over the `customer`
 * block, which only fills what is missing; an invalid block value is never promoted.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf, invalidRequest, keepsRecordOpen } from "../ApiError.ts"
import { merchantUrlProblem } from "../MerchantUrl.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import type { PaymentMethodDef, RequiredField } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import { CheckoutSessionStore } from "../ports/CheckoutSessionStore.ts"
import type { KeyHandle } from "../idempotency/Idempotency.ts"
import { type CreateCode, type CreatePayment, Payments } from "../payments/Payments.ts"
import type { Payment } from "../payments/Payment.ts"
import { Routing } from "../routing/Routing.ts"
import { secretHasher } from "../Secrets.ts"
import { EngineConfig } from "../EngineConfig.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { type BuyerData, buyerDataOf, createFieldsOf, fieldName, missingFor, neededByAll, trimmed } from "../payments/BuyerData.ts"
import { type CheckoutSession, transitionSession } from "./CheckoutSession.ts"
import { cardStep, type CardStepRefused } from "./CheckoutCard.ts"
import type { Created, CreateSession, OfferedMethod, SelectInput } from "./CheckoutInput.ts"
import { checkCustomer, fullNameOf, storedCustomer } from "./Customer.ts"

export { checkCustomer, type CustomerInput } from "./Customer.ts"
export type { Created, CreateSession, OfferedMethod, SelectInput } from "./CheckoutInput.ts"

export const sessionLifetimeHours = 24

/** The fields every hosted checkout collects whatever the rail; `OfferedMethod.requiredFields` names the others. */
const alwaysAsked: ReadonlyArray<RequiredField> = ["userName", "userEmail", "documentId"]

/**
 * What a rail is apart from its id and names: a sandbox test method is a copy of the real rail
 * it mirrors (`catalog/methods.ts`), so the two share it.
 */
const railShape = (m: PaymentMethodDef) =>
  JSON.stringify([m.country, m.channel, m.methodLabel, m.currencies, m.currencyLimits, m.fee, m.requires, m.expiresInMinutes, m.settlementDays])

export class Checkout extends Context.Service<Checkout, {
  /**
   * `key`: the request's `Idempotency-Key` (claimed by its run before executing), bound to the
   * one-shot payment in its write-ahead; a retry (`key.resume`) continues that payment.
   */
  readonly create: (scope: ShopScope, input: CreateSession, key?: KeyHandle | undefined) => Effect.Effect<Created, ApiErrorOf<CreateCode>>
  /** A live session by token; expired or unknown: 404 `checkout_session_not_found`. */
  readonly get: (token: string) => Effect.Effect<CheckoutSession, ApiErrorOf<"checkout_session_not_found">>
  /**
   * The methods the session offers the buyer (routable rails of its shop, in its country), each
   * with the buyer data beyond name, email and document that its charge needs.
   */
  readonly methods: (session: CheckoutSession) => Effect.Effect<ReadonlyArray<OfferedMethod>>
  /** Stores the buyer's address seen by the page (the merchant backend's is never used). */
  readonly recordBuyerIp: (session: CheckoutSession, ip: string) => Effect.Effect<void>
  readonly select: (token: string, input: SelectInput, buyerIp: string | undefined) => Effect.Effect<
    Payment,
    ApiErrorOf<"checkout_session_not_found" | "checkout_session_already_completed" | CreateCode>
  >
  /**
   * The card step's start: the buyer's data checked as select checks it and held on the session
   * with a fresh state for the vault's return (`CheckoutCard.ts`); nothing is created yet.
   */
  readonly holdForCard: (token: string, input: SelectInput) => Effect.Effect<
    { readonly session: CheckoutSession; readonly state: string },
    ApiErrorOf<"checkout_session_not_found" | "checkout_session_already_completed" | "invalid_request" | "missing_required_fields">
  >
  /** The vault's return: the state checked, the card described, its brand's rail picked, and select with the card. */
  readonly selectCard: (token: string, state: string, cardToken: string, buyerIp: string | undefined) => Effect.Effect<
    Payment,
    ApiErrorOf<"checkout_session_not_found" | "checkout_session_already_completed" | CreateCode> | CardStepRefused
  >
}>()("core/checkout/Checkout") {
  static readonly layer = Layer.effect(
    Checkout,
    Effect.gen(function*() {
      const store = yield* CheckoutSessionStore
      const payments = yield* Payments
      /**
       * A checkout's request claims its `Idempotency-Key` before it executes (its run does not
       * claim in the write-ahead), so the payment's write-ahead only binds the key, never finds it taken.
       */
      const createPayment = (scope: ShopScope, input: CreatePayment, key?: KeyHandle) =>
        key === undefined
          ? payments.create(scope, input)
          : payments.createKeyed(scope, { ...input, id: input.id ?? key.resume }, key).pipe(Effect.catchTag("KeyTaken", Effect.die))
      const catalog = yield* Catalog
      const routing = yield* Routing
      const fx = yield* Fx
      const ids = yield* Ids
      const clocks = yield* ShopClocks
      const tenancy = yield* TenancyStore
      const vaultConfigured = Option.match(yield* Effect.serviceOption(EngineConfig), { onNone: () => false, onSome: (c) => c.cardVaultConfigured === true })
      // A session is found by the SHA-256 of its token: the store never holds the token itself.
      const hashToken = yield* secretHasher

      const notFound = (token: string) =>
        apiError("checkout_session_not_found", "This checkout session does not exist or has expired (sessions last 24 hours)", {
          token
        })

      const alreadyCompleted = (session: CheckoutSession) =>
        apiError("checkout_session_already_completed", "This checkout session already created its transaction", {
          existingTxId: session.completedTxId
        })

      const create = Effect.fn("Checkout.create")(function*(scope: ShopScope, input: CreateSession, key?: KeyHandle) {
        const returnUrlProblem = input.returnUrl === undefined ? undefined : merchantUrlProblem(input.returnUrl, scope.environment)
        if (returnUrlProblem !== undefined) {
          return yield* invalidRequest(`returnUrl: ${returnUrlProblem}`, [{ path: "returnUrl", message: returnUrlProblem }])
        }
        const country = yield* Country.requestedCountry(input.country)
        const { conversion } = yield* payments.headline(input.amount, input.currency)
        const checked = checkCustomer(input.customer)
        const oneShot = input.paymentMethodId !== undefined
        if (!oneShot && checked.issues.length > 0) {
          return yield* invalidRequest(
            `Invalid customer: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
            checked.issues
          )
        }
        const now = yield* DateTime.now
        const token = yield* ids.secret("cst_", 24)
        const base = {
          token: yield* hashToken(token),
          environment: scope.environment,
          merchantId: scope.merchant.id,
          shopId: scope.shop.id,
          amount: input.amount,
          currency: conversion.from,
          country: country ?? null,
          customerIp: null,
          returnUrl: input.returnUrl ?? null,
          merchantOrderId: input.merchantOrderId ?? null,
          simulate: scope.environment === "sandbox" ? input.simulate ?? null : null,
          cardStep: null,
          expiresAt: DateTime.add(now, { hours: sessionLifetimeHours }),
          createdAt: now,
          version: 1
        } as const

        if (!oneShot) {
          const session: CheckoutSession = {
            ...base,
            id: yield* ids.next("checkoutSession"),
            mode: "selector",
            status: "awaiting_method",
            paymentMethodId: null,
            customer: checked.valid,
            completedTxId: null
          }
          yield* store.insert(session)
          return { session, token, payment: null, missingFields: [], local: null, amountUsd: conversion.converted }
        }

        // One-shot: individual fields win; the block only fills gaps with its valid values.
        const method = catalog.find(scope.environment, input.paymentMethodId!)
        const block = buyerDataOf({ ...checked.valid, userName: fullNameOf(checked.valid) })
        const buyer: BuyerData = {
          userName: input.userName ?? block.userName,
          email: input.userEmail ?? block.email,
          documentId: input.documentId ?? block.documentId,
          phone: input.userPhone ?? block.phone,
          address: input.userAddress ?? block.address
        }
        const providers = method === undefined ? [] : yield* routing.candidates(scope.environment, scope.shop.id, method)
        const missing = missingFor(buyer, method, method === undefined ? [] : neededByAll(providers, method))
        if (missing.length === 0) {
          const payment = yield* createPayment(scope, {
            amount: input.amount,
            currency: input.currency,
            paymentMethodId: input.paymentMethodId,
            country: input.country,
            ...createFieldsOf(buyer),
            merchantOrderId: input.merchantOrderId,
            hostedCheckout: true,
            returnUrl: input.returnUrl,
            simulate: input.simulate
          }, key)
          const session: CheckoutSession = {
            ...base,
            id: payment.id,
            mode: "one_shot",
            status: "pending",
            paymentMethodId: payment.paymentMethodId,
            customer: storedCustomer(buyer, true),
            completedTxId: payment.id
          }
          yield* store.insert(session)
          return {
            session,
            token,
            payment,
            missingFields: [],
            local: { amount: payment.amountLocal, currency: payment.currencyLocal },
            amountUsd: payment.amount
          }
        }
        if (method === undefined || providers.length === 0) {
          return yield* apiError("cascade_exhausted", `Payment method '${input.paymentMethodId}' is not available to this shop`, {
            reason: method === undefined ? "unknown_payment_method" : "no_provider_for_method_region",
            // A rail of the shop's listing is enabled for it even while no provider serves it.
            paymentMethodEnabledForShop: method !== undefined
          })
        }
        const local = yield* fx.localOf(conversion, method.currencies[0]!)
        const session: CheckoutSession = {
          ...base,
          id: yield* ids.next("checkoutSession"),
          mode: "one_shot",
          status: "awaiting_details",
          paymentMethodId: method.id,
          customer: storedCustomer(buyer, false),
          completedTxId: null
        }
        yield* store.insert(session)
        return {
          session,
          token,
          payment: null,
          missingFields: missing,
          local: { amount: local.converted, currency: local.to },
          amountUsd: conversion.converted
        }
      })

      // A session expires on its shop's clock (a sandbox shop's test clock moves it too).
      const get = Effect.fn("Checkout.get")(function*(token: string) {
        const found = yield* store.findByToken(yield* hashToken(token))
        if (
          Option.isNone(found) ||
          DateTime.isGreaterThanOrEqualTo(yield* clocks.now(found.value.environment, found.value.shopId), found.value.expiresAt)
        ) {
          return yield* notFound(token)
        }
        return found.value
      })

      /** The session's routable methods, each with what every provider that could take it needs. */
      const offers = Effect.fnUntraced(function*(session: CheckoutSession) {
        const route = yield* routing.routerFor(session.environment, session.shopId)
        const iso2 = session.country === null ? undefined : Option.getOrUndefined(Country.toIso2(session.country))
        return catalog.methods(session.environment).flatMap((method) => {
          if (session.paymentMethodId !== null && method.id !== session.paymentMethodId) return []
          if (iso2 !== undefined && method.country !== iso2) return []
          // As in the catalog: a production card rail is charged only through a card vault.
          if (session.environment === "production" && method.channel === "CREDIT_CARD" && !vaultConfigured) return []
          const providers = route(method)
          return providers.length === 0 ? [] : [{ method, providersNeed: neededByAll(providers, method) }]
        })
      })

      /**
       * One tile per rail: a sandbox test method (`sbx_*`) is left out when a real rail it mirrors
       * is offered too. The test methods let a merchant pick an outcome through the API
       * (`Sandbox-Simulate`); the buyer's page shows what production will show, and the buyer of a
       * sandbox shop still picks the outcome on the sandbox provider's form. A session opened for a
       * test method (`paymentMethodId: "sbx_pix"`) offers it alone and still shows it, and `select`
       * still takes any method the session offers.
       */
      const methods = Effect.fn("Checkout.methods")(function*(session: CheckoutSession) {
        const offered = yield* offers(session)
        const realShapes = new Set(offered.filter((o) => !o.method.sandboxOnly).map((o) => railShape(o.method)))
        return offered.filter((o) => !o.method.sandboxOnly || !realShapes.has(railShape(o.method))).map(({ method, providersNeed }): OfferedMethod => ({
          method,
          requiredFields: [...new Set([...method.requires, ...providersNeed])]
            .filter((field) => !alwaysAsked.includes(field))
            .map((field) => fieldName[field])
        }))
      })

      const recordBuyerIp = (session: CheckoutSession, ip: string) =>
        session.customerIp === ip || session.completedTxId !== null
          ? Effect.void
          : Effect.asVoid(store.update({ ...session, customerIp: ip, version: session.version + 1 }))

      const select = (token: string, input: SelectInput, buyerIp: string | undefined) =>
        Effect.flatMap(get(token), (session) =>
          // The buyer's pages are not the shop's requests: the transaction is created on its clock here.
          clocks.within(session.environment, session.shopId, selectOn(session, input, buyerIp))).pipe(Effect.withSpan("Checkout.select"))

      /** What select would create: the session's next status, the offered rail and the buyer's data, all checked. */
      const chosenOn = Effect.fnUntraced(function*(session: CheckoutSession, input: SelectInput) {
        const event = session.status === "awaiting_details" ? "details_completed" : "method_selected"
        const next = transitionSession(session.status, event)
        if (next._tag === "Failure") return yield* alreadyCompleted(session)

        const methodId = session.paymentMethodId ?? input.paymentMethodId
        if (methodId === undefined) {
          return yield* invalidRequest("paymentMethodId is required", [{ path: "paymentMethodId", message: "Missing key" }], ["paymentMethodId"])
        }
        if (session.paymentMethodId !== null && input.paymentMethodId !== undefined && input.paymentMethodId !== session.paymentMethodId) {
          return yield* invalidRequest("This checkout is for another payment method", [{
            path: "paymentMethodId",
            message: `Expected ${session.paymentMethodId}`
          }])
        }
        const offered = (yield* offers(session)).find((o) => o.method.id === methodId)
        if (offered === undefined) {
          return yield* invalidRequest(`Payment method '${methodId}' is not offered in this checkout`, [{
            path: "paymentMethodId",
            message: "Expected one of the methods listed for the session"
          }])
        }

        const c = input.customer
        const held = buyerDataOf({ ...session.customer, userName: fullNameOf(session.customer) })
        const buyer: BuyerData = {
          userName: trimmed(c?.fullName) ?? held.userName,
          email: trimmed(c?.email) ?? held.email,
          documentId: trimmed(c?.documentId) ?? held.documentId,
          phone: trimmed(c?.phone) ?? held.phone,
          address: c?.address ?? held.address
        }
        const { method, providersNeed } = offered
        const missing = missingFor(buyer, method, providersNeed)
        if (missing.length > 0) {
          return yield* apiError("missing_required_fields", `Missing or invalid buyer data: ${missing.join(", ")}`, { missingFields: missing })
        }
        return { next: next.success, method, buyer }
      })

      const selectOn = Effect.fnUntraced(function*(session: CheckoutSession, input: SelectInput, buyerIp: string | undefined) {
        const token = session.token
        const { next, method, buyer } = yield* chosenOn(session, input)
        // Claim the session for one transaction id: of racing selects, one wins the version check.
        const transactionId = yield* ids.next("transaction")
        const claimed: CheckoutSession = {
          ...session,
          status: next,
          completedTxId: transactionId,
          cardStep: null,
          customer: storedCustomer(buyer, true),
          version: session.version + 1
        }
        if (!(yield* store.update(claimed))) {
          const current = yield* store.findByToken(token)
          return yield* alreadyCompleted(Option.getOrElse(current, () => session))
        }
        const scope: ShopScope = {
          environment: session.environment,
          merchant: Option.getOrThrow(yield* tenancy.findMerchant(session.merchantId)),
          shop: Option.getOrThrow(yield* tenancy.findShop(session.shopId))
        }
        return yield* createPayment(scope, {
          id: transactionId,
          amount: session.amount,
          currency: session.currency,
          paymentMethodId: method.id,
          ...createFieldsOf(buyer),
          card: input.card,
          installments: input.installments,
          userIp: session.customerIp ?? buyerIp,
          merchantOrderId: session.merchantOrderId ?? undefined,
          hostedCheckout: true,
          returnUrl: session.returnUrl ?? undefined,
          simulate: session.simulate ?? undefined
        }).pipe(
          // The charge was not created: free the session again for another try. A charge the
          // provider may hold keeps the session on its transaction (a second could charge twice).
          Effect.tapError((error) =>
            keepsRecordOpen.has(error.code)
              ? Effect.void
              : store.update({ ...claimed, status: session.status, completedTxId: null, customer: session.customer, version: claimed.version + 1 })
          )
        )
      })

      const { holdForCard, selectCard } = cardStep({
        get,
        chosen: (session, input) => clocks.within(session.environment, session.shopId, chosenOn(session, input)),
        offered: (session) => Effect.map(offers(session), (list) => list.map((o) => o.method)),
        select,
        update: store.update,
        alreadyCompleted,
        secret: ids.secret("ccs_", 24),
        hash: hashToken
      })

      return Checkout.of({ create, get, methods, recordBuyerIp, select, holdForCard, selectCard })
    })
  )
}
