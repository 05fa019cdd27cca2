/**
 * Production payouts through the dLocal payout connector, configured as `CONNECTORS` configures
 * it, against its simulator over real sockets: the payout is `processing` until dLocal's signed
 * notification completes it or fails it (debit reversed); a lost answer is never taken for a
 * refusal, and a retry of the client's key continues the same upstream payout.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { knownConnectors } from "../../host/Connectors.ts"
import { credentials } from "../../providers/dlocal/PayoutsHarness.ts"
import { PayoutsSimulator } from "../../providers/dlocal/PayoutsSimulator.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, eventually, fundProductionPayouts, testHost } from "../support/Host.ts"

class Upstream extends Context.Service<Upstream, PayoutsSimulator>()("test/DLocalPayoutsUpstream") {}

const dlocal = knownConnectors.find((c) => c.kind === "dlocal")!

const HostWithDLocal = Layer.unwrap(Effect.gen(function*() {
  const sim = yield* PayoutsSimulator.start(credentials, { slowMs: 1_500 })
  const instance = connectorInstance(dlocal, { id: "dlocal", environment: "production", baseUrl: sim.baseUrl, timeoutMs: 500 }, {
    LOGIN: credentials.login,
    TRANS_KEY: "dl_trans_payins_only",
    SECRET_KEY: credentials.secretKey,
    CLIENT_ID: credentials.clientId,
    CLIENT_SECRET: credentials.clientSecret
  })
  return Layer.merge(testHost(MemoryStore.layer, { connectors: [instance] }), Layer.succeed(Upstream, sim))
}))

const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }

describe("dLocal payouts through the host", () => {
  layer(HostWithDLocal, { timeout: 60_000, excludeTestServices: true })((it) => {
    const setup = Effect.gen(function*() {
      const sim = yield* Upstream
      yield* sim.setCallbackTarget(`${yield* baseUrl}/api/v1/providers/dlocal/payout-callbacks`)
      yield* sim.setMode("ok")
      const m = yield* createMerchant()
      const live = m.keys.production.secretKey
      yield* fundProductionPayouts(m.shops[0]!.id, "MXN", "1000")
      const available = Effect.map(
        call("GET", "/api/v1/me/payout/balance", { bearer: live }),
        (r) => r.body.balances.find((b: { currency: string }) => b.currency === "MXN").available as number
      )
      const send = (amount: number, key: string) =>
        call("POST", "/api/v1/me/payout/send", { bearer: live, body: { methodId: "po_mx_spei", amount, recipient: spei }, headers: { "Idempotency-Key": key } })
      const payoutOf = (id: string) => Effect.map(call("GET", `/api/v1/me/payout/send/${id}`, { bearer: live }), (r) => r.body.payout)
      return { sim, live, available, send, payoutOf }
    })

    it.effect("SPEI is routable through dLocal; dLocal's notifications complete one payout and fail another (debit reversed)", () =>
      Effect.gen(function*() {
        const { available, live, payoutOf, send, sim } = yield* setup
        const methods = (yield* call("GET", "/api/v1/me/payout/methods", { bearer: live })).body.items
        assert.deepInclude(methods.find((x: { id: string }) => x.id === "po_mx_spei"), { routable: true, driver: "dlocal" })
        assert.deepInclude(methods.find((x: { id: string }) => x.id === "po_co_wallet_nequi"), { routable: false })

        const first = (yield* send(200, "dl-first")).body.payout
        assert.deepInclude(first, { status: "processing", provider: "dlocal" })
        const upstream = sim.payouts.get(first.providerRef)!
        assert.deepInclude(upstream, { external_id: first.id, amountText: "200" })
        assert.strictEqual(upstream.body.beneficiary.bank_account.account, spei.account)
        assert.strictEqual(yield* available, 800)

        yield* sim.complete(first.providerRef)
        assert.strictEqual(sim.callbacksSent.at(-1)?.outcome, 200)
        assert.strictEqual((yield* payoutOf(first.id)).status, "completed")
        assert.strictEqual(yield* available, 800)

        const second = (yield* send(100, "dl-second")).body.payout
        assert.strictEqual(yield* available, 700)
        yield* sim.fail(second.providerRef, "ERROR_ACCOUNT_INCORRECT")
        assert.deepInclude(yield* payoutOf(second.id), { status: "failed", failureReason: "ERROR_ACCOUNT_INCORRECT" })
        assert.strictEqual(yield* available, 800, "the failed payout's debit is reversed")
      }))

    it.effect("a beneficiary dLocal refuses at once is failed with its debit reversed (422)", () =>
      Effect.gen(function*() {
        const { available, live } = yield* setup
        const refused = yield* call("POST", "/api/v1/me/payout/send", {
          bearer: live,
          body: { methodId: "po_mx_spei", amount: 50, recipient: { ...spei, account: PayoutsSimulator.rejectedAccount } }
        })
        assert.strictEqual(refused.status, 422)
        assert.deepInclude(refused.body.error.details, { debitReversed: true })
        assert.strictEqual(yield* available, 1000)
      }))

    it.effect("a lost answer is not a refusal: the payout stays processing and debited until dLocal's notification completes it", () =>
      Effect.gen(function*() {
        const { available, payoutOf, send, sim } = yield* setup
        yield* sim.setMode("slow")
        const lost = yield* send(300, "dl-lost")
        assert.strictEqual(lost.status, 201, `a lost answer must not fail the payout: ${JSON.stringify(lost.body)}`)
        assert.deepInclude(lost.body.payout, { status: "processing", providerRef: null })
        assert.strictEqual(yield* available, 700)
        const created = yield* eventually(Effect.sync(() => [...sim.payouts.values()].filter((p) => p.external_id === lost.body.payout.id)), (l) => l.length > 0)
        assert.strictEqual(created.length, 1, "dLocal did create it")

        yield* sim.setMode("ok")
        // The client's retry replays the answer it missed: the payout is processing, not failed.
        const retried = yield* send(300, "dl-lost")
        assert.deepInclude(retried.body.payout, { id: lost.body.payout.id, status: "processing" })
        // dLocal's signed notification names the payout: its reference is learnt, and it completes.
        yield* sim.complete(created[0]!.id)
        assert.deepInclude(yield* payoutOf(lost.body.payout.id), { status: "completed", providerRef: created[0]!.id })
        assert.strictEqual([...sim.payouts.values()].filter((p) => p.external_id === lost.body.payout.id).length, 1, "one upstream payout")
        assert.strictEqual(yield* available, 700, "debited once")
      }))

    it.effect("while dLocal is down the payout waits, debited; the operator resolves it (failed: debit back), once", () =>
      Effect.gen(function*() {
        const { available, payoutOf, send, sim } = yield* setup
        yield* sim.setMode("unavailable")
        const waiting = (yield* send(250, "dl-down")).body.payout
        assert.deepInclude(waiting, { status: "processing", providerRef: null })
        assert.strictEqual(yield* available, 750)
        const resolve = (body: Record<string, unknown>) =>
          call("POST", `/admin/v1/payouts/${waiting.id}/resolve`, { bearer: adminToken, body })
        const resolved = yield* resolve({ status: "failed", failureReason: "dLocal down for a day" })
        assert.strictEqual(resolved.status, 200)
        assert.deepInclude(resolved.body.payout, { status: "failed", failureReason: "dLocal down for a day" })
        assert.deepInclude(yield* payoutOf(waiting.id), { status: "failed" })
        assert.strictEqual(yield* available, 1000)
        const again = yield* resolve({ status: "completed" })
        assert.strictEqual(again.status, 409)
        assert.deepInclude(again.body.error, { code: "payout_already_final" })
        assert.strictEqual((yield* call("POST", "/admin/v1/payouts/po-nope/resolve", { bearer: adminToken, body: { status: "failed" } })).status, 404)
      }))
  })
})
