/**
 * Responses are compressed (br, then gzip) when the client's `Accept-Encoding` allows it and the
 * body is at least 1 KiB of a compressible type, with `Vary: Accept-Encoding`; the platform the
 * server runs on (`node:zlib` under the Node server) does the work. BREACH needs a secret and
 * attacker-chosen text in one response: no response of this API reflects request text next to a
 * key or token.
 */
import { Effect } from "effect"
import { HttpMiddleware, HttpPlatform, HttpRouter } from "effect/http"

const compress = HttpMiddleware.compression({ algorithms: ["br", "gzip"], minSize: 1024 })

export const Compression = HttpRouter.middleware(
  Effect.gen(function*() {
    const platform = yield* HttpPlatform.HttpPlatform
    return (httpEffect) => compress(httpEffect).pipe(Effect.provideService(HttpPlatform.HttpPlatform, platform))
  }),
  { global: true }
)
