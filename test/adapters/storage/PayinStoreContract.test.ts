/**
 * The storage contract of the pay-in ports (ledger, payments and their write-ahead batch, FX rates,
 * outbox, routes), on every store adapter, with real concurrency where the engine relies on it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Cause, DateTime, Effect, Exit, Option, Redacted, Result } from "effect"
import * as Journal from "../../../core/ledger/Journal.ts"
import * as Money from "../../../core/Money.ts"
import { FxRateStore } from "../../../core/ports/FxRateStore.ts"
import { IdempotencyStore, KeyTaken } from "../../../core/ports/IdempotencyStore.ts"
import { type Job, JobStore } from "../../../core/ports/JobStore.ts"
import { LedgerStore } from "../../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import { ProviderRouteStore } from "../../../core/ports/ProviderRouteStore.ts"
import { Transactions } from "../../../core/ports/Transactions.ts"
import type { Payment } from "../../../core/payments/Payment.ts"
import { newShop, storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const at = (seconds: number) => DateTime.add(t0, { seconds })
const d = Money.decimal
let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`

const entry = (shopId: string, transfers: ReadonlyArray<Journal.Transfer>, kind = "test"): Journal.BalancedEntry =>
  Result.getOrThrow(Journal.entry({ id: uid("jnl_"), environment: "sandbox", shopId, kind, reference: uid("ref_"), createdAt: at(seq) }, transfers))

const payment = (shopId: string, overrides: Partial<Payment> = {}): Payment => ({
  id: uid("TXN-"), environment: "sandbox", merchantId: "mer_1", shopId, status: "pending",
  amount: d("100"), inputCurrency: null, inputAmount: null, amountLocal: d("550.80"), currencyLocal: "BRL",
  paymentMethodId: "1001", method: "pix", methodName: "PIX", channel: "ONLINE", country: "BRA",
  provider: "sandbox", providerRef: "sbx_1", paymentFormUrl: "https://pay.example/1", paymentData: { method: "pix", qr: "000201" },
  fees: { platform: d("3.20"), platformFlat: d("0.30"), provider: d("1"), network: d("0"), total: d("4.20") },
  settlement: { type: "delayed", delay: "T+1", delayDays: 1, reserve: d("10"), status: "pending", settledAt: null, reserveReleaseDays: 90, reserveReleasedAt: null, pendingTaken: d("0"), reserveTaken: d("0") },
  fx: { presentment: null, local: { currency: "BRL", midPerUsd: d("5.4"), rate: d("5.508") }, markupPct: d("2") },
  attempts: [{ provider: "sandbox", outcome: "accepted", latencyMs: 3, reason: null, at: t0 }],
  merchantOrderId: null, tag1: "a", tag2: null, tag3: null, userName: Redacted.make("Ana Souza"), userEmail: Redacted.make("ana@x.test"), userPhone: null, userIp: "10.0.0.1",
  hostedCheckout: false, linkToken: null, returnUrl: null, nextAction: null, simulate: null, failureReason: null,
  expiresAt: at(1800), createdAt: at(seq), updatedAt: at(seq), completedAt: null, version: 1,
  ...overrides
})

const shop = Effect.map(newShop, (s) => s.shopId)

/** The unit failed because its key was taken, and for no other reason. */
const keyTaken = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && exit.cause.reasons.length === 1 && Cause.isFailReason(exit.cause.reasons[0]!) &&
  exit.cause.reasons[0].error instanceof KeyTaken

const job = (): Job => ({
  id: uid("job_"), kind: "test.timer", payload: {}, runAt: at(600), attempts: 0, status: "pending", lockedUntil: null, lastError: null,
  dedupeKey: null, clockScope: null, createdAt: t0
})

for (const target of storeTargets("payin")) {
  describe(`pay-in store contract on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("the ledger applies balanced entries and refuses one that overdraws a guarded book, whole", () =>
        Effect.gen(function*() {
          const ledger = yield* LedgerStore
          const shopId = yield* shop
          yield* ledger.append(entry(shopId, [
            { from: "provider_clearing", to: "payin_available", currency: "USD", amount: d("95.5") },
            { from: "provider_clearing", to: "fees_platform", currency: "USD", amount: d("4.5") }
          ]))
          const refused = yield* Effect.flip(ledger.append(entry(shopId, [
            { from: "payin_available", to: "external", currency: "USD", amount: d("95.51") }
          ])))
          assert.strictEqual(refused._tag, "GuardViolation")
          assert.strictEqual(refused.book, "payin_available")
          assert.strictEqual(refused.available, "95.5")
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", shopId, "payin_available", "USD")), "95.5")
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", shopId, "external", "USD")), "0")
          const { entries, total } = yield* ledger.entries("sandbox", shopId, { limit: 10, offset: 0 })
          assert.strictEqual(total, 1)
          assert.strictEqual(entries[0]!.postings.length, 3)
          const sums = yield* ledger.postingSums("sandbox", shopId)
          const cached = yield* ledger.balances("sandbox", shopId)
          for (const s of sums) {
            const c = cached.find((b) => b.book === s.book && b.currency === s.currency)
            assert.isTrue(c !== undefined && BigDecimal.equals(c.balance, s.balance), `${s.book} ${s.currency}`)
          }
        }))

      it.effect("20 concurrent debits of 10 against a balance of 55 succeed exactly 5 times", () =>
        Effect.gen(function*() {
          const ledger = yield* LedgerStore
          const tx = yield* Transactions
          const shopId = yield* shop
          yield* ledger.append(entry(shopId, [
            { from: "sandbox_funding", to: "payout_available", currency: "MXN", amount: d("55") }
          ]))
          const results = yield* Effect.all(
            Array.from({ length: 20 }, () =>
              Effect.result(tx.run(ledger.append(entry(shopId, [
                { from: "payout_available", to: "payouts_in_flight", currency: "MXN", amount: d("10") }
              ]))))),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(results.filter((r) => r._tag === "Success").length, 5)
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", shopId, "payout_available", "MXN")), "5")
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", shopId, "payouts_in_flight", "MXN")), "50")
        }))

      it.effect("lockBalance: 10 concurrent repayments of what a shop owes repay it once, never more", () =>
        Effect.gen(function*() {
          const ledger = yield* LedgerStore
          const tx = yield* Transactions
          const shopId = yield* shop
          yield* ledger.append(entry(shopId, [
            { from: "merchant_receivable", to: "fees_chargeback", currency: "USD", amount: d("30") }
          ]))
          // Each repays what it read as owed, out of 20 of income: read-then-write, made safe by the lock.
          yield* Effect.all(
            Array.from({ length: 10 }, () =>
              tx.run(Effect.gen(function*() {
                const owed = BigDecimal.negate(yield* ledger.lockBalance("sandbox", shopId, "merchant_receivable", "USD"))
                const repaid = BigDecimal.min(owed, d("20"))
                yield* ledger.append(entry(shopId, [
                  { from: "provider_clearing", to: "merchant_receivable", currency: "USD", amount: repaid },
                  { from: "provider_clearing", to: "payin_available", currency: "USD", amount: BigDecimal.subtract(d("20"), repaid) }
                ]))
              }))),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", shopId, "merchant_receivable", "USD")), "0")
          assert.strictEqual(Money.toText(yield* ledger.balance("sandbox", shopId, "payin_available", "USD")), "170")
        }))

      it.effect("payments: scoped lookup, optimistic update, filters, paging and the reconcile query", () =>
        Effect.gen(function*() {
          const store = yield* PaymentStore
          const shopId = yield* shop
          const other = yield* shop
          const a = payment(shopId, { merchantOrderId: "order-1", createdAt: at(1) })
          const b = payment(shopId, { status: "completed", country: "MEX", paymentMethodId: "1050", method: "spei", createdAt: at(2) })
          const c = payment(other, { createdAt: at(3) })
          for (const p of [a, b, c]) yield* store.insert(p)

          const found = Option.getOrThrow(yield* store.find("sandbox", shopId, a.id))
          assert.isTrue(BigDecimal.equals(found.amountLocal, d("550.8")))
          assert.deepStrictEqual(found.paymentData, { method: "pix", qr: "000201" })
          assert.isTrue(Option.isNone(yield* store.find("sandbox", other, a.id)))
          assert.isTrue(Option.isNone(yield* store.find("production", shopId, a.id)))
          assert.isTrue(Option.isSome(yield* store.findById(c.id)))

          assert.isTrue(yield* store.update({ ...found, status: "completed", version: 2 }))
          assert.isFalse(yield* store.update({ ...found, status: "failed", version: 2 }))
          assert.strictEqual(Option.getOrThrow(yield* store.findById(a.id)).status, "completed")

          const all = yield* store.list("sandbox", shopId, {}, { limit: 10, offset: 0 })
          assert.strictEqual(all.total, 2)
          assert.deepStrictEqual(all.rows.map((p) => p.id), [b.id, a.id])
          const page = yield* store.list("sandbox", shopId, {}, { limit: 1, offset: 1 })
          assert.deepStrictEqual(page.rows.map((p) => p.id), [a.id])
          assert.strictEqual(page.total, 2)
          for (const [filter, expected] of [
            [{ country: "MEX" }, [b.id]],
            [{ merchantOrderId: "order-1" }, [a.id]],
            [{ paymentMethodId: "1050" }, [b.id]],
            [{ method: "pix" }, [a.id]],
            [{ statuses: ["pending"] as const }, []],
            [{ statuses: ["completed", "initiated"] as const }, [b.id, a.id]]
          ] as const) {
            assert.deepStrictEqual((yield* store.list("sandbox", shopId, filter, { limit: 10, offset: 0 })).rows.map((p) => p.id), [...expected])
          }
          const due = yield* store.pendingCreatedBefore(at(10_000), 100)
          assert.include(due.map((p) => p.id), c.id)
          assert.notInclude(due.map((p) => p.id), a.id)
        }))

      it.effect("an update that completes a key writes the payment and the key's response together, or neither", () =>
        Effect.gen(function*() {
          const payments = yield* PaymentStore
          const keys = yield* IdempotencyStore
          const shopId = yield* shop
          const scope = uid("scope_")
          const claim = (key: string) => keys.acquire({ scope, key, requestHash: "h", holder: "x1", now: t0, lockedUntil: at(30), expiresAt: at(3600) })
          /** What a retry of the key meets: the stored response, or the key still in progress. */
          const stored = (key: string) =>
            Effect.map(claim(key), (c) => c._tag === "Existing" ? [c.record.state, c.record.responseBody] : ["acquired", null])
          yield* claim("k1")
          const p = payment(shopId, { status: "initiated" })
          yield* payments.insert(p)
          const completes = { scope, key: "k1", responseStatus: 200, responseBody: "{\"transactionId\":\"x\"}" }

          // Another writer moved the payment first: neither the payment nor the key is written.
          assert.isFalse(yield* payments.updateCompletingKey({ ...p, status: "pending", version: 3 }, completes))
          assert.deepStrictEqual(yield* stored("k1"), ["in_progress", null])
          assert.strictEqual(Option.getOrThrow(yield* payments.findById(p.id)).status, "initiated")

          assert.isTrue(yield* payments.updateCompletingKey({ ...p, status: "pending", version: 2 }, completes))
          assert.deepStrictEqual(yield* stored("k1"), ["completed", completes.responseBody])
          assert.strictEqual(Option.getOrThrow(yield* payments.findById(p.id)).status, "pending")
        }))

      it.effect("a write batch commits a payment, the key bound to it and its jobs together, or none of them", () =>
        Effect.gen(function*() {
          const tx = yield* Transactions
          const payments = yield* PaymentStore
          const keys = yield* IdempotencyStore
          const jobs = yield* JobStore
          const shopId = yield* shop
          const scope = uid("scope_")
          const claim = (key: string, now: DateTime.Utc) =>
            keys.acquire({ scope, key, requestHash: "h", holder: "x1", now, lockedUntil: at(30), expiresAt: at(3600) })
          const boundTo = (key: string) =>
            Effect.map(claim(key, at(60)), (c) => c._tag === "Acquired" ? c.resourceId : "held")
          const isJob = (id: string) => Effect.map(jobs.find(id), Option.isSome)
          yield* claim("k1", t0)
          yield* claim("k2", t0)

          const first = payment(shopId, { status: "initiated" })
          const timers = [job(), job()]
          yield* tx.batch(Effect.gen(function*() {
            yield* payments.insert(first)
            yield* keys.bind(scope, "k1", first.id)
            yield* jobs.enqueueAll(timers)
          }))
          assert.strictEqual(Option.getOrThrow(yield* payments.findById(first.id)).status, "initiated")
          assert.deepStrictEqual([yield* isJob(timers[0]!.id), yield* isJob(timers[1]!.id)], [true, true])
          assert.strictEqual(yield* boundTo("k1"), first.id)

          // A write that fails (the same payment id again) takes the others with it.
          const late = job()
          const duplicate = yield* Effect.exit(tx.batch(Effect.gen(function*() {
            yield* keys.bind(scope, "k2", first.id)
            yield* jobs.enqueueAll([late])
            yield* payments.insert({ ...first, status: "pending" })
          })))
          assert.isTrue(Exit.hasDies(duplicate))
          assert.isFalse(yield* isJob(late.id))
          assert.isNull(yield* boundTo("k2"))
          assert.strictEqual(Option.getOrThrow(yield* payments.findById(first.id)).status, "initiated")

          // An effect that fails after its writes leaves none of them.
          const second = payment(shopId)
          assert.strictEqual(yield* Effect.flip(tx.batch(Effect.andThen(payments.insert(second), Effect.fail("boom" as const)))), "boom")
          assert.isTrue(Option.isNone(yield* payments.findById(second.id)))

          // Inside an open transaction the batch joins it: its writes are visible to the reads after it.
          const third = payment(shopId)
          assert.isTrue(yield* tx.run(Effect.andThen(tx.batch(payments.insert(third)), Effect.map(payments.findById(third.id), Option.isSome))))

          // Lists and the reconcile query see only what committed.
          const listed = (yield* payments.list("sandbox", shopId, {}, { limit: 10, offset: 0 })).rows.map((p) => p.id)
          assert.deepStrictEqual([...listed].sort(), [first.id, third.id].sort())
          assert.notInclude((yield* payments.pendingCreatedBefore(at(10_000), 1000)).map((p) => p.id), second.id)

          // The SQL store refuses a read inside a batch rather than run it outside the unit.
          if (target.name !== "memory") {
            assert.isTrue(Exit.hasDies(yield* Effect.exit(tx.batch(payments.findById(first.id)))))
          }
        }))

      it.effect("a write-ahead that claims its key commits the key with its record; a key that exists fails it with KeyTaken, whatever the race", () =>
        Effect.gen(function*() {
          const tx = yield* Transactions
          const payments = yield* PaymentStore
          const keys = yield* IdempotencyStore
          const jobs = yield* JobStore
          const shopId = yield* shop
          const scope = uid("scope_")
          const claimOf = (key: string, resourceId: string, holder: string) => ({
            scope, key, requestHash: "h", holder, resourceId, now: t0, lockedUntil: at(30), expiresAt: at(3600)
          })
          const writeAhead = (key: string, holder: string) =>
            Effect.gen(function*() {
              const p = payment(shopId, { status: "initiated" })
              const timer = job()
              const exit = yield* Effect.exit(tx.batch(Effect.gen(function*() {
                yield* payments.insert(p)
                yield* keys.claim(claimOf(key, p.id, holder))
                yield* jobs.enqueueAll([timer])
              })))
              return { p, timer, exit }
            })

          // Ten executions race to write ahead with one key: one commits, the others write nothing.
          const raced = yield* Effect.all(Array.from({ length: 10 }, (_, i) => writeAhead("k1", `x${i}`)), { concurrency: "unbounded" })
          const won = raced.filter((r) => Exit.isSuccess(r.exit))
          assert.strictEqual(won.length, 1)
          for (const lost of raced.filter((r) => Exit.isFailure(r.exit))) {
            assert.isTrue(keyTaken(lost.exit))
            assert.isTrue(Option.isNone(yield* payments.findById(lost.p.id)))
            assert.isTrue(Option.isNone(yield* jobs.find(lost.timer.id)))
          }
          assert.isTrue(Option.isSome(yield* jobs.find(won[0]!.timer.id)))
          // The key is held by the winner, bound to its record: a retry of the same request waits.
          const retry = yield* keys.acquire({ scope, key: "k1", requestHash: "h", holder: "y", now: at(1), lockedUntil: at(31), expiresAt: at(3600) })
          assert.isTrue(retry._tag === "Existing" && retry.record.state === "in_progress" && retry.record.resourceId === won[0]!.p.id)
          // Past its lease, the same request takes the key over and continues that record.
          const takeover = yield* keys.acquire({ scope, key: "k1", requestHash: "h", holder: "y", now: at(31), lockedUntil: at(61), expiresAt: at(3600) })
          assert.deepStrictEqual(takeover, { _tag: "Acquired", resourceId: won[0]!.p.id })

          // A completed key, and one in a transaction, refuse the claim the same way.
          yield* keys.complete(scope, "k1", 200, "{}")
          assert.isTrue(keyTaken((yield* writeAhead("k1", "z")).exit))
          const inTransaction = payment(shopId, { status: "initiated" })
          const refused = yield* Effect.exit(tx.run(Effect.andThen(payments.insert(inTransaction), keys.claim(claimOf("k1", inTransaction.id, "z")))))
          assert.isTrue(keyTaken(refused))
          assert.isTrue(Option.isNone(yield* payments.findById(inTransaction.id)))
        }))

      it.effect("FX rates: seeding keeps what exists, put replaces", () =>
        Effect.gen(function*() {
          const fx = yield* FxRateStore
          const cur = `T${(seq++ % 26 + 10).toString(36).toUpperCase()}X`
          yield* fx.seed([{ currency: cur, perUsd: d("5.4"), enabled: true, updatedAt: t0 }])
          yield* fx.seed([{ currency: cur, perUsd: d("9"), enabled: true, updatedAt: t0 }])
          assert.strictEqual(Money.toText(Option.getOrThrow(yield* fx.get(cur)).perUsd), "5.4")
          yield* fx.put({ currency: cur, perUsd: d("5.55"), enabled: false, updatedAt: at(1) })
          const rate = Option.getOrThrow(yield* fx.get(cur))
          assert.strictEqual(Money.toText(rate.perUsd), "5.55")
          assert.isFalse(rate.enabled)
          assert.include((yield* fx.list).map((r) => r.currency), cur)
        }))

      it.effect("outbox and provider routes", () =>
        Effect.gen(function*() {
          const outbox = yield* OutboxStore
          const routes = yield* ProviderRouteStore
          const shopId = yield* shop
          yield* outbox.append({ id: uid("evt_"), environment: "sandbox", shopId, type: "payment.completed", data: { id: "TXN-1", amount: 10 }, relatedTxId: "TXN-1", relatedId: "TXN-1", createdAt: at(1) })
          const events = yield* outbox.list("sandbox", shopId)
          assert.strictEqual(events.length, 1)
          assert.deepStrictEqual(events[0]!.data, { id: "TXN-1", amount: 10 })
          assert.deepStrictEqual(yield* outbox.list("production", shopId), [])

          yield* routes.put({ environment: "sandbox", shopId, providerId: "b", priority: 20, methodIds: null, enabled: true })
          yield* routes.put({ environment: "sandbox", shopId, providerId: "a", priority: 10, methodIds: ["1001"], enabled: true })
          yield* routes.put({ environment: "sandbox", shopId, providerId: "b", priority: 5, methodIds: null, enabled: false })
          const list = yield* routes.list("sandbox", shopId)
          assert.deepStrictEqual(list.map((r) => [r.providerId, r.priority, r.enabled]), [["b", 5, false], ["a", 10, true]])
          assert.deepStrictEqual(list[1]!.methodIds, ["1001"])
          assert.isTrue(yield* routes.remove("sandbox", shopId, "a"))
          assert.isFalse(yield* routes.remove("sandbox", shopId, "a"))
        }))
    })
  })
}
