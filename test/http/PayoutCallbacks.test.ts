/**
 * Production payouts carried out by a payout provider plugin: `processing` until the provider's
 * signed callback (`/api/v1/providers/{id}/payout-callbacks`) completes it (money out) or fails it
 * (debit reversed); a callback that is not signed changes nothing.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { CallbackRejected } from "../../core/ports/PaymentProvider.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import type { PayoutProvider } from "../../core/ports/PayoutProvider.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { call, createMerchant, fundProductionPayouts, testHost } from "../support/Host.ts"

/** A payout upstream in miniature: accepts every payout as processing; callbacks signed "valid". */
const provider: PayoutProvider = {
  id: "po-test",
  environments: ["production"],
  supports: (method) => method.id === "po_mx_spei",
  send: (request) => Effect.succeed({ providerRef: `ref_${request.payoutId}`, status: "processing" }),
  status: (providerRef) => Effect.succeed({ providerRef, status: "processing" }),
  verifyCallback: (headers, rawBody) =>
    headers["x-po-signature"] === "valid"
      ? Effect.succeed(JSON.parse(rawBody))
      : Effect.fail(new CallbackRejected({ reason: "bad signature" }))
}

const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }

describe("payout provider callbacks", () => {
  layer(testHost(MemoryStore.layer, {}, Payouts.providers([provider])), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("processing until the provider's callback: completed sends the money, failed reverses the debit; unsigned changes nothing", () =>
      Effect.gen(function*() {
        const m = yield* createMerchant()
        const live = m.keys.production.secretKey
        const shopId = m.shops[0]!.id
        yield* fundProductionPayouts(shopId, "MXN", "1000")
        const methods = (yield* call("GET", "/api/v1/me/payout/methods", { bearer: live })).body.items
        assert.deepInclude(methods.find((x: { id: string }) => x.id === "po_mx_spei"), { routable: true, driver: "po-test" })
        const available = () =>
          Effect.map(call("GET", "/api/v1/me/payout/balance", { bearer: live }), (r) => r.body.balances.find((b: { currency: string }) => b.currency === "MXN").available)
        const send = (amount: number) => call("POST", "/api/v1/me/payout/send", { bearer: live, body: { methodId: "po_mx_spei", amount, recipient: spei } })
        const callback = (signature: string, updates: ReadonlyArray<Record<string, unknown>>) =>
          call("POST", "/api/v1/providers/po-test/payout-callbacks", { rawBody: JSON.stringify(updates), headers: { "x-po-signature": signature } })
        const payoutOf = (id: string) => Effect.map(call("GET", `/api/v1/me/payout/send/${id}`, { bearer: live }), (r) => r.body.payout)

        const first = (yield* send(200)).body.payout
        assert.deepInclude(first, { status: "processing", provider: "po-test", providerRef: `ref_${first.id}` })
        assert.strictEqual(yield* available(), 800)

        const forged = yield* callback("forged", [{ payoutId: first.id, providerRef: first.providerRef, status: "completed" }])
        assert.strictEqual(forged.status, 401)
        assert.strictEqual((yield* payoutOf(first.id)).status, "processing")

        const completed = yield* callback("valid", [{ payoutId: first.id, providerRef: first.providerRef, status: "completed" }])
        assert.deepStrictEqual(completed.body, { received: true, applied: 1 })
        assert.strictEqual((yield* payoutOf(first.id)).status, "completed")
        assert.strictEqual(yield* available(), 800)
        // A repeat changes nothing.
        yield* callback("valid", [{ payoutId: first.id, providerRef: first.providerRef, status: "failed" }])
        assert.strictEqual((yield* payoutOf(first.id)).status, "completed")

        const second = (yield* send(100)).body.payout
        assert.strictEqual(yield* available(), 700)
        yield* callback("valid", [{ payoutId: second.id, providerRef: second.providerRef, status: "failed", detail: "account closed" }])
        assert.deepInclude(yield* payoutOf(second.id), { status: "failed", failureReason: "account closed" })
        assert.strictEqual(yield* available(), 800, "the failed payout's debit is reversed")

        const events = (yield* (yield* OutboxStore).list("production", shopId)).map((e) => e.type).filter((t) => t.startsWith("payout."))
        assert.sameMembers(events, ["payout.completed", "payout.failed"])
      }))
  })
})
