/**
 * The web console at `/console`: merchants' and operators' pages, server-rendered by the host.
 * It is a client of the API (see `ApiClient.ts`): every page reads, and every action changes,
 * through the same API operations a script calls, with the signed-in session's bearer and the
 * form's idempotency key. It holds no privilege of its own.
 *
 * Folders: `merchant/` (payments, balances, payouts, settlements, webhooks, developers) and
 * `operator/` (merchants, connectors, routing, queues, FX rates, reconciliation).
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { SecureRandom } from "effect/crypto"
import { EngineConfig } from "../../../core/EngineConfig.ts"
import { makeApiClient } from "./ApiClient.ts"
import { makeRoute } from "./Page.ts"
import { Sessions } from "./Sessions.ts"
import { shownOnceRoute } from "./ShownOnce.ts"
import { signInRoutes } from "./SignIn.ts"
import { invitationRoutes } from "./Invitation.ts"
import { merchantRoutes } from "./merchant/index.ts"
import { operatorRoutes } from "./operator/index.ts"

export const ConsoleRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const sessions = yield* Sessions
    const random = yield* SecureRandom.SecureRandom
    const config = yield* EngineConfig
    const api = makeApiClient(router)
    const route = makeRoute(sessions, api, random)
    for (const r of [...signInRoutes(sessions, api, config.publicUrl), ...invitationRoutes(api)]) yield* router.add(r.method, r.path, r.handler)
    for (const r of [shownOnceRoute, ...merchantRoutes, ...operatorRoutes]) yield* router.add(r.method, r.path, route(r))
  })
).pipe(Layer.provide(Sessions.layer))
