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
import { DocsErrors } from "./pages/DocsErrors.ts"
import { DocsPage } from "./pages/DocsPage.ts"
import { ErrorResponsesLive } from "./middleware/ErrorResponses.ts"
import { renderError } from "./support/ErrorRendering.ts"
import { AdminHandlers } from "./handlers/AdminHandlers.ts"
import { AuthHandlers, PingHandlers } from "./handlers/AuthHandlers.ts"
import { IdentityHandlers } from "./handlers/IdentityHandlers.ts"
import { CheckoutHandlers, CheckoutPublicHandlers } from "./handlers/CheckoutHandlers.ts"
import { CheckoutPages } from "./pages/CheckoutPages.ts"
import { DepositAdminHandlers, DepositHandlers, DepositNotificationHandlers } from "./handlers/DepositHandlers.ts"
import { RefundAdminHandlers, RefundHandlers } from "./handlers/RefundHandlers.ts"
import { CaptureHandlers } from "./handlers/CaptureHandlers.ts"
import { IconRoutes } from "./pages/Icons.ts"
import { PayoutAdminHandlers, PayoutHandlers } from "./handlers/PayoutHandlers.ts"
import { RoutingAdminHandlers } from "./handlers/RoutingHandlers.ts"
import { OperatorAdminHandlers } from "./handlers/OperatorHandlers.ts"
import { WithdrawalAdminHandlers, WithdrawalHandlers } from "./handlers/WithdrawalHandlers.ts"
import { SandboxPages } from "./pages/SandboxPages.ts"
import { ThreeDSecurePages } from "./pages/ThreeDSecurePages.ts"
import { ReconciliationAdminHandlers } from "./handlers/ReconciliationHandlers.ts"
import { SettlementAdminHandlers, SettlementCallbackHandlers, SettlementHandlers } from "./handlers/SettlementHandlers.ts"
import { SandboxHandlers } from "./handlers/SandboxHandlers.ts"
import { CallbackHandlers, CatalogHandlers, PaymentHandlers } from "./handlers/PayinHandlers.ts"
import { Compression } from "./middleware/Compression.ts"
import { SecurityHeaders } from "./middleware/SecurityHeaders.ts"
import { HealthRoutes } from "./handlers/Health.ts"
import { RequestId, RequestLifecycle } from "./middleware/RequestLifecycle.ts"
import { MetricsRoute } from "./middleware/Metrics.ts"
import { methodsOf } from "./support/RouteTemplates.ts"
import { WebhookHandlers, WebhookInboxHandlers } from "./handlers/WebhookHandlers.ts"
import { EventHandlers } from "./handlers/EventHandlers.ts"
import { DeveloperHandlers } from "./handlers/DeveloperHandlers.ts"
import { AuditAdminHandlers, AuditHandlers } from "./handlers/AuditHandlers.ts"
import { ConnectorAccountAdminHandlers, ConnectorAccountHandlers } from "./handlers/ConnectorAccountHandlers.ts"
import { TeamHandlers } from "./handlers/TeamHandlers.ts"
import { CardSessionHandlers } from "./handlers/CardSessionHandlers.ts"
import { InstallmentsHandlers } from "./handlers/InstallmentsHandlers.ts"
import { ConsoleRoutes } from "../console/Console.ts"
import { RateLimitsFromConfig } from "./middleware/RateLimits.ts"
import { AdminTokenLive, AnyKeyLive, SecretKeyLive } from "./middleware/SecurityLive.ts"

export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([
    AuthHandlers,
    PingHandlers,
    IdentityHandlers,
    AdminHandlers,
    PaymentHandlers,
    CaptureHandlers,
    CatalogHandlers,
    CallbackHandlers,
    CheckoutHandlers,
    CheckoutPublicHandlers,
    WebhookHandlers,
    WebhookInboxHandlers,
    EventHandlers,
    DeveloperHandlers,
    AuditHandlers,
    AuditAdminHandlers,
    ConnectorAccountHandlers,
    TeamHandlers,
    ConnectorAccountAdminHandlers,
    CardSessionHandlers,
    InstallmentsHandlers,
    DepositHandlers,
    DepositNotificationHandlers,
    DepositAdminHandlers,
    RefundHandlers,
    RefundAdminHandlers,
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
export const HttpApp = Layer.mergeAll(ApiRoutes, DocsRoutes, HealthRoutes, MetricsRoute, IconRoutes, SandboxPages, ThreeDSecurePages, CheckoutPages, ConsoleRoutes, MethodRoutes, RequestLifecycle, Compression, SecurityHeaders)
