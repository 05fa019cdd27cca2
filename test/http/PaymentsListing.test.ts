/**
 * What the console's payment pages read, through HTTP on every store: the list's date and amount
 * filters (a bad value is a 400 naming its parameter), keyset paging that neither skips nor
 * repeats while payments arrive, and a payment's refundable amount, routing reasons, claims,
 * ledger entries and its events' webhook deliveries.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const pay = (sk: string, amount: number, merchantOrderId: string, simulate = "paid") =>
  Effect.map(
    call("POST", "/api/v1/payments", {
      bearer: sk,
      headers: { "sandbox-simulate": simulate },
      body: { amount, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725", merchantOrderId }
    }),
    (r) => {
      if (r.status !== 201) throw new Error(`pay: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body.transactionId as string
    }
  )

const list = (sk: string, query: string) => call("GET", `/api/v1/payments?${query}`, { bearer: sk })

const refusedNaming = (reply: { status: number; body: any }, parameter: string) => {
  assert.strictEqual(reply.status, 400, JSON.stringify(reply.body))
  assert.strictEqual(reply.body.error.code, "invalid_request")
  const paths = (reply.body.error.details.issues as Array<{ path: unknown }>).map((i) => Array.isArray(i.path) ? i.path.join(".") : String(i.path))
  assert.include(paths, parameter)
}

for (const target of storeTargets("paymentslisting")) {
  describe(`payment listing and timeline on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 90_000, excludeTestServices: true })((it) => {
      it.effect("filters by date and USD amount, and refuses bad values naming the parameter", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          for (const amount of [10, 20, 30, 40, 50]) yield* pay(sk, amount, `amt-${amount}`, "slow_payment")
          const between = yield* list(sk, "amountMin=20&amountMax=40")
          assert.strictEqual(between.status, 200)
          assert.deepStrictEqual(between.body.data.map((p: any) => p.amount).sort(), [20, 30, 40])
          assert.strictEqual(between.body.pagination.total, 3)
          assert.strictEqual((yield* list(sk, "amountMin=50.00")).body.pagination.total, 1)

          const today = new Date().toISOString().slice(0, 10)
          const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
          const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
          assert.strictEqual((yield* list(sk, `createdFrom=${today}&createdTo=${today}`)).body.pagination.total, 5)
          assert.strictEqual((yield* list(sk, `createdTo=${yesterday}`)).body.pagination.total, 0)
          assert.strictEqual((yield* list(sk, `createdFrom=${tomorrow}`)).body.pagination.total, 0)
          const later = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())
          assert.strictEqual((yield* list(sk, `createdTo=${later}&amountMax=10`)).body.pagination.total, 1)

          refusedNaming(yield* list(sk, "createdFrom=yesterday"), "createdFrom")
          refusedNaming(yield* list(sk, "createdTo=2026-13-45"), "createdTo")
          refusedNaming(yield* list(sk, `createdFrom=${tomorrow}&createdTo=${yesterday}`), "createdFrom")
          refusedNaming(yield* list(sk, "amountMin=-1"), "amountMin")
          refusedNaming(yield* list(sk, "amountMax=1e3"), "amountMax")
          refusedNaming(yield* list(sk, "amountMin=50&amountMax=10"), "amountMin")
          refusedNaming(yield* list(sk, "startingAfter=TXN-NOPE"), "startingAfter")
          const other = yield* createMerchant({ name: "Other" })
          const foreign = yield* pay(other.keys.sandbox.secretKey, 10, "foreign", "slow_payment")
          refusedNaming(yield* list(sk, `startingAfter=${foreign}`), "startingAfter")
          const first = between.body.data[0].id
          refusedNaming(yield* list(sk, `startingAfter=${first}&offset=1`), "offset")
          const unknown = yield* list(sk, "startingFrom=x")
          assert.strictEqual(unknown.status, 400, "an unknown query parameter is refused")
        }))

      it.effect("keyset paging neither skips nor repeats while payments arrive; offset paging still works", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          for (let i = 0; i < 5; i++) yield* pay(sk, 10 + i, `page-${i}`, "slow_payment")
          const all = (yield* list(sk, "limit=100")).body.data.map((p: any) => p.id) as Array<string>
          assert.strictEqual(all.length, 5)
          const seen: Array<string> = []
          let after: string | undefined
          for (let round = 0; round < 5; round++) {
            const page = yield* list(sk, `limit=2${after === undefined ? "" : `&startingAfter=${after}`}`)
            assert.strictEqual(page.status, 200)
            assert.strictEqual(page.body.pagination.total, 5 + (round > 0 ? 1 : 0))
            const ids = page.body.data.map((p: any) => p.id) as Array<string>
            seen.push(...ids)
            if (round === 0) yield* pay(sk, 99, "arrives-meanwhile", "slow_payment")
            if (ids.length < 2) break
            after = ids[ids.length - 1]
          }
          assert.deepStrictEqual(seen, all, "every payment once, in order, none of the newer one")
          const offsetPage = yield* list(sk, "limit=2&offset=2")
          assert.strictEqual(offsetPage.status, 200)
          assert.strictEqual(offsetPage.body.data.length, 2)
        }))

      it.effect("a payment's refundable amount, routing reasons, claims, ledger entries and deliveries", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const webhook = yield* call("POST", "/api/v1/webhooks", { bearer: sk, body: { events: ["*"] } })
          assert.strictEqual(webhook.status, 201)
          const id = yield* pay(sk, 100, "timeline")
          const paid = yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed")
          assert.strictEqual(paid.body.refundable, paid.body.amountLocal)
          const attempt = paid.body.routing.attempts[0]
          assert.isDefined(attempt)
          assert.isNumber(attempt.latencyMs)
          if (attempt.routing !== undefined) assert.include(["static", "health", "success_rate"], attempt.routing.strategy)

          const refund = yield* call("POST", `/api/v1/payments/${id}/refund`, { bearer: sk, body: { amount: 100, reason: "duplicate" } })
          assert.strictEqual(refund.status, 201, JSON.stringify(refund.body))
          const claims = yield* eventually(call("GET", `/api/v1/payments/${id}/claims`, { bearer: sk }), (r) => r.body.data[0]?.status === "approved")
          assert.strictEqual(claims.status, 200)
          assert.strictEqual(claims.body.data.length, 1)
          assert.deepInclude(claims.body.data[0], { id: refund.body.refundId, kind: "user_dispute", amount: 100, refundStatus: "succeeded" })
          const after = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
          assert.strictEqual(after.body.refundable, Math.round((paid.body.amountLocal - 100) * 100) / 100)

          const ledger = yield* call("GET", `/api/v1/payments/${id}/ledger-entries`, { bearer: sk })
          assert.strictEqual(ledger.status, 200)
          const types = ledger.body.data.map((e: any) => e.type) as Array<string>
          assert.include(types, "payment.completed")
          assert.isTrue(ledger.body.data.some((e: any) => e.reference === refund.body.refundId), "the refund's entries are the payment's too")
          for (const e of ledger.body.data) {
            const sums = new Map<string, number>()
            for (const p of e.postings) sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.amount)
            for (const s of sums.values()) assert.isBelow(Math.abs(s), 1e-6, `entry ${e.id} balances`)
          }

          const events = yield* call("GET", `/api/v1/events?relatedId=${id}`, { bearer: sk })
          const completed = events.body.data.find((e: any) => e.type === "payment.completed")
          assert.isDefined(completed)
          const deliveries = yield* eventually(
            call("GET", `/api/v1/events/${completed.id}/deliveries`, { bearer: sk }),
            (r) => r.body.data[0]?.status === "succeeded"
          )
          assert.strictEqual(deliveries.status, 200)
          assert.deepInclude(deliveries.body.data[0], { webhookId: webhook.body.id, event: "payment.completed", status: "succeeded", relatedTxId: id })

          // Another merchant sees none of it.
          const other = yield* createMerchant({ name: "Other" })
          const osk = other.keys.sandbox.secretKey
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}/claims`, { bearer: osk })).status, 404)
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}/ledger-entries`, { bearer: osk })).status, 404)
          assert.strictEqual((yield* call("GET", `/api/v1/events/${completed.id}/deliveries`, { bearer: osk })).status, 404)
          assert.strictEqual((yield* call("GET", `/api/v1/payments/TXN-NOPE/claims`, { bearer: sk })).status, 404)
        }))
    })
  })
}
