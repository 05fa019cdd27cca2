/**
 * The API's route templates (`/api/v1/payments/:id`), found from a request's method and URL: the
 * bounded label of the HTTP metrics (never the URL, which carries ids), and the methods a path
 * accepts (`405` with `Allow`).
 */
import { FindMyWay } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Api } from "../api/Api.ts"

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

const matcher = (() => {
  const routes = FindMyWay.make<string>()
  const declared = new Set<string>()
  const on = (method: string, path: string) => {
    if (declared.has(`${method} ${path}`)) return
    declared.add(`${method} ${path}`)
    routes.on(method, path as FindMyWay.PathInput, path)
  }
  HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => on(endpoint.method, endpoint.path) })
  for (const [method, path] of hostRoutes) on(method, path)
  return routes
})()

/** The template of the route the request is for; `other` for pages, assets and unknown paths (a bounded label). */
export const routeOf = (method: string, url: string): string =>
  matcher.find(method === "HEAD" ? "GET" : method, url)?.handler ?? "other"

/** The methods the API accepts on the URL's path. */
export const methodsOf = (url: string) => methodOrder.filter((method) => matcher.find(method, url) !== undefined)
