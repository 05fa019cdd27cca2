/**
 * The HTTP application as a router layer: the API routes with their middlewares, `openapi.json`,
 * the reference page, and the request lifecycle. Serve it with `HttpRouter.serve` on a Node
 * server, or mount it in another server with `HttpRouter.toWebHandler`.
 */
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"
import { apiError } from "../../../core/ApiError.ts"
import { EngineConfig } from "../../../core/EngineConfig.ts"
import { AdminDocument, Api } from "../api/Api.ts"
import { DocsErrors } from "./DocsErrors.ts"
import { DocsPage } from "./DocsPage.ts"
import { ErrorResponsesLive } from "./ErrorResponses.ts"
import { renderError } from "./ErrorRendering.ts"
import { AdminHandlers, AuthHandlers, IdentityHandlers, PingHandlers } from "./Handlers.ts"
import { CheckoutHandlers, CheckoutPublicHandlers } from "./CheckoutHandlers.ts"
import { CheckoutPages } from "./CheckoutPages.ts"
import { DepositAdminHandlers, DepositHandlers, DepositNotificationHandlers } from "./DepositHandlers.ts"
import { ClaimAdminHandlers, ClaimHandlers } from "./ClaimHandlers.ts"
import { IconRoutes } from "./Icons.ts"
import { PayoutAdminHandlers, PayoutHandlers } from "./PayoutHandlers.ts"
import { RoutingAdminHandlers } from "./RoutingHandlers.ts"
import { OperatorAdminHandlers } from "./OperatorHandlers.ts"
import { WithdrawalAdminHandlers, WithdrawalHandlers } from "./WithdrawalHandlers.ts"
import { SandboxPages } from "./SandboxPages.ts"
import { ReconciliationAdminHandlers } from "./ReconciliationHandlers.ts"
import { SettlementAdminHandlers, SettlementCallbackHandlers, SettlementHandlers } from "./SettlementHandlers.ts"
import { SandboxHandlers } from "./SandboxHandlers.ts"
import { CallbackHandlers, CatalogHandlers, PaymentHandlers } from "./PayinHandlers.ts"
import { Compression } from "./Compression.ts"
import { SecurityHeaders } from "./SecurityHeaders.ts"
import { HealthRoutes } from "./Health.ts"
import { RequestId, RequestLifecycle } from "./RequestLifecycle.ts"
import { MetricsRoute } from "./Metrics.ts"
import { methodsOf } from "./RouteTemplates.ts"
import { WebhookHandlers, WebhookInboxHandlers } from "./WebhookHandlers.ts"
import { EventHandlers } from "./EventHandlers.ts"
import { DeveloperHandlers } from "./DeveloperHandlers.ts"
import { ConsoleRoutes } from "../console/Console.ts"
import { RateLimitsFromConfig } from "./RateLimits.ts"
import { AdminTokenLive, AnyKeyLive, SecretKeyLive } from "./SecurityLive.ts"

export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([
    AuthHandlers,
    PingHandlers,
    IdentityHandlers,
    AdminHandlers,
    PaymentHandlers,
    CatalogHandlers,
    CallbackHandlers,
    CheckoutHandlers,
    CheckoutPublicHandlers,
    WebhookHandlers,
    WebhookInboxHandlers,
    EventHandlers,
    DeveloperHandlers,
    DepositHandlers,
    DepositNotificationHandlers,
    DepositAdminHandlers,
    ClaimHandlers,
    ClaimAdminHandlers,
    PayoutHandlers,
    PayoutAdminHandlers,
    RoutingAdminHandlers,
    OperatorAdminHandlers,
    WithdrawalHandlers,
    WithdrawalAdminHandlers,
    SettlementHandlers,
    SettlementCallbackHandlers,
    SettlementAdminHandlers,
    ReconciliationAdminHandlers,
    SandboxHandlers
  ]),
  Layer.provide([SecretKeyLive, AnyKeyLive, AdminTokenLive, ErrorResponsesLive]),
  Layer.provide(RateLimitsFromConfig)
)

/** The operator's document: the admin API, apart from the merchant's `/openapi.json`. */
const adminDocument = JSON.stringify(OpenApi.fromApi(AdminDocument))

export const DocsRoutes = Layer.mergeAll(
  HttpRouter.add("GET", "/admin/openapi.json", HttpServerResponse.text(adminDocument, { contentType: "application/json" })),
  // The reference page (Scalar, from the host itself, nothing from another host) and the error codes.
  DocsPage,
  DocsErrors
)

/**
 * A path of the API called with a method it does not accept is `405 method_not_allowed` with an
 * `Allow` header (RFC 9110), not 404: the router tries every route first and comes here last
 * (a wildcard is its lowest priority); a path no method matches stays 404. HEAD is left to the
 * router, which answers it as GET.
 */
export const MethodRoutes = Layer.unwrap(Effect.gen(function*() {
  const config = yield* EngineConfig
  const methodNotAllowed = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = Option.getOrElse(yield* Effect.serviceOption(RequestId), () => "")
    const allowed = methodsOf(request.url)
    const error = allowed.length === 0 || allowed.includes(request.method as (typeof allowed)[number])
      ? apiError("not_found", "No such endpoint", {})
      : apiError("method_not_allowed", `${request.method} is not allowed on ${request.url.split("?")[0]}: it accepts ${allowed.join(", ")}`, { allowed })
    return renderError(error, requestId, config.publicUrl)
  })
  return Layer.mergeAll(
    HttpRouter.add("GET", "*", methodNotAllowed),
    HttpRouter.add("POST", "*", methodNotAllowed),
    HttpRouter.add("PUT", "*", methodNotAllowed),
    HttpRouter.add("PATCH", "*", methodNotAllowed),
    HttpRouter.add("DELETE", "*", methodNotAllowed),
    HttpRouter.add("OPTIONS", "*", methodNotAllowed)
  )
}))

/** Needs the core services (Auth, Merchants) and `HttpConfig`. */
export const HttpApp = Layer.mergeAll(ApiRoutes, DocsRoutes, HealthRoutes, MetricsRoute, IconRoutes, SandboxPages, CheckoutPages, ConsoleRoutes, MethodRoutes, RequestLifecycle, Compression, SecurityHeaders)
