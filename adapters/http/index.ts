/**
 * `payment-orchestration-engine/http`: the HTTP API (`/api/v1`, `/admin/v1`, `/openapi.json`,
 * `/docs`, hosted checkout pages) as a Fetch handler (`toFetchHandler`), or as the `HttpApp`
 * layer of routes to serve with `HttpRouter.serve`; `Api` is its `HttpApi` definition, from which
 * a typed client can be derived.
 */
export { type FetchHandlerNeeds, type FetchHandlerOptions, toFetchHandler } from "./FetchHandler.ts"
export { Api, apiVersion, PublicApi } from "./api/Api.ts"
export { HttpApp } from "./server/HttpApp.ts"
export { HttpConfig } from "./server/support/HttpConfig.ts"
