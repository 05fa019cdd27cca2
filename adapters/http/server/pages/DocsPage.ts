/**
 * `/docs`: the API reference, rendered in the browser by Scalar from `/openapi.json`.
 *
 * Effect's `HttpApiScalar.layer` inlines both Scalar's 3.1 MB standalone bundle and the whole
 * document into one 3.4 MB page (890 KB with br) that no cache can keep apart. Here the page is a
 * few hundred bytes; the bundle (the same one `HttpApiScalar` ships) is served at a name carrying
 * its hash with `Cache-Control: immutable`, brotli-compressed once per process at the highest
 * quality (696 KB rather than 860 KB on the fly) and then from memory; the document is
 * `/openapi.json` itself.
 *
 * Scalar's configuration turns off what points at the vendor's cloud: the developer toolbar
 * ("Generate SDKs", "Share", "Register"), telemetry, its request proxy and its fonts; samples are
 * curl with the `bearer` scheme preselected, so they send `Authorization: Bearer <token>`.
 */
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { brotliCompress, constants } from "node:zlib"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { cspNonce } from "../middleware/SecurityHeaders.ts"

/** Scalar's standalone bundle as `effect` ships it for `HttpApiScalar.layer` (one copy on disk, no CDN). */
let bundleOnce: Promise<Buffer> | undefined
const loadBundle = (): Promise<Buffer> =>
  bundleOnce ??= (async () => {
    const httpApi = createRequire(import.meta.url).resolve("effect/http-api")
    const module: { readonly javascript: string } = await import(pathToFileURL(join(dirname(httpApi), "internal", "httpApiScalar.js")).href)
    return Buffer.from(module.javascript)
  })()

/** What Scalar is told; see https://github.com/scalar/scalar/blob/main/documentation/configuration.md */
const scalarConfig = {
  _integration: "html",
  url: "/openapi.json",
  // The host's own assets only: the system fonts, no toolbar of cloud services, no telemetry,
  // test requests sent straight to this host (no proxy).
  withDefaultFonts: false,
  showDeveloperTools: "never",
  telemetry: false,
  hideClientButton: true,
  authentication: { preferredSecurityScheme: "bearer" },
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  documentDownloadType: "json",
  // "Powered by Scalar" and the API client's "open in Scalar's web client" link to the vendor's site.
  customCss: "a[href*=\"scalar.com\"]{display:none!important}"
}

/** The page; its two scripts carry the request's nonce (`SecurityHeaders.ts`). */
const pageHtml = (scriptPath: string, nonce: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment Orchestration API</title>
<meta name="description" content="API reference of the payment orchestration engine">
</head>
<body>
<div id="api-reference-container"></div>
<script src="${scriptPath}" nonce="${nonce}"></script>
<script nonce="${nonce}">window.Scalar.createApiReference(document.getElementById("api-reference-container"), ${
  JSON.stringify(scalarConfig).replace(/</g, "\\u003c")
})</script>
</body>
</html>`

/** Whether `Accept-Encoding` accepts br (a `q=0` refuses it). */
const acceptsBr = (header: string | undefined) =>
  (header ?? "").split(",").some((part) => {
    const [name, ...params] = part.trim().split(";")
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    return name?.trim().toLowerCase() === "br" && (q === undefined || Number(q) > 0)
  })

/**
 * The bundle brotli-compressed at the highest quality, once per process (every host in it serves
 * the same bundle), off the event loop, from the first request of the script on: about 4 s of
 * one core, so a host whose script nobody asks for never spends it. Until it is ready the
 * compression middleware compresses on the fly.
 */
let brotli: Buffer | undefined
let compressing = false
const compressed = (bundle: Buffer): Buffer | undefined => {
  if (brotli !== undefined || compressing) return brotli
  compressing = true
  brotliCompress(bundle, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bundle.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT
    }
  }, (error, out) => {
    if (error === null) brotli = out
    compressing = false
  })
  return undefined
}

export const DocsPage = Layer.unwrap(Effect.gen(function*() {
  const bundle = yield* Effect.promise(loadBundle)
  const scriptPath: `/docs/${string}` = `/docs/scalar-${createHash("sha256").update(bundle).digest("hex").slice(0, 16)}.js`

  const scriptHeaders = { "cache-control": "public, max-age=31536000, immutable", vary: "Accept-Encoding" }
  const script = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const brotli = compressed(bundle)
    return brotli !== undefined && acceptsBr(request.headers["accept-encoding"])
      ? HttpServerResponse.uint8Array(brotli, {
        contentType: "text/javascript; charset=utf-8",
        headers: { ...scriptHeaders, "content-encoding": "br" }
      })
      : HttpServerResponse.uint8Array(bundle, { contentType: "text/javascript; charset=utf-8", headers: scriptHeaders })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/docs", Effect.map(cspNonce, (nonce) => HttpServerResponse.html(pageHtml(scriptPath, nonce)).pipe(HttpServerResponse.setHeader("cache-control", "no-cache")))),
    HttpRouter.add("GET", scriptPath, script)
  )
}))
