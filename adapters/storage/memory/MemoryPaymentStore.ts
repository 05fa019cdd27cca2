/** The payment store in memory. */
import { BigDecimal, DateTime, Effect, Layer, Option, Redacted } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import type { Payment } from "../../../core/payments/Payment.ts"
import { completeKey, keyRecords } from "./MemoryIdempotencyKeys.ts"
import { clockOffset } from "./MemorySandboxClockStore.ts"
import { newestFirst, rowsOf } from "./MemoryRows.ts"

export const MemoryPaymentStore = Layer.effect(
  PaymentStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const payments = db.table<Payment>("payments")
    // Indexes, journaled like the rows: a shop's payments (lists) and the pending ones (reconcile).
    const ofShop = (environment: string, shopId: string) => db.table<true>(`payments_by_shop|${environment}|${shopId}`)
    const pending = db.table<true>("payments_pending")
    const keys = keyRecords(db)
    const write = (p: Payment) => {
      if (!payments.has(p.id)) ofShop(p.environment, p.shopId).set(p.id, true)
      payments.set(p.id, p)
      if (p.status === "pending") pending.set(p.id, true)
      else if (pending.has(p.id)) pending.delete(p.id)
    }
    /** Writes `p` over the version before it; false when another writer got there first. */
    const written = (p: Payment) => {
      const current = payments.get(p.id)
      if (current === undefined || current.version !== p.version - 1) return false
      write(p)
      return true
    }
    return PaymentStore.of({
      insert: (p) =>
        db.run(Effect.suspend(() => payments.has(p.id) ? Effect.die(new Error(`duplicate payment ${p.id}`)) : Effect.sync(() => write(p)))),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() =>
          Option.filter(Option.fromNullishOr(payments.get(id)), (p) => p.environment === environment && p.shopId === shopId)
        )),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(payments.get(id)))),
      update: (p) => db.run(Effect.sync(() => written(p))),
      updateCompletingKey: (p, completion) =>
        db.run(Effect.sync(() => {
          if (!written(p)) return false
          completeKey(keys, completion)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = rowsOf(payments, ofShop(environment, shopId)).filter((p) =>
            (filter.statuses === undefined || filter.statuses.includes(p.status)) &&
            (filter.paymentMethodId === undefined || p.paymentMethodId === filter.paymentMethodId) &&
            (filter.country === undefined || p.country === filter.country) &&
            (filter.merchantOrderId === undefined || p.merchantOrderId === filter.merchantOrderId) &&
            (filter.id === undefined || p.id === filter.id) &&
            (filter.userEmail === undefined || (p.userEmail === null ? undefined : Redacted.value(p.userEmail).toLowerCase()) === filter.userEmail.toLowerCase()) &&
            (filter.method === undefined || p.method === filter.method) &&
            (filter.createdFrom === undefined || DateTime.toEpochMillis(p.createdAt) >= DateTime.toEpochMillis(filter.createdFrom)) &&
            (filter.createdBefore === undefined || DateTime.toEpochMillis(p.createdAt) < DateTime.toEpochMillis(filter.createdBefore)) &&
            (filter.amountMin === undefined || BigDecimal.isGreaterThanOrEqualTo(p.amount, filter.amountMin)) &&
            (filter.amountMax === undefined || BigDecimal.isLessThanOrEqualTo(p.amount, filter.amountMax))
          ).sort(newestFirst)
          const after = filter.after
          const from = after === undefined ? rows : rows.filter((p) => newestFirst(after, p) < 0)
          return { rows: from.slice(offset, offset + limit), total: rows.length }
        })),
      countOpenOnProvider: (providerId) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const p of payments.values()) {
            if (p.provider === providerId && (p.status === "initiated" || p.status === "pending" || p.status === "authorized")) n++
          }
          return n
        })),
      pendingCreatedBefore: (createdBefore, limit, sandboxShopId) =>
        db.run(Effect.sync(() =>
          rowsOf(payments, pending)
            .filter((p) =>
              (sandboxShopId === undefined || (p.environment === "sandbox" && p.shopId === sandboxShopId)) &&
              DateTime.toEpochMillis(p.createdAt) - DateTime.toEpochMillis(createdBefore) <
                (p.environment === "sandbox" ? clockOffset(db, p.shopId) : 0)
            )
            .sort((a, b) => -newestFirst(a, b))
            .slice(0, limit)
        ))
    })
  })
)
