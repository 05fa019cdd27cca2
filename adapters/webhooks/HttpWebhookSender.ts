/** Sends webhooks over HTTP with the `effect/http` client: the exact body bytes, one timeout. */
import { Duration, Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { WebhookSender } from "../../core/ports/WebhookSender.ts"

/** `Retry-After` as seconds (delta-seconds or an HTTP date). */
export const retryAfterSeconds = (value: string | undefined, nowMs: number): number | null => {
  if (value === undefined) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000))
}

export const layer = Layer.effect(
  WebhookSender,
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    return WebhookSender.of({
      send: (url, headers, body, timeoutMs) =>
        client.execute(
          HttpClientRequest.post(url).pipe(
            HttpClientRequest.setHeaders(headers),
            HttpClientRequest.bodyText(body, "application/json")
          )
        ).pipe(
          Effect.flatMap((response) =>
            Effect.map(response.text.pipe(Effect.ignore), () => ({
              status: response.status,
              retryAfterSeconds: retryAfterSeconds(response.headers["retry-after"], Date.now())
            }))
          ),
          Effect.scoped,
          Effect.timeoutOrElse({
            duration: Duration.millis(timeoutMs),
            orElse: () => Effect.fail(`timeout after ${timeoutMs} ms`)
          }),
          Effect.mapError((e) => typeof e === "string" ? e : `network error: ${e.message}`)
        )
    })
  })
).pipe(Layer.provide(FetchHttpClient.layer))

export const HttpWebhookSender = { layer }
