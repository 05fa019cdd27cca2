import { Context, type Effect } from "effect"

export interface SendResult {
  readonly status: number
  /** `Retry-After` in seconds, when the endpoint sent one. */
  readonly retryAfterSeconds: number | null
  /** The first 1024 characters of the answer's body, for the delivery log. */
  readonly bodyExcerpt?: string | null | undefined
}

/** POSTs a signed webhook; fails with a message on a network error or a timeout. */
export class WebhookSender extends Context.Service<WebhookSender, {
  /**
   * Why `url` may not be a webhook target (an internal address, a local name), judged at
   * registration; undefined when it may. Delivery checks the resolved address again.
   */
  readonly checkTarget: (url: string) => Effect.Effect<string | undefined>
  readonly send: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number
  ) => Effect.Effect<SendResult, string>
}>()("core/ports/WebhookSender") {}
