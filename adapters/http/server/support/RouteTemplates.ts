/**
 * The host's route templates (`/api/v1/payments/:id`, `/checkout/:token`), found from a request's
 * method and URL: what a log line, a span and the HTTP metrics name a request by (never the URL,
 * which carries ids, capability tokens and whatever a client puts in a path or a query), and the
 * methods an API path accepts (`405` with `Allow`).
 */
import { FindMyWay } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { merchantRoutes } from "../../console/merchant/index.ts"
import { operatorRoutes } from "../../console/operator/index.ts"
import { shownOnceRoute } from "../../console/ShownOnce.ts"

/** The methods a path of the API accepts, in the order `Allow` lists them. */
export const methodOrder = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

/** The host's own routes beside the API's. */
const hostRoutes: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/openapi.json"],
  ["GET", "/admin/openapi.json"],
  ["GET", "/metrics"],
  ["GET", "/health/live"],
  ["GET", "/health/ready"]
]

/**
 * The pages: hosted checkout (a path segment is the buyer's capability token), the sandbox's
 * payment form, the docs, the icons and the console's sign-in (its other pages are read from
 * their own route tables). A template, not a route: they only name requests here.
 */
const pageRoutes: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/checkout/:token"],
  ["POST", "/checkout/:token/select"],
  ["GET", "/c/:transactionId"],
  ["GET", "/sandbox/pay/:id"],
  ["POST", "/sandbox/pay/:id"],
  ["GET", "/docs"],
  ["GET", "/docs/errors"],
  ["GET", "/docs/:asset"],
  ["GET", "/icons/payment-methods/:id.svg"],
  ["GET", "/console"],
  ["GET", "/console/sign-in"],
  ["POST", "/console/sign-in"],
  ["POST", "/console/sign-out"],
  ["POST", "/console/language"],
  // A team member's invitation: the segment is its capability token.
  ["GET", "/console/invitations/:token"],
  ["POST", "/console/invitations/:token"],
  ["GET", "/console/sso/callback"]
]

/** The API's matchers, the API's and the host's routes (`api`) and every route with the pages (`all`); built on first use. */
let matchers: { readonly api: FindMyWay.Router<string>; readonly all: FindMyWay.Router<string> } | undefined

const build = () => {
  const api = FindMyWay.make<string>()
  const all = FindMyWay.make<string>()
  const declared = new Set<string>()
  const on = (method: string, path: string, withApi: boolean) => {
    if (declared.has(`${method} ${path}`)) return
    declared.add(`${method} ${path}`)
    if (withApi) api.on(method, path as FindMyWay.PathInput, path)
    all.on(method, path as FindMyWay.PathInput, path)
  }
  HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => on(endpoint.method, endpoint.path, true) })
  for (const [method, path] of hostRoutes) on(method, path, true)
  for (const [method, path] of pageRoutes) on(method, path, false)
  for (const route of [shownOnceRoute, ...merchantRoutes, ...operatorRoutes]) on(route.method, route.path, false)
  return { api, all }
}

const matched = () => (matchers ??= build())

/** The template of the route the request is for; `other` for unknown paths (a bounded label). */
export const routeOf = (method: string, url: string): string =>
  matched().all.find(method === "HEAD" ? "GET" : method, url)?.handler ?? "other"

/** The methods the API accepts on the URL's path. */
export const methodsOf = (url: string) => methodOrder.filter((method) => matched().api.find(method, url) !== undefined)
