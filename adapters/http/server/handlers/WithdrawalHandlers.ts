/** Handlers of the withdrawal endpoints (merchant and operator). */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { withdrawalView, Withdrawals } from "../../../../core/balances/Withdrawals.ts"
import * as Money from "../../../../core/Money.ts"
import { Scopes } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { WithdrawalResult } from "../../api/WithdrawalsApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"
import { clampPage, pagination } from "../support/Paging.ts"
import { documented } from "../../api/OperationErrors.ts"

const result = (w: Parameters<typeof withdrawalView>[0]) => ({ withdrawal: withdrawalView(w) })

export const WithdrawalHandlers = HttpApiBuilder.group(Api, "withdrawals", (handlers) =>
  Effect.gen(function*() {
    const withdrawals = yield* Withdrawals
    const scopes = yield* Scopes
    const idempotent = (yield* makeIdempotent).value
    const scope = Effect.flatMap(CurrentPrincipal, (p) => scopes.resolve(p))

    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      create: ({ headers, payload }) =>
        documented("withdrawals.create", Effect.gen(function*() {
          const s = yield* scope
          return yield* idempotent({
            operation: "POST /me/withdrawals",
            atomic: true,
            scope: s,
            key: headers["idempotency-key"],
            request: { amount: Money.toText(payload.amount), destination: payload.destination },
            codec: WithdrawalResult,
            execute: () => Effect.map(withdrawals.request(s, payload), result)
          })
        })),
      list: ({ query }) =>
        documented("withdrawals.list", Effect.gen(function*() {
          const page = clampPage(query)
          const { rows, total } = yield* withdrawals.list(yield* scope, { status: query.status }, page)
          return { data: rows.map(withdrawalView), pagination: pagination(total, page) }
        })),
      get: ({ params }) => documented("withdrawals.get", Effect.map(Effect.flatMap(scope, (s) => withdrawals.get(s, params.id)), result)),
      simulate: ({ params, payload }) =>
        documented("withdrawals.simulate", Effect.map(Effect.flatMap(scope, (s) => withdrawals.simulate(s, params.id, payload.action)), result))
    })
  }))

export const WithdrawalAdminHandlers = HttpApiBuilder.group(Api, "withdrawalAdmin", (handlers) =>
  Effect.gen(function*() {
    const withdrawals = yield* Withdrawals
    return handlers.handleAll({
      resolve: ({ params, payload }) => documented("withdrawalAdmin.resolve", Effect.map(withdrawals.resolve(params.id, payload), result))
    })
  }))
