/** The payment store in memory. */
import { DateTime, Effect, Layer, Option } from "effect"
import { MemoryDb } from "./MemoryDb.ts"
import { PaymentStore } from "../../../core/ports/PaymentStore.ts"
import type { Payment } from "../../../core/payments/Payment.ts"
import { clockOffset } from "./MemorySandboxClockStore.ts"
import { insertOnce, newestFirst } from "./MemoryRows.ts"

export const MemoryPaymentStore = Layer.effect(
  PaymentStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const payments = db.table<Payment>("payments")
    return PaymentStore.of({
      insert: (p) => insertOnce(db, payments, p.id, p, "payment"),
      find: (environment, shopId, id) =>
        db.run(Effect.sync(() =>
          Option.filter(Option.fromNullishOr(payments.get(id)), (p) => p.environment === environment && p.shopId === shopId)
        )),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(payments.get(id)))),
      update: (p) =>
        db.run(Effect.sync(() => {
          const current = payments.get(p.id)
          if (current === undefined || current.version !== p.version - 1) return false
          payments.set(p.id, p)
          return true
        })),
      list: (environment, shopId, filter, { limit, offset }) =>
        db.run(Effect.sync(() => {
          const rows = [...payments.values()].filter((p) =>
            p.environment === environment && p.shopId === shopId &&
            (filter.statuses === undefined || filter.statuses.includes(p.status)) &&
            (filter.paymentMethodId === undefined || p.paymentMethodId === filter.paymentMethodId) &&
            (filter.country === undefined || p.country === filter.country) &&
            (filter.merchantOrderId === undefined || p.merchantOrderId === filter.merchantOrderId) &&
            (filter.method === undefined || p.method === filter.method)
          ).sort(newestFirst)
          return { rows: rows.slice(offset, offset + limit), total: rows.length }
        })),
      pendingCreatedBefore: (createdBefore, limit, sandboxShopId) =>
        db.run(Effect.sync(() =>
          [...payments.values()]
            .filter((p) =>
              p.status === "pending" &&
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
