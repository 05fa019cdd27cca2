/**
 * Authorize now, capture later, through the API as a merchant calls it: `capture: false` on a
 * card rail leaves the payment `authorized` with nothing in the balance; POST /capture (full or
 * partial) books the completion a normal payment books; POST /void releases it and books nothing;
 * each is once per Idempotency-Key (the provider asked once); an authorization not captured by its
 * expiry lapses. On the memory store and PostgreSQL.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Context, Effect, Layer, Option, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { operationsAsked } from "../../providers/sandbox/Capture.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"
import { call, createMerchant, drainWork, eventually, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const d = Money.decimal

class Vault extends Context.Service<Vault, Effect.Success<ReturnType<typeof fakeVault>>>()("test/CardCapture/Vault") {}

const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }

interface Entry {
  readonly type: string
  readonly postings: ReadonlyArray<{ readonly book: string; readonly currency: string; readonly amount: number }>
}

const entriesOf = (sk: string, id: string) =>
  Effect.map(call("GET", `/api/v1/payments/${id}/ledger-entries`, { bearer: sk }), (r) => r.body.data as ReadonlyArray<Entry>)
const balanceOf = (sk: string) => Effect.map(call("GET", "/api/v1/me/balance", { bearer: sk }), (r) => r.body.balance)
const authorize = (sk: string, amount = 100, extra: Record<string, unknown> = {}) =>
  call("POST", "/api/v1/payments", { bearer: sk, body: { amount, paymentMethodId: "sbx_card", ...buyer, capture: false, ...extra } })
/** The postings of an entry without their order, for comparing two entries. */
const shape = (e: Entry | undefined) => e === undefined ? [] : [...e.postings].map((p) => `${p.book}:${p.currency}:${p.amount}`).sort()
const sumOf = (e: Entry) => Money.toText(e.postings.map((p) => d(String(p.amount))).reduce(BigDecimal.sum, Money.zero))

describe("authorize now, capture later", () => {
  for (const target of storeTargets("card_capture")) {
    const host = Layer.unwrap(Effect.map(Effect.service(Vault), (vault) =>
      testHost(target.layer(), {
        vault: Option.some({ url: vault.url, engineKey: Redacted.make(vault.engineKey), sessionSecret: Redacted.make("vault-session-secret-0123456789abcdef") })
      }))).pipe(Layer.provideMerge(Layer.effect(Vault, fakeVault())))

    layer(host, { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect(`${target.name}: capture:false authorizes with its expiry and books nothing; a full capture books what a normal completion books`, () =>
        Effect.gen(function*() {
          const vault = yield* Vault
          const { keys, merchant } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          vault.add(testCard(merchant.id, "card_captureaaaaaaaaaaaaaaaa"))
          const created = yield* authorize(sk, 100, { card: { token: "card_captureaaaaaaaaaaaaaaaa" } })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          assert.strictEqual(created.body.status, "authorized")
          const id = created.body.transactionId as string
          assert.strictEqual(created.body.authorization.amountLocal, created.body.amountLocal)
          assert.strictEqual(created.body.authorization.amountUsd, 100)
          // The sandbox holds an authorization 7 days.
          const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
          assert.strictEqual(read.body.status, "authorized")
          const heldMs = Date.parse(created.body.authorizationExpiresAt) - Date.parse(read.body.timestamps.created)
          assert.isTrue(heldMs >= 7 * 86_400_000 && heldMs < 7 * 86_400_000 + 60_000, String(heldMs))
          yield* drainWork
          assert.deepStrictEqual(yield* entriesOf(sk, id), [])
          const before = yield* balanceOf(sk)
          assert.strictEqual(before.pending, 0)

          const captured = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk, headers: { "idempotency-key": `cap-${id}` } })
          assert.strictEqual(captured.status, 200, JSON.stringify(captured.body))
          assert.strictEqual(captured.body.status, "completed")
          assert.strictEqual(captured.body.amountLocal, created.body.amountLocal)
          assert.strictEqual(captured.body.amount, 100)
          assert.strictEqual(captured.body.authorization.operation.outcome, "succeeded")
          assert.isNotNull(captured.body.timestamps.completed)

          // The same charge made with capture books the same entry.
          const normal = yield* call("POST", "/api/v1/payments", {
            bearer: sk,
            body: { amount: 100, paymentMethodId: "sbx_card", ...buyer },
            headers: { "sandbox-simulate": "paid" }
          })
          yield* eventually(call("GET", `/api/v1/payments/${normal.body.transactionId}`, { bearer: sk }), (r) => r.body.status === "completed")
          const [capturedEntry] = (yield* entriesOf(sk, id)).filter((e) => e.type === "payment.completed")
          const [normalEntry] = (yield* entriesOf(sk, normal.body.transactionId)).filter((e) => e.type === "payment.completed")
          assert.isDefined(capturedEntry)
          assert.deepStrictEqual(shape(capturedEntry), shape(normalEntry))
          assert.strictEqual(sumOf(capturedEntry!), "0")
          const after = yield* balanceOf(sk)
          assert.strictEqual(after.pending, 2 * (capturedEntry!.postings.find((p) => p.book === "payin_pending" && p.amount > 0)?.amount ?? NaN))
        }))

      it.effect(`${target.name}: a retry with the same key answers the same capture and reaches the provider once; another capture is 409`, () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const created = (yield* authorize(sk, 80)).body
          const id = created.transactionId as string
          const half = Number(Money.toText(Money.roundFor(BigDecimal.divideUnsafe(d(String(created.amountLocal)), d("2")), created.currencyLocal, "receives")))
          const first = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk, body: { amount: half }, headers: { "idempotency-key": `cap-${id}` } })
          const again = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk, body: { amount: half }, headers: { "idempotency-key": `cap-${id}` } })
          assert.strictEqual(first.status, 200, JSON.stringify(first.body))
          assert.deepStrictEqual(again.body, first.body)
          assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
          const keysAsked = [...operationsAsked.entries()].filter(([k]) => k.startsWith(`${id}:capture`))
          assert.deepStrictEqual(keysAsked.map(([, n]) => n), [1])
          assert.strictEqual((yield* entriesOf(sk, id)).filter((e) => e.type === "payment.completed").length, 1)

          // Partial: what was captured is the payment's amount; the authorization keeps what was authorized.
          assert.strictEqual(first.body.amountLocal, half)
          assert.strictEqual(first.body.authorization.amountLocal, created.amountLocal)
          assert.strictEqual(first.body.amount, 40)

          const other = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk, headers: { "idempotency-key": `cap2-${id}` } })
          assert.strictEqual(other.status, 409)
          assert.deepStrictEqual([other.body.error.code, other.body.error.details.status], ["payment_not_authorized", "completed"])
          const voided = yield* call("POST", `/api/v1/payments/${id}/void`, { bearer: sk, body: {} })
          assert.strictEqual(voided.status, 409)
          assert.strictEqual(voided.body.error.code, "payment_not_authorized")
        }))

      it.effect(`${target.name}: a partial capture books its own part: the entry is that of the captured amount`, () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const created = (yield* authorize(sk, 100)).body
          const id = created.transactionId as string
          const authorized = d(String(created.amountLocal))
          const over = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk, body: { amount: Number(Money.toText(BigDecimal.sum(authorized, d("0.01")))) } })
          assert.strictEqual(over.status, 422)
          assert.deepStrictEqual([over.body.error.code, over.body.error.details.authorized], ["capture_amount_exceeds_authorized", created.amountLocal])
          const partLocal = Money.roundFor(BigDecimal.divideUnsafe(BigDecimal.multiply(authorized, d("4")), d("10")), created.currencyLocal, "receives")
          const part = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk, body: { amount: Number(Money.toText(partLocal)) } })
          assert.strictEqual(part.status, 200, JSON.stringify(part.body))
          assert.strictEqual(part.body.amountLocal, Number(Money.toText(partLocal)))
          // The USD part pro rata, rounded down (what the merchant receives); fees and reserve priced on it.
          assert.strictEqual(part.body.amount, Number(Money.toText(Money.roundFor(BigDecimal.divideUnsafe(BigDecimal.multiply(d("100"), partLocal), authorized), "USD", "receives"))))
          assert.isBelow(part.body.fees.total, created.fees.total)
          const [partEntry] = (yield* entriesOf(sk, id)).filter((e) => e.type === "payment.completed")
          assert.isDefined(partEntry)
          assert.strictEqual(sumOf(partEntry!), "0")
          const net = BigDecimal.subtract(BigDecimal.subtract(d(String(part.body.amount)), d(String(part.body.fees.total))), d(String(part.body.settlement.reserve)))
          assert.strictEqual(partEntry!.postings.find((p) => p.book === "payin_pending" && p.amount > 0)?.amount, Number(Money.toText(net)))
          // Refunds see what was captured.
          const read = yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })
          assert.strictEqual(read.body.refundable, Number(Money.toText(partLocal)))
        }))

      it.effect(`${target.name}: a void releases the authorization: voided, nothing booked, payment.voided`, () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const id = (yield* authorize(sk, 30)).body.transactionId as string
          const voided = yield* call("POST", `/api/v1/payments/${id}/void`, { bearer: sk, headers: { "idempotency-key": `void-${id}` } })
          assert.strictEqual(voided.status, 200, JSON.stringify(voided.body))
          assert.strictEqual(voided.body.status, "voided")
          yield* drainWork
          assert.deepStrictEqual(yield* entriesOf(sk, id), [])
          assert.strictEqual((yield* balanceOf(sk)).pending, 0)
          const events = yield* call("GET", `/api/v1/events?limit=100`, { bearer: sk })
          const types = (events.body.data as ReadonlyArray<{ type: string; data: { id?: string } }>).filter((e) => e.data.id === id).map((e) => e.type)
          assert.includeMembers(types, ["payment.authorized", "payment.voided"])
          assert.notInclude(types, "payment.completed")
          const capture = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk })
          assert.deepStrictEqual([capture.status, capture.body.error.code, capture.body.error.details.status], [409, "payment_not_authorized", "voided"])
        }))

      it.effect(`${target.name}: capture:false is refused before anything is written on a rail that is not a card rail; a pending payment cannot be captured`, () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const pix = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_pix", ...buyer, capture: false } })
          assert.deepStrictEqual([pix.status, pix.body.error.code], [422, "capture_requires_card"])
          const listed = yield* call("GET", "/api/v1/payments", { bearer: sk })
          assert.strictEqual(listed.body.pagination.total, 0)
          const pending = yield* call("POST", "/api/v1/payments", { bearer: sk, body: { amount: 10, paymentMethodId: "sbx_card", ...buyer } })
          assert.strictEqual(pending.body.status, "pending")
          const refused = yield* call("POST", `/api/v1/payments/${pending.body.transactionId}/capture`, { bearer: sk })
          assert.deepStrictEqual([refused.status, refused.body.error.code, refused.body.error.details.status], [409, "payment_not_authorized", "pending"])
          const unknown = yield* call("POST", "/api/v1/payments/TXN-NOPE/capture", { bearer: sk })
          assert.strictEqual(unknown.status, 404)
        }))

      it.effect(`${target.name}: an authorization not captured by its expiry lapses: expired, nothing booked`, () =>
        Effect.gen(function*() {
          const { keys } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const id = (yield* authorize(sk, 20)).body.transactionId as string
          const advanced = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 6 * 86_400 } })
          assert.strictEqual(advanced.status, 200, JSON.stringify(advanced.body))
          yield* drainWork
          assert.strictEqual((yield* call("GET", `/api/v1/payments/${id}`, { bearer: sk })).body.status, "authorized")
          yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: sk, body: { seconds: 2 * 86_400 } })
          const read = yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "expired")
          assert.strictEqual(read.body.status, "expired")
          assert.deepStrictEqual(yield* entriesOf(sk, id), [])
          const late = yield* call("POST", `/api/v1/payments/${id}/capture`, { bearer: sk })
          assert.deepStrictEqual([late.status, late.body.error.details.status], [409, "expired"])
        }))
    })
  }
})
