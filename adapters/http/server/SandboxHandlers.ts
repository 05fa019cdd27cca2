/** Handlers of the sandbox test clock endpoints. */
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../core/auth/Principal.ts"
import { type ClockReading, SandboxClocks } from "../../../core/clock/SandboxClocks.ts"
import { Scopes } from "../../../core/tenancy/Scopes.ts"
import { Api } from "../api/Api.ts"

const view = (r: ClockReading) => ({ now: DateTime.formatIso(r.now), offsetSeconds: r.offsetSeconds })

export const SandboxHandlers = HttpApiBuilder.group(Api, "sandbox", (handlers) =>
  Effect.gen(function*() {
    const clocks = yield* SandboxClocks
    const scopes = yield* Scopes
    const scope = (shopId: string | undefined) => Effect.flatMap(CurrentPrincipal, (p) => scopes.resolve(p, { shopId }))
    return handlers.handleAll({
      clock: ({ query }) => Effect.map(Effect.flatMap(scope(query.shopId), clocks.read), view),
      advance: ({ payload }) => Effect.map(Effect.flatMap(scope(payload.shopId), (s) => clocks.advance(s, payload.seconds)), view)
    })
  }))
