/**
 * The HTTP API as a Fetch handler (`Request` -> `Promise<Response>`), for an embedder who mounts
 * it in their own server (Node, Bun, Deno, a serverless runtime...). Give it the engine layer and
 * the memo map of the runtime that already built that layer, and the handler serves the very same
 * engine and store the embedder's own code calls.
 *
 * Requests run in the context the engine layer built, so they log through the embedder's loggers
 * (`Logger.layer`) at the embedder's minimum level (`References.MinimumLogLevel`; `"None"` silences
 * the handler's line per request) when the engine layer provides them. Its spans go to the
 * engine layer's tracer, private (`server/PrivateSpans.ts`): a request's span names the route's
 * template, never the URL, its query, the user agent or the client's address (unless
 * `exportClientAddress`).
 */
import { Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApp } from "./server/HttpApp.ts"
import { HttpConfig } from "./server/support/HttpConfig.ts"
import { privateSpans } from "./server/middleware/PrivateSpans.ts"

/** What the HTTP application needs from the engine layer: the engine's services, its config and the stores. */
export type FetchHandlerNeeds = Exclude<
  Layer.Services<typeof HttpApp>,
  HttpConfig | HttpRouter.HttpRouter | Layer.Success<typeof HttpServer.layerServices>
>

export interface FetchHandlerOptions {
  /** The memo map of the runtime that built `engine` (`ManagedRuntime.memoMap`), to share it. */
  readonly memoMap?: Layer.MemoMap | undefined
  /** Put the client's address (`client.address`) on each request's span; default false (it is personal data). */
  readonly exportClientAddress?: boolean | undefined
}

/** The API, its OpenAPI document, docs and hosted pages as `(request) => Promise<Response>`. */
export const toFetchHandler = <E>(
  engine: Layer.Layer<FetchHandlerNeeds, E>,
  config: HttpConfig["Service"],
  options: FetchHandlerOptions = {}
): {
  readonly handler: (request: Request) => Promise<Response>
  readonly dispose: () => Promise<void>
} => {
  const web = HttpRouter.toWebHandler(
    // provideMerge, not provide: what the engine layer built (its loggers and log level among it)
    // stays in the requests' context instead of being left behind once the routes are built.
    HttpApp.pipe(
      Layer.provideMerge(privateSpans({ clientAddress: options.exportClientAddress === true })),
      Layer.provideMerge(Layer.mergeAll(engine, Layer.succeed(HttpConfig, config), HttpServer.layerServices))
    ),
    { memoMap: options.memoMap, disableLogger: true }
  )
  return { handler: (request) => web.handler(request), dispose: web.dispose }
}
