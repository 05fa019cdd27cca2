import { Context, type Effect, Schema } from "effect"
import type { Environment } from "../Environment.ts"
import type { PayoutMethodDef } from "../payouts/PayoutMethod.ts"
import type { CallbackRejected } from "./PaymentProvider.ts"

/** The provider refused the beneficiary data (the engine reverses the debit: 422 payout_dispatch_failed). */
export class PayoutRejected extends Schema.TaggedError<PayoutRejected>()("PayoutRejected", {
  failureReason: Schema.String
}) {}

/** The provider could not be asked (outage, timeout): the engine asks again later. */
export class PayoutProviderUnavailable extends Schema.TaggedError<PayoutProviderUnavailable>()("PayoutProviderUnavailable", {
  reason: Schema.String
}) {}

/**
 * A payout's status as the provider reports it (signed callback or status poll). Anything the
 * plugin does not know maps to `processing`: only an explicit completion or failure moves money.
 */
export interface PayoutUpdate {
  readonly providerRef: string
  /** The engine's payout id, when the provider echoes it. */
  readonly payoutId?: string | undefined
  readonly status: "processing" | "completed" | "failed"
  /** The provider's words (failure reason...). */
  readonly detail?: string | undefined
}

/**
 * The contract of an upstream payout provider plugin, beside `PaymentProvider`: send a payout,
 * report its status (the poll when a callback is lost), verify and parse its signed callbacks
 * (`POST /api/v1/providers/{id}/payout-callbacks`). Registered in `PayoutProviders`; in production
 * a rail without one is not routable.
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
    /** Where the provider must send signed status callbacks for this payout. */
    readonly callbackUrl: string
  }) => Effect.Effect<
    { readonly providerRef: string; readonly status: "processing" | "completed" },
    PayoutRejected | PayoutProviderUnavailable
  >
  readonly status: (providerRef: string, payoutId: string) => Effect.Effect<PayoutUpdate, PayoutProviderUnavailable>
  /** Verifies (constant time) and parses a callback; headers are lowercase, the body the exact bytes. */
  readonly verifyCallback: (
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string
  ) => Effect.Effect<ReadonlyArray<PayoutUpdate>, CallbackRejected>
}

export class PayoutProviders extends Context.Service<PayoutProviders, {
  readonly forMethod: (environment: Environment, method: PayoutMethodDef) => ReadonlyArray<PayoutProvider>
  readonly byId: (id: string) => PayoutProvider | undefined
}>()("core/ports/PayoutProviders") {}
