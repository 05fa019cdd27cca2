/**
 * What the console's payment pages read, through HTTP on every store: the list's date and amount
 * filters (a bad value is a 400 naming its parameter), keyset paging that neither skips nor
 * repeats while payments arrive, and a payment's refundable amount, routing reasons, claims,
 * ledger entries and its events' webhook deliveries. Requests go through the typed client
 * (TypedApi.ts); `call` stays for an unknown query parameter, which it cannot send.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import type { ApiError } from "../../core/ApiError.ts"
import * as Money from "../../core/Money.ts"
import type { SandboxSimulate } from "../../core/ports/PaymentProvider.ts"
import { call, createMerchant, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

type Client = Effect.Success<ReturnType<typeof apiAs>>
type ListQuery = Parameters<Client["payments"]["list"]>[0]["query"]

/** With the raw response beside the decoded answer, for its status. */
const withResponse = { responseMode: "decoded-and-response" } as const

const pay = (api: Client, amount: number, merchantOrderId: string, simulate: SandboxSimulate = "paid") =>
  Effect.map(
    api.payments.create({
      payload: { amount: Money.decimal(String(amount)), paymentMethodId: "sbx_pix", userName: Redacted.make("Ana Souza"), documentId: Redacted.make("52998224725"), merchantOrderId },
      headers: { "sandbox-simulate": simulate },
      ...withResponse
    }),
    ([payment, response]) => {
      if (response.status !== 201) throw new Error(`pay: ${response.status} ${JSON.stringify(payment)}`)
      return payment.transactionId
    }
  )

/** The list with the raw response beside it, for its status. */
const list = (api: Client, query: ListQuery) => api.payments.list({ query, ...withResponse })

const total = (api: Client, query: ListQuery) => Effect.map(api.payments.list({ query }), (r) => r.pagination.total)

const refusedNaming = (refusal: ApiError, parameter: string) => {
  assert.strictEqual(httpStatus[refusal.code], 400, JSON.stringify(refusal))
  assert.strictEqual(refusal.code, "invalid_request")
  const paths = (refusal.details["issues"] as Array<{ path: unknown }>).map((i) => Array.isArray(i.path) ? i.path.join(".") : String(i.path))
  assert.include(paths, parameter)
}

const listRefusal = (api: Client, query: ListQuery) => refused(api.payments.list({ query }))

for (const target of storeTargets("paymentslisting")) {
  describe(`payment listing and timeline on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 90_000, excludeTestServices: true })((it) => {
      it.effect("filters by date and USD amount, and refuses bad values naming the parameter", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const api = yield* apiAs(sk)
          for (const amount of [10, 20, 30, 40, 50]) yield* pay(api, amount, `amt-${amount}`, "slow_payment")
          const [between, betweenReply] = yield* list(api, { amountMin: "20", amountMax: "40" })
          assert.strictEqual(betweenReply.status, 200)
          assert.deepStrictEqual(between.data.map((p) => p.amount).sort(), [20, 30, 40])
          assert.strictEqual(between.pagination.total, 3)
          assert.strictEqual(yield* total(api, { amountMin: "50.00" }), 1)

          const today = new Date().toISOString().slice(0, 10)
          const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
          const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
          assert.strictEqual(yield* total(api, { createdFrom: today, createdTo: today }), 5)
          assert.strictEqual(yield* total(api, { createdTo: yesterday }), 0)
          assert.strictEqual(yield* total(api, { createdFrom: tomorrow }), 0)
          const later = new Date(Date.now() + 3_600_000).toISOString()
          assert.strictEqual(yield* total(api, { createdTo: later, amountMax: "10" }), 1)

          refusedNaming(yield* listRefusal(api, { createdFrom: "yesterday" }), "createdFrom")
          refusedNaming(yield* listRefusal(api, { createdTo: "2026-13-45" }), "createdTo")
          refusedNaming(yield* listRefusal(api, { createdFrom: tomorrow, createdTo: yesterday }), "createdFrom")
          refusedNaming(yield* listRefusal(api, { amountMin: "-1" }), "amountMin")
          refusedNaming(yield* listRefusal(api, { amountMax: "1e3" }), "amountMax")
          refusedNaming(yield* listRefusal(api, { amountMin: "50", amountMax: "10" }), "amountMin")
          refusedNaming(yield* listRefusal(api, { startingAfter: "TXN-NOPE" }), "startingAfter")
          const other = yield* createMerchant({ name: "Other" })
          const foreign = yield* pay(yield* apiAs(other.keys.sandbox.secretKey), 10, "foreign", "slow_payment")
          refusedNaming(yield* listRefusal(api, { startingAfter: foreign }), "startingAfter")
          const first = between.data[0]!.id
          refusedNaming(yield* listRefusal(api, { startingAfter: first, offset: 1 }), "offset")
          // By the buyer's email (without regard to case) and by transaction id; another shop's is not found.
          const [emailed] = yield* api.payments.create({
            payload: { amount: Money.decimal("15"), paymentMethodId: "sbx_pix", userName: Redacted.make("Bia Reis"), userEmail: Redacted.make("Bia.Reis@example.com"), documentId: Redacted.make("52998224725") },
            headers: { "sandbox-simulate": "slow_payment" },
            ...withResponse
          })
          const byEmail = (yield* api.payments.list({ query: { userEmail: "bia.reis@EXAMPLE.com" } })).data
          assert.deepStrictEqual(byEmail.map((p) => [p.id, p.buyer]), [[emailed.transactionId, { name: "Bia Reis", email: "Bia.Reis@example.com" }]])
          assert.strictEqual(yield* total(api, { userEmail: "nobody@example.com" }), 0)
          assert.deepStrictEqual((yield* api.payments.list({ query: { transactionId: first } })).data.map((p) => p.id), [first])
          assert.strictEqual(yield* total(api, { transactionId: foreign }), 0)
          // Raw: a parameter the typed client cannot send.
          const unknown = yield* call("GET", "/api/v1/payments?startingFrom=x", { bearer: sk })
          assert.strictEqual(unknown.status, 400, "an unknown query parameter is refused")
        }))

      it.effect("keyset paging neither skips nor repeats while payments arrive; offset paging still works", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const api = yield* apiAs(keys.sandbox.secretKey)
          for (let i = 0; i < 5; i++) yield* pay(api, 10 + i, `page-${i}`, "slow_payment")
          const all = (yield* api.payments.list({ query: { limit: 100 } })).data.map((p) => p.id)
          assert.strictEqual(all.length, 5)
          const seen: Array<string> = []
          let after: string | undefined
          for (let round = 0; round < 5; round++) {
            const [page, pageReply] = yield* list(api, after === undefined ? { limit: 2 } : { limit: 2, startingAfter: after })
            assert.strictEqual(pageReply.status, 200)
            assert.strictEqual(page.pagination.total, 5 + (round > 0 ? 1 : 0))
            const ids = page.data.map((p) => p.id)
            seen.push(...ids)
            if (round === 0) yield* pay(api, 99, "arrives-meanwhile", "slow_payment")
            if (ids.length < 2) break
            after = ids[ids.length - 1]
          }
          assert.deepStrictEqual(seen, all, "every payment once, in order, none of the newer one")
          const [offsetPage, offsetReply] = yield* list(api, { limit: 2, offset: 2 })
          assert.strictEqual(offsetReply.status, 200)
          assert.strictEqual(offsetPage.data.length, 2)
        }))

      it.effect("a payment's refundable amount, routing reasons, claims, ledger entries and deliveries", () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const api = yield* apiAs(keys.sandbox.secretKey)
          const [webhook, webhookReply] = yield* api.webhooks.create({ payload: { events: ["*"] }, headers: {}, ...withResponse })
          assert.strictEqual(webhookReply.status, 201)
          const id = yield* pay(api, 100, "timeline")
          const paid = yield* eventually(api.payments.get({ params: { id } }), (p) => p.status === "completed")
          assert.strictEqual(paid.refundable, paid.amountLocal)
          const attempt = paid.routing.attempts[0]
          assert.isDefined(attempt)
          assert.isNumber(attempt!.latencyMs)
          if (attempt!.routing !== undefined) assert.include(["static", "health", "success_rate"], attempt!.routing.strategy)

          const [refund, refundReply] = yield* api.claims.refund({ params: { id }, payload: { amount: Money.decimal("100"), reason: "duplicate" }, headers: {}, ...withResponse })
          assert.strictEqual(refundReply.status, 201, JSON.stringify(refund))
          const [claims, claimsReply] = yield* eventually(api.claims.paymentClaims({ params: { id }, ...withResponse }), ([r]) => r.data[0]?.status === "approved")
          assert.strictEqual(claimsReply.status, 200)
          assert.strictEqual(claims.data.length, 1)
          assert.deepInclude(claims.data[0], { id: refund.refundId, kind: "user_dispute", amount: 100, refundStatus: "succeeded" })
          const after = yield* api.payments.get({ params: { id } })
          assert.strictEqual(after.refundable, Math.round((paid.amountLocal - 100) * 100) / 100)

          const [ledger, ledgerReply] = yield* api.payments.ledgerEntries({ params: { id }, ...withResponse })
          assert.strictEqual(ledgerReply.status, 200)
          const types = ledger.data.map((e) => e.type)
          assert.include(types, "payment.completed")
          assert.isTrue(ledger.data.some((e) => e.reference === refund.refundId), "the refund's entries are the payment's too")
          for (const e of ledger.data) {
            const sums = new Map<string, number>()
            for (const p of e.postings) sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.amount)
            for (const s of sums.values()) assert.isBelow(Math.abs(s), 1e-6, `entry ${e.id} balances`)
          }

          const events = yield* api.events.list({ query: { relatedId: id } })
          const completed = events.data.find((e) => e.type === "payment.completed")
          assert.isDefined(completed)
          const [deliveries, deliveriesReply] = yield* eventually(
            api.events.deliveries({ params: { id: completed!.id }, ...withResponse }),
            ([r]) => r.data[0]?.status === "succeeded"
          )
          assert.strictEqual(deliveriesReply.status, 200)
          assert.deepInclude(deliveries.data[0], { webhookId: webhook.id, event: "payment.completed", status: "succeeded", relatedTxId: id })

          // Another merchant sees none of it.
          const other = yield* createMerchant({ name: "Other" })
          const stranger = yield* apiAs(other.keys.sandbox.secretKey)
          assert.strictEqual(httpStatus[(yield* refused(stranger.claims.paymentClaims({ params: { id } }))).code], 404)
          assert.strictEqual(httpStatus[(yield* refused(stranger.payments.ledgerEntries({ params: { id } }))).code], 404)
          assert.strictEqual(httpStatus[(yield* refused(stranger.events.deliveries({ params: { id: completed!.id } }))).code], 404)
          assert.strictEqual(httpStatus[(yield* refused(api.claims.paymentClaims({ params: { id: "TXN-NOPE" } }))).code], 404)
        }))
    })
  })
}
