/**
 * The HTTP application as a router layer: the API routes with their middlewares, `openapi.json`,
 * the reference page, and the request lifecycle. Serve it with `HttpRouter.serve` on a Node
 * server, or mount it in another server with `HttpRouter.toWebHandler`.
 */
import { Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar, OpenApi } from "effect/http-api"
import { AdminDocument, Api } from "../api/Api.ts"
import { errorsPage } from "../api/Description.ts"
import { ErrorResponsesLive } from "./ErrorResponses.ts"
import { AdminHandlers, AuthHandlers, IdentityHandlers, PingHandlers } from "./Handlers.ts"
import { CheckoutHandlers, CheckoutPublicHandlers } from "./CheckoutHandlers.ts"
import { CheckoutPages } from "./CheckoutPages.ts"
import { DepositAdminHandlers, DepositHandlers, DepositNotificationHandlers } from "./DepositHandlers.ts"
import { ClaimAdminHandlers, ClaimHandlers } from "./ClaimHandlers.ts"
import { IconRoutes } from "./Icons.ts"
import { PayoutAdminHandlers, PayoutHandlers } from "./PayoutHandlers.ts"
import { RoutingAdminHandlers } from "./RoutingHandlers.ts"
import { WithdrawalAdminHandlers, WithdrawalHandlers } from "./WithdrawalHandlers.ts"
import { SandboxPages } from "./SandboxPages.ts"
import { SandboxHandlers } from "./SandboxHandlers.ts"
import { CallbackHandlers, CatalogHandlers, PaymentHandlers } from "./PayinHandlers.ts"
import { Compression } from "./Compression.ts"
import { RequestLifecycle } from "./RequestLifecycle.ts"
import { WebhookHandlers, WebhookInboxHandlers } from "./WebhookHandlers.ts"
import { EventHandlers } from "./EventHandlers.ts"
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
    DepositHandlers,
    DepositNotificationHandlers,
    DepositAdminHandlers,
    ClaimHandlers,
    ClaimAdminHandlers,
    PayoutHandlers,
    PayoutAdminHandlers,
    RoutingAdminHandlers,
    WithdrawalHandlers,
    WithdrawalAdminHandlers,
    SandboxHandlers
  ]),
  Layer.provide([SecretKeyLive, AnyKeyLive, AdminTokenLive, ErrorResponsesLive]),
  Layer.provide(RateLimitsFromConfig)
)

/** The operator's document: the admin API, apart from the merchant's `/openapi.json`. */
const adminDocument = JSON.stringify(OpenApi.fromApi(AdminDocument))

export const DocsRoutes = Layer.mergeAll(
  HttpRouter.add("GET", "/admin/openapi.json", HttpServerResponse.text(adminDocument, { contentType: "application/json" })),
  // The Scalar script is served inline by the host; its default fonts would come from Scalar's
  // CDN, so the page uses the system fonts and asks nothing of another host.
  HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }),
  HttpRouter.add("GET", "/docs/errors", HttpServerResponse.html(errorsPage))
)

/** Needs the core services (Auth, Merchants) and `HttpConfig`. */
export const HttpApp = Layer.mergeAll(ApiRoutes, DocsRoutes, IconRoutes, SandboxPages, CheckoutPages, RequestLifecycle, Compression)
