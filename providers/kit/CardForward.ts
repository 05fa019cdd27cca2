/**
 * A card request a connector sends through the vault (`CardVault.forward`), with the vault's
 * failures read as the connector's `ProviderError`s, the same for every card connector:
 *
 * - `ForwardOutcomeUnknown` (the vault timed out waiting for the provider, or did not answer in
 *   the request's time and two seconds more): `noAnswer`, by default `OutcomeUnknown` `timeout`,
 *   since the provider may have charged. A connector whose request charges nobody (Mercado
 *   Pago's card token) says so with its own `noAnswer`.
 * - `ForwardUnreachable`: `Failed` `vault_unreachable` (nothing was sent).
 * - `ForwardRefused`: `host_not_allowed` is `Misconfigured` `vault_host_not_allowed` (the vault's
 *   allowlist lacks the provider's host); `security_code_gone` and `token_not_found` are `Failed`
 *   with the vault's word.
 *
 * The request names the payment as its `purpose`, so the next acquirer in the cascade (or the
 * authorization after 3-D Secure) fills the same security code (`securityCodeUse`).
 */
import { Duration, Effect } from "effect"
import type { CardVault, ForwardRequest, ForwardResponse } from "../../core/ports/CardVault.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import type { ProviderFailures } from "./UpstreamHttp.ts"

export interface CardForwardOptions {
  /** The connector's failures and its `clip` (upstream text made safe). */
  readonly failures: ProviderFailures & { readonly clip: (text: string) => string }
  /** The payment the request is for: its `transactionId`. */
  readonly purpose: string
  /** The error when the outcome is unknown; default `OutcomeUnknown` `timeout`. */
  readonly noAnswer?: ((message: string) => ProviderError) | undefined
}

export const forwardCard = (
  vault: CardVault["Service"],
  request: Omit<ForwardRequest, "purpose" | "timeoutMs"> & { readonly timeoutMs: number },
  options: CardForwardOptions
): Effect.Effect<ForwardResponse, ProviderError> => {
  const { failed, misconfigured, outcomeUnknown, clip } = options.failures
  const noAnswer = options.noAnswer ?? ((message: string) => outcomeUnknown("timeout", message))
  const waited = Duration.millis(request.timeoutMs + 2_000)
  return vault.forward({ ...request, purpose: options.purpose }).pipe(
    Effect.catchTags({
      ForwardOutcomeUnknown: (e) => Effect.fail(noAnswer(`the card vault: ${clip(e.message)}`)),
      ForwardUnreachable: (e) => Effect.fail(failed("vault_unreachable", `the card vault: ${clip(e.message)}`)),
      ForwardRefused: (e) =>
        Effect.fail(e.reason === "host_not_allowed" ? misconfigured("vault_host_not_allowed", clip(e.message)) : failed(e.reason, clip(e.message)))
    }),
    Effect.timeoutOrElse({
      duration: waited,
      orElse: () => Effect.fail(noAnswer(`no answer from the card vault in ${Duration.format(waited)}`))
    })
  )
}
