/**
 * What the card tests over HTTP share: a shop routed to card acquirers in order (each enabled or
 * not, with the static strategy unless told otherwise), and a card tokenized at the real vault
 * through a card session, as a merchant's server does it.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { adminToken, call } from "./Host.ts"

/** Routes the shop's sandbox to `providers` in this order (priority 1, 2...), `[id, enabled]`; with `static`, in that order always. */
export const routeCards = (shopId: string, providers: ReadonlyArray<readonly [string, boolean]>, options: { readonly static?: boolean } = { static: true }) =>
  Effect.gen(function*() {
    for (const [i, [providerId, enabled]] of providers.entries()) {
      const routed = yield* call("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority: i + 1, enabled } })
      assert.strictEqual(routed.status, 200, JSON.stringify(routed.body))
    }
    if (options.static === true) {
      const routing = yield* call("PUT", `/admin/v1/shops/${shopId}/routing`, { bearer: adminToken, body: { environment: "sandbox", strategy: "static", rules: [] } })
      assert.strictEqual(routing.status, 200, JSON.stringify(routing.body))
    }
  })

/** A vault token of a test card `number` (12/2031, Ana Souza, code 123) for the merchant of `bearer`. */
export const tokenizeCard = (bearer: string, number: string) =>
  Effect.gen(function*() {
    const session = yield* call("POST", "/api/v1/card-sessions", { bearer, body: {} })
    assert.strictEqual(session.status, 200, JSON.stringify(session.body))
    const { token, vaultUrl } = session.body as { token: string; vaultUrl: string }
    const card = yield* Effect.promise(async () => {
      const answer = await fetch(`${vaultUrl}/v1/cards`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ number, expMonth: 12, expYear: 2031, holderName: "Ana Souza", securityCode: "123" })
      })
      return await answer.json() as { token: string }
    })
    return card.token
  })
