/**
 * The deposit store on every store: settings per shop and environment; one account per end user
 * and shop whatever the race (Created once, then Existing), every CLABE once (ClabeTaken); a
 * transfer recorded once per (method, tracking key); accounts and deposits listed newest first.
 */
import { assert, describe, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import type { DepositAccount, DepositRecord } from "../../../core/deposits/Deposit.ts"
import * as Money from "../../../core/Money.ts"
import { DepositStore } from "../../../core/ports/DepositStore.ts"
import { newShop, storeTargets } from "../../support/Stores.ts"

const t0 = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
let seq = 0
const uid = (prefix: string) => `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`
const clabe = () => `646180${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}`

const account = (owner: { merchantId: string; shopId: string }, endUserRef: string, second: number, overrides: Partial<DepositAccount> = {}): DepositAccount => ({
  id: uid("eda_"), environment: "sandbox", ...owner, endUserRef, depositMethodId: "mx_spei_stp", clabe: clabe(), bank: null,
  currency: "MXN", country: "MX", methodName: "SPEI (STP)", name: "María López", email: "maria@x.test", phone: null,
  documentType: null, documentId: null, customerCountry: null, metadata: { tier: "gold" }, status: "active",
  createdAt: DateTime.add(t0, { seconds: second }), updatedAt: DateTime.add(t0, { seconds: second }),
  ...overrides
})

const deposit = (a: DepositAccount, trackingKey: string, second: number): DepositRecord => ({
  id: uid("dep_"), environment: a.environment, shopId: a.shopId, accountId: a.id, depositMethodId: a.depositMethodId, trackingKey,
  amount: Money.decimal("1500.25"), currency: "MXN", payerName: "Juan Pérez", payerBank: null, payerAccount: null, status: "credited",
  rejectionReason: null, transactionId: null, amountUsd: null, receivedAt: DateTime.add(t0, { seconds: second })
})

for (const target of storeTargets("deposits")) {
  describe(`DepositStore on ${target.name}`, () => {
    layer(target.layer(), { timeout: 60_000 })((it) => {
      it.effect("settings per shop and environment; one account per end user, every CLABE once, newest first", () =>
        Effect.gen(function*() {
          const store = yield* DepositStore
          const owner = yield* newShop
          assert.isTrue(Option.isNone(yield* store.settings("sandbox", owner.shopId)))
          yield* store.putSettings({ environment: "sandbox", shopId: owner.shopId, depositMethodIds: ["mx_spei_stp"], requirePhone: true })
          assert.deepStrictEqual(Option.getOrThrow(yield* store.settings("sandbox", owner.shopId)).depositMethodIds, ["mx_spei_stp"])
          assert.isTrue(Option.isNone(yield* store.settings("production", owner.shopId)))

          const first = account(owner, "u1", 1)
          const created = yield* store.insertAccount(first)
          assert.strictEqual(created._tag, "Created")
          const again = yield* store.insertAccount(account(owner, "u1", 2))
          assert.strictEqual(again._tag, "Existing")
          assert.strictEqual(again._tag === "Existing" ? again.account.id : "", first.id, "the stored account answers, not the new one")
          const taken = yield* store.insertAccount(account(owner, "u2", 3, { clabe: first.clabe }))
          assert.strictEqual(taken._tag, "ClabeTaken")
          const second = account(owner, "u2", 4)
          assert.strictEqual((yield* store.insertAccount(second))._tag, "Created")

          assert.strictEqual(Option.getOrThrow(yield* store.findAccountByClabe(first.clabe)).id, first.id)
          assert.strictEqual(Option.getOrThrow(yield* store.findAccountByRef("sandbox", owner.shopId, "u2")).id, second.id)
          assert.isTrue(Option.isNone(yield* store.findAccount("production", owner.shopId, first.id)))
          assert.deepStrictEqual(Option.getOrThrow(yield* store.findAccountById(first.id)).metadata, { tier: "gold" })
          const listed = yield* store.listAccounts("sandbox", owner.shopId, {}, { limit: 10, offset: 0 })
          assert.deepStrictEqual([listed.rows.map((a) => a.id), listed.total], [[second.id, first.id], 2])
          assert.deepStrictEqual((yield* store.listAccounts("sandbox", owner.shopId, { endUserRef: "u1" }, { limit: 10, offset: 0 })).rows.map((a) => a.id), [first.id])
        }))

      it.effect("racing get-or-creates for one end user make one account", () =>
        Effect.gen(function*() {
          const store = yield* DepositStore
          const owner = yield* newShop
          const answers = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => account(owner, "racer", i)), (a) => store.insertAccount(a), {
            concurrency: "unbounded"
          })
          assert.strictEqual(answers.filter((a) => a._tag === "Created").length, 1)
          const ids = new Set(answers.flatMap((a) => a._tag === "ClabeTaken" ? [] : [a.account.id]))
          assert.strictEqual(ids.size, 1, "every caller is answered with the one stored account")
          assert.strictEqual((yield* store.listAccounts("sandbox", owner.shopId, { endUserRef: "racer" }, { limit: 10, offset: 0 })).total, 1)
        }))

      it.effect("a transfer is recorded once per method and tracking key; deposits newest first", () =>
        Effect.gen(function*() {
          const store = yield* DepositStore
          const owner = yield* newShop
          const a = account(owner, "payer", 1)
          yield* store.insertAccount(a)
          const key = uid("TRK")
          const first = yield* store.insertDeposit(deposit(a, key, 10))
          assert.isTrue(first.created)
          assert.strictEqual(Money.toText(first.deposit.amount), "1500.25")
          const replay = yield* store.insertDeposit(deposit(a, key, 11))
          assert.isFalse(replay.created)
          assert.strictEqual(replay.deposit.id, first.deposit.id)
          const later = yield* store.insertDeposit(deposit(a, uid("TRK"), 20))
          yield* store.setDepositTransaction(first.deposit.id, "TXN-1", Money.decimal("88.1"))
          const listed = yield* store.listDeposits(a.id, { limit: 10, offset: 0 })
          assert.deepStrictEqual([listed.rows.map((d) => d.id), listed.total], [[later.deposit.id, first.deposit.id], 2])
          assert.deepStrictEqual([listed.rows[1]!.transactionId, Money.toText(listed.rows[1]!.amountUsd!)], ["TXN-1", "88.1"])
        }))
    })
  })
}
