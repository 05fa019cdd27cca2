/**
 * What a provider team implements to run the conformance kit (`ProviderConformance.ts`) against
 * its upstream: the harness, and the refund controls its refund checks (`RefundConformance.ts`)
 * need. Its own file so that the two suites both depend on it and not on each other.
 */
import type { Effect } from "effect"
import type { ChargeRequest, PaymentMethodDef, PaymentProvider } from "../../core/ports/index.ts"

/** A charge the kit made, as the harness needs it to build a callback about it. */
export interface ChargeRef {
  readonly providerRef: string
  readonly transactionId: string
}

/** What the kit needs to drive a provider and its upstream. */
export interface ConformanceHarness {
  /** The plugin under test, configured against the upstream. */
  readonly provider: PaymentProvider
  /** The same plugin and upstream, with credentials the upstream refuses. */
  readonly providerWithInvalidCredentials: PaymentProvider
  /** A rail the provider supports (`provider.supports(method)` must hold). */
  readonly method: PaymentMethodDef
  /**
   * A charge request the upstream accepts, for a fresh transaction id (see
   * `defaultChargeRequest`); a sandbox with magic amounts or documents puts them here.
   */
  readonly chargeRequest: (transactionId: string) => ChargeRequest
  /** Pays the charge upstream (simulator call, sandbox "pay" button, ...). */
  readonly completeUpstream: (providerRef: string) => Effect.Effect<void>
  /** Fails the charge upstream. */
  readonly failUpstream: (providerRef: string, reason: string) => Effect.Effect<void>
  /** Puts the charge upstream in a status the plugin has never seen. */
  readonly unknownUpstream: (providerRef: string) => Effect.Effect<void>
  /** Arranges for the upstream to decline this charge; may rewrite it (magic amount, test card). */
  readonly arrangeDecline: (request: ChargeRequest) => Effect.Effect<ChargeRequest>
  /** Arranges for the upstream to be unavailable (5xx, unreachable) for this charge. */
  readonly arrangeUnavailable: (request: ChargeRequest) => Effect.Effect<ChargeRequest>
  /** How many charges the upstream holds for this transaction id. */
  readonly upstreamCharges: (transactionId: string) => Effect.Effect<number>
  /**
   * The raw body of the upstream's callback about the charge, after the kit moved it upstream to
   * `status` (`unknown` = a status the plugin has never seen); a notification that carries no
   * status ignores it.
   */
  readonly callbackBody: (charge: ChargeRef, status: "completed" | "failed" | "unknown") => string
  /**
   * The (lowercase) headers the upstream sends with `rawBody`, signed as it signs them: at the
   * current time unless `timestampSeconds` is given, with another secret when `wrongSecret` is
   * true. A `notify-then-query` upstream signs nothing: its content headers only.
   */
  readonly signCallback: (
    rawBody: string,
    options?: { readonly timestampSeconds?: number; readonly wrongSecret?: boolean }
  ) => Effect.Effect<Readonly<Record<string, string>>>
  /** Holds and settles refunds upstream (the refund notification check); see `RefundConformance.ts`. */
  readonly refunds?: RefundControls | undefined
}

/** A notification as the upstream sent it (a simulator's `callbacksSent` records them). */
export interface SentNotification {
  /** The URL it was sent to: its query string is passed to `verifyCallback` (signed by some). */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** How the kit holds and settles refunds upstream. */
export interface RefundControls {
  /** From now on, new refunds stay pending upstream. */
  readonly holdRefunds: Effect.Effect<void>
  /**
   * Settles a pending refund upstream by the provider's id of it, and answers the notifications
   * the upstream sent about that (see `notificationsDuring` in `RefundConformance.ts`).
   */
  readonly settleRefund: (refundRef: string) => Effect.Effect<ReadonlyArray<SentNotification>>
}

/** How the suites judge a provider (`ProviderConformance.ts`): its callback scheme and what its upstream can do. */
export interface ConformanceOptions {
  /** How the upstream's callbacks are trusted (see the module comment). Default `signed`. */
  readonly callbacks?: "signed" | "notify-then-query" | "signed-notify-then-query" | undefined
  /**
   * How old a signed callback may be and still be accepted: the provider's documented retry
   * horizon (Mercado Pago retries for 4 days), since a retried notification keeps its timestamp.
   * Default 300 s. A callback from more than 300 s in the future is always refused.
   */
  readonly callbackMaxAgeSeconds?: number | undefined
  /**
   * False where the upstream's signature covers the body only, with no time in it (Conekta's
   * `digest`, Pagar.me's RS256): no age is checked, so the scheme must also query the upstream
   * (`signed-notify-then-query`), which makes a replay report only what is true now.
   */
  readonly timestamped?: boolean | undefined
  /**
   * False where the upstream cannot hold a refund pending and settle it later (the plugin's README
   * says why): the check that the callback after a refund settles upstream reports it is left out.
   * Default true, and the harness then gives `refunds`.
   */
  readonly refundNotifications?: boolean | undefined
}
