/** Handlers of the deposit-account endpoints, the deposit network's notifications and their admin. */
import { DateTime, Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { apiError, invalidRequest } from "../../../../core/ApiError.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import type { DepositAccount, DepositStats } from "../../../../core/deposits/Deposit.ts"
import { Deposits, depositView } from "../../../../core/deposits/Deposits.ts"
import * as Money from "../../../../core/Money.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { AccountEnvelope } from "../../api/DepositsApi.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clampPage, pagination } from "../support/Paging.ts"

const accountView = (a: DepositAccount, stats?: DepositStats) => ({
  id: a.id,
  endUserRef: a.endUserRef,
  clabe: a.clabe,
  bank: a.bank,
  currency: a.currency,
  country: a.country,
  methodName: a.methodName,
  depositMethodId: a.depositMethodId,
  beneficiary: { name: a.name, email: a.email },
  customer: { name: a.name, email: a.email, phone: a.phone, documentType: a.documentType, documentId: a.documentId, country: a.customerCountry },
  metadata: a.metadata,
  status: a.status,
  environment: a.environment,
  createdAt: DateTime.formatIso(a.createdAt),
  updatedAt: DateTime.formatIso(a.updatedAt),
  ...(stats === undefined ? {} : {
    stats: {
      deposits: stats.deposits,
      credited: stats.credited,
      totalUsd: Money.toJsonNumber(stats.totalUsd),
      localTotals: stats.localTotals.map((t) => ({ currency: t.currency, amount: Money.toJsonNumber(t.amount) })),
      lastDepositAt: stats.lastDepositAt === null ? null : DateTime.formatIso(stats.lastDepositAt)
    }
  })
})

const encodeEnvelope = Schema.encodeSync(AccountEnvelope)

/** Deposit accounts belong to one shop: a merchant-wide credential names none. */
const shopBound = Effect.fnUntraced(function*(scopes: Scopes["Service"]) {
  const principal = yield* CurrentPrincipal
  if (principal.credential.shopId === null) {
    return yield* apiError("invalid_request", "Deposit accounts need a shop-bound credential; this key covers every shop of the merchant", {
      issues: [{ path: "authorization", message: "Expected a shop-bound key" }],
      missingFields: []
    })
  }
  return yield* scopes.resolve(principal)
})

const NotificationBody = Schema.Struct({
  clabe: Schema.String,
  amount: Schema.Union([Money.Amount, Schema.BigDecimalFromString]),
  currency: Schema.String,
  trackingKey: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(60)),
  payerName: Schema.String,
  payerBank: Schema.optional(Schema.String),
  payerAccount: Schema.optional(Schema.String)
})

export const DepositHandlers = HttpApiBuilder.group(Api, "deposits", (handlers) =>
  Effect.gen(function*() {
    const deposits = yield* Deposits
    const shopBoundScope = shopBound(yield* Scopes)
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      methods: () =>
        documented("deposits.methods", Effect.gen(function*() {
          const scope = yield* shopBoundScope
          const methods = yield* deposits.methods(scope)
          return {
            methods: methods.map((m) => ({ depositMethodId: m.depositMethodId, method: m.method, name: m.name, country: m.country, currency: m.currency }))
          }
        })),
      getOrCreate: ({ payload }) =>
        documented("deposits.getOrCreate", Effect.gen(function*() {
          const scope = yield* shopBoundScope
          const { account, created } = yield* deposits.getOrCreate(scope, payload)
          return HttpServerResponse.jsonUnsafe(encodeEnvelope({ created, account: accountView(account) }), { status: created ? 201 : 200 })
        })),
      list: ({ query }) =>
        documented("deposits.list", Effect.gen(function*() {
          const scope = yield* shopBoundScope
          const page = clampPage(query, 200)
          const { rows, total } = yield* deposits.list(scope, { endUserRef: query.endUserRef }, page)
          const stats = query.include === "stats" ? yield* deposits.stats(rows.map((a) => a.id)) : undefined
          return { accounts: rows.map((a) => accountView(a, stats?.get(a.id))), pagination: { total, limit: page.limit, offset: page.offset } }
        })),
      get: ({ params }) => documented("deposits.get", Effect.map(Effect.flatMap(shopBoundScope, (s) => deposits.get(s, params.id)), (a) => ({ account: accountView(a) }))),
      deposits: ({ params, query }) =>
        documented("deposits.deposits", Effect.gen(function*() {
          const page = clampPage(query)
          const { account, rows, total } = yield* deposits.deposits(yield* shopBoundScope, params.id, page)
          return { deposits: rows.map((d) => depositView(d, account)), pagination: pagination(total, page) }
        })),
      simulate: ({ params, payload }) =>
        documented("deposits.simulate", Effect.gen(function*() {
          const scope = yield* shopBoundScope
          const { account, created, deposit } = yield* deposits.simulate(scope, params.id, payload)
          return { created, deposit: depositView(deposit, account) }
        }))
    })
  }))

export const DepositNotificationHandlers = HttpApiBuilder.group(Api, "depositNotifications", (handlers) =>
  Effect.gen(function*() {
    const deposits = yield* Deposits
    return handlers.handleRaw("notify", ({ params, request }) =>
      documented("depositNotifications.notify", Effect.gen(function*() {
        const rawBody = yield* request.text.pipe(Effect.mapError(() => invalidRequest("The body could not be read", [])))
        yield* deposits.verifyNotification(request.headers["x-deposit-signature"], rawBody)
        const body = yield* Schema.decodeUnknownEffect(Schema.fromJsonString(NotificationBody))(rawBody).pipe(
          Effect.mapError((e) => invalidRequest(`Unreadable notification: ${e.message}`, []))
        )
        const { account, created, deposit } = yield* deposits.receive({ ...body, depositMethodId: params.depositMethodId })
        return { received: true, credited: created && deposit.status === "credited", deposit: depositView(deposit, account) }
      })))
  }))

export const DepositAdminHandlers = HttpApiBuilder.group(Api, "depositAdmin", (handlers) =>
  Effect.gen(function*() {
    const deposits = yield* Deposits
    return handlers.handleAll({
      getSettings: ({ params, query }) => documented("depositAdmin.getSettings", deposits.settings(query.environment, params.shopId)),
      putSettings: ({ params, payload }) =>
        documented("depositAdmin.putSettings", deposits.configure({
          environment: payload.environment,
          shopId: params.shopId,
          depositMethodIds: payload.depositMethodIds,
          requirePhone: payload.requirePhone ?? false
        })),
      setAccountStatus: ({ params, payload }) => documented("depositAdmin.setAccountStatus", Effect.map(deposits.setStatus(params.id, payload.status), (a) => ({ account: accountView(a) })))
    })
  }))
