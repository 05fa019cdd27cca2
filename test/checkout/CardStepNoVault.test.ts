/**
 * A host with no card vault: the checkout's card tiles are not sent to any vault (no
 * `data-card`), and a sandbox card rail chosen without script is selected as before, on to the
 * sandbox's form, with no card.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"

describe("the hosted checkout on a host without a card vault", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("card tiles go through select, never to a vault", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const created = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, country: "BR", customer: { firstName: "Ana", lastName: "Souza" }, merchantOrderId: "no-vault-1" }
        })
        assert.strictEqual(created.status, 201)
        const pagePath = new URL(created.body.checkoutUrl).pathname
        const html = yield* Effect.promise(() => fetch(base + pagePath).then((r) => r.text()))
        assert.match(html, /value="1004"/)
        assert.notInclude(html, "data-card")
        const answer = yield* Effect.promise(() =>
          fetch(`${base}${pagePath}/pay`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ paymentMethodId: "1004", fullName: "Ana Souza", email: "ana@example.com", documentId: "52998224725" }).toString(),
            redirect: "manual"
          })
        )
        assert.strictEqual(answer.status, 303)
        assert.match(new URL(answer.headers.get("location")!).pathname, /^\/c\//)
        const list = yield* call("GET", "/api/v1/payments?merchantOrderId=no-vault-1", { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 1)
        assert.isUndefined(list.body.data[0].card)
      }))
  })
})
