/** Handlers of card sessions (`CardSessionsApi.ts`): a session JWT for the card vault, or 503 without one. */
import { DateTime, Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { apiError } from "../../../../core/ApiError.ts"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { issueCardSession } from "../../../vault/CardSessions.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { HttpConfig } from "../support/HttpConfig.ts"

export const CardSessionHandlers = HttpApiBuilder.group(Api, "cardSessions", (handlers) =>
  Effect.gen(function*() {
    const config = yield* HttpConfig
    const vault = Option.fromNullishOr(config.cardSessions)
    return handlers.handleAll({
      create: () =>
        documented("cardSessions.create", Effect.gen(function*() {
          if (Option.isNone(vault)) {
            return yield* apiError("card_vault_not_configured", "No card vault is configured on this host")
          }
          const principal = yield* CurrentPrincipal
          const session = yield* issueCardSession(vault.value, principal.merchant.id)
          return { vaultUrl: session.vaultUrl, token: session.token, expiresAt: DateTime.formatIso(DateTime.fromDateUnsafe(session.expiresAt)) }
        }))
    })
  }))
