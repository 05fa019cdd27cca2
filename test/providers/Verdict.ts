/**
 * A `ProviderError` as the provider tests assert it: the provider's code, and the cascade's two
 * questions read from its reason: may the next provider try it (`retryable`: any reason but
 * `Declined`), may this one hold it (`outcomeUnknown`). Any other value passes through.
 */
import { ProviderError } from "../../core/ports/PaymentProvider.ts"
import type { Verdict as KitVerdict } from "../../providers/kit/UpstreamHttp.ts"

export interface ProviderErrorView {
  readonly _tag: "ProviderError"
  readonly providerId: string
  readonly reason: string
  readonly message: string
  readonly retryable: boolean
  readonly outcomeUnknown: boolean
}

export const view = <E>(error: E): Exclude<E, ProviderError> | (E extends ProviderError ? ProviderErrorView : never) =>
  (error instanceof ProviderError
    ? {
      _tag: "ProviderError",
      providerId: error.providerId,
      reason: error.code,
      message: error.message,
      retryable: error.reason._tag !== "Declined",
      outcomeUnknown: error.reason._tag === "OutcomeUnknown"
    } satisfies ProviderErrorView
    : error) as never

/** A connector's verdict on an upstream code, in the same terms. */
export const verdictView = (verdict: KitVerdict) => ({ retryable: verdict.reason !== "Declined", reason: verdict.code })
