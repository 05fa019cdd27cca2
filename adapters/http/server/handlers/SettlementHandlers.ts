/** Handlers of the settlement endpoints: the merchant's batches and statements, provider notifications, the operator's schedule. */
import { type BigDecimal, DateTime, Effect, Option } from "effect"
import * as Money from "../../../../core/Money.ts"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { invalidRequest, notFound } from "../../../../core/ApiError.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import type { Environment } from "../../../../core/Environment.ts"
import { SettlementPayoutProviders } from "../../../../core/ports/SettlementPayoutProvider.ts"
import { TenancyStore } from "../../../../core/ports/TenancyStore.ts"
import { type ShopAccount, Settlements } from "../../../../core/settlements/Settlements.ts"
import { scheduleView, settlementView } from "../../../../core/settlements/SettlementView.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { csv } from "../../../statements/CsvStatement.ts"
import { pdf } from "../../../statements/PdfStatement.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { clampPage, pagination } from "../support/Paging.ts"

/** `attachment; filename="<id>.<ext>"`: ids are `STL-` and base62, nothing to quote. */
const attachment = (id: string, ext: "pdf" | "csv") => ({ "content-disposition": `attachment; filename="${id}.${ext}"` })

export const SettlementHandlers = HttpApiBuilder.group(Api, "settlements", (handlers) =>
  Effect.gen(function*() {
    const settlements = yield* Settlements
    const scopes = yield* Scopes
    const account = Effect.map(
      Effect.flatMap(CurrentPrincipal, (p) => scopes.resolve(p)),
      (s): ShopAccount => ({ environment: s.environment, merchantId: s.merchant.id, shopId: s.shop.id })
    )
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      list: ({ query }) =>
        documented("settlements.list", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* settlements.list(yield* account, page)
          return { data: rows.map(settlementView), pagination: pagination(total, page) }
        })),
      get: ({ params }) => documented("settlements.get", Effect.map(Effect.flatMap(account, (a) => settlements.get(a, params.id)), settlementView)),
      statementPdf: ({ params }) =>
        documented("settlements.statementPdf", Effect.gen(function*() {
          const statement = yield* settlements.statement(yield* account, params.id)
          const body = yield* pdf(statement)
          return HttpApiSchema.withHeaders({ body, headers: attachment(statement.batch.id, "pdf") })
        })),
      lines: ({ params, query }) =>
        documented("settlements.lines", Effect.gen(function*() {
          const page = clampPage(query)
          const statement = yield* settlements.statement(yield* account, params.id)
          const n = (d: BigDecimal.BigDecimal) => Money.toJsonNumber(Money.round(d, "USD"))
          return {
            settlementId: statement.batch.id,
            data: statement.lines.slice(page.offset, page.offset + page.limit).map((l) => ({
              at: DateTime.formatIso(l.at),
              kind: l.kind,
              transactionId: l.transactionId,
              reference: l.reference,
              merchantOrderId: l.merchantOrderId,
              method: l.method,
              amountLocal: l.amountLocal === null ? null : Money.toJsonNumber(l.amountLocal),
              currencyLocal: l.currencyLocal,
              grossUsd: n(l.grossUsd),
              feesUsd: n(l.feesUsd),
              reserveUsd: n(l.reserveUsd),
              owedRecoveredUsd: n(l.owedRecoveredUsd),
              refundsUsd: n(l.refundsUsd),
              chargebacksUsd: n(l.chargebacksUsd),
              otherUsd: n(l.otherUsd),
              amountUsd: n(l.amountUsd)
            })),
            pagination: pagination(statement.lines.length, page)
          }
        })),
      statementCsv: ({ params }) =>
        documented("settlements.statementCsv", Effect.gen(function*() {
          const statement = yield* settlements.statement(yield* account, params.id)
          return HttpApiSchema.withHeaders({ body: csv(statement), headers: attachment(statement.batch.id, "csv") })
        }))
    })
  }))

export const SettlementCallbackHandlers = HttpApiBuilder.group(Api, "settlementCallbacks", (handlers) =>
  Effect.gen(function*() {
    const settlements = yield* Settlements
    const providers = yield* SettlementPayoutProviders
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      // Raw: the body is verified as it was sent, and Circle sends its JSON as text/plain.
      .handleRaw("notify", ({ params, request }) =>
        documented("settlementCallbacks.notify", Effect.gen(function*() {
          const rawBody = yield* request.text.pipe(Effect.mapError(() => invalidRequest("The notification body could not be read", [])))
          const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]))
          return { received: true, settlements: yield* settlements.callback(params.providerId, headers, rawBody) }
        })))
      .handle("check", ({ params }) =>
        documented("settlementCallbacks.check", providers.byId(params.providerId) === undefined ? Effect.fail(notFound("settlement payout provider", params.providerId)) : Effect.void))
  }))

export const SettlementAdminHandlers = HttpApiBuilder.group(Api, "settlementAdmin", (handlers) =>
  Effect.gen(function*() {
    const settlements = yield* Settlements
    const tenancy = yield* TenancyStore
    /** The shop's account in the environment: its merchant is the shop's own. */
    const accountOf = (shopId: string, environment: Environment) =>
      Effect.flatMap(tenancy.findShop(shopId), (shop) =>
        Option.isNone(shop)
          ? Effect.fail(notFound("shop", shopId))
          : Effect.succeed<ShopAccount>({ environment, merchantId: shop.value.merchantId, shopId }))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers
      .handle("getSchedule", ({ params, query }) =>
        documented("settlementAdmin.getSchedule", Effect.gen(function*() {
          const found = yield* settlements.schedule(yield* accountOf(params.shopId, query.environment))
          if (Option.isNone(found)) return yield* notFound("settlement schedule", `${params.shopId} (${query.environment})`)
          return scheduleView(found.value.schedule, found.value.nextCloseAt, yield* settlements.destinationState(found.value.schedule))
        })))
      .handle("putSchedule", ({ params, payload, query }) =>
        documented("settlementAdmin.putSchedule", Effect.gen(function*() {
          const set = yield* settlements.setSchedule(yield* accountOf(params.shopId, query.environment), payload)
          return scheduleView(set.schedule, set.nextCloseAt, set.approval)
        })))
  }))
