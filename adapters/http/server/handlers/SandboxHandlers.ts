/** Handlers of the sandbox test clock endpoints. */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { type ClockReading, SandboxClocks } from "../../../../core/clock/SandboxClocks.ts"
import { Scopes, type ShopScope } from "../../../../core/tenancy/Scopes.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"
import { ClockView } from "../../api/SandboxApi.ts"
import { makeIdempotent } from "../support/Idempotent.ts"

const view = (r: ClockReading) => ({ now: DateTime.formatIso(r.now), offsetSeconds: r.offsetSeconds })

export const SandboxHandlers = HttpApiBuilder.group(Api, "sandbox", (handlers) =>
  Effect.gen(function*() {
    const clocks = yield* SandboxClocks
    const scopes = yield* Scopes
    const idempotent = (yield* makeIdempotent).value
    const within = <A, E, R>(shopId: string | undefined, use: (scope: ShopScope) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentPrincipal, (p) => scopes.within(p, { shopId }, use))
    // Each handler is checked at compile time against the codes its operation documents.
    return handlers.handleAll({
      clock: ({ query }) => documented("sandbox.clock", within(query.shopId, (s) => Effect.map(clocks.read(s), view))),
      advance: ({ headers, payload }) =>
        documented("sandbox.advance", within(payload.shopId, (s) =>
          idempotent({
            operation: "POST /sandbox/clock/advance",
            scope: s,
            key: headers["idempotency-key"],
            request: { seconds: payload.seconds, shopId: s.shop.id },
            codec: ClockView,
            execute: () => Effect.map(clocks.advance(s, payload.seconds), view)
          })))
    })
  }))
