/**
 * The statuses of a payment: the API's and the record's (which adds the write-ahead `initiated`).
 * The machine that moves between them is `PaymentState.ts`.
 */
import { Schema } from "effect"

/**
 * The statuses the API shows. `authorized`: a card charge made with `capture: false`, held by the
 * provider and not yet captured (nothing in the balance); `voided`: such an authorization released
 * by the merchant (`POST /payments/{id}/void`), final, nothing booked.
 */
export const PaymentStatus = Schema.Literals(["pending", "authorized", "completed", "failed", "refunded", "expired", "chargeback", "voided"])
export type PaymentStatus = typeof PaymentStatus.Type

/** The statuses a payment record can have: the API's and the write-ahead `initiated`. */
export const PaymentRecordStatus = Schema.Literals(["initiated", ...PaymentStatus.literals])
export type PaymentRecordStatus = typeof PaymentRecordStatus.Type

/** A record still being routed is, to the merchant, a payment not yet final. */
export const publicStatus = (status: PaymentRecordStatus): PaymentStatus => status === "initiated" ? "pending" : status
