import { Context, type Effect, Schema } from "effect"
import type { Environment } from "../Environment.ts"
import type { PayoutMethodDef } from "../payouts/PayoutMethod.ts"

/** The provider refused the beneficiary data (the engine reverses the debit: 422 payout_dispatch_failed). */
export class PayoutRejected extends Schema.TaggedError<PayoutRejected>()("PayoutRejected", {
  failureReason: Schema.String
}) {}

/**
 * The contract of an upstream payout provider plugin, beside `PaymentProvider`: send a payout,
 * report its status, verify its signed callbacks. Registered in `PayoutProviders`; with none for
 * a rail, the engine's simulated driver completes real-rail payouts at once.
 */
export interface PayoutProvider {
  readonly id: string
  readonly environments: ReadonlyArray<Environment>
  readonly supports: (method: PayoutMethodDef) => boolean
  readonly send: (request: {
    readonly payoutId: string
    readonly idempotencyKey: string
    readonly method: PayoutMethodDef
    readonly amount: string
    readonly currency: string
    readonly recipient: Readonly<Record<string, string>>
  }) => Effect.Effect<{ readonly providerRef: string; readonly status: "processing" | "completed" }, PayoutRejected>
}

export class PayoutProviders extends Context.Service<PayoutProviders, {
  readonly forMethod: (environment: Environment, method: PayoutMethodDef) => ReadonlyArray<PayoutProvider>
}>()("core/ports/PayoutProviders") {}
