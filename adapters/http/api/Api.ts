/**
 * The public contract: every endpoint with its request and response schemas. The same
 * definition serves the routes, generates `openapi.json`, and can derive a typed client.
 */
import { HttpApi, type HttpApiGroup, OpenApi } from "effect/http-api"
import { AdminApi } from "./AdminApi.ts"
import { OperatorAdminApi } from "./OperatorApi.ts"
import { AuthApi } from "./AuthApi.ts"
import { CheckoutApi, CheckoutPublicApi } from "./CheckoutApi.ts"
import { RefundAdminApi, RefundsApi } from "./RefundsApi.ts"
import { PayoutAdminApi, PayoutsApi } from "./PayoutsApi.ts"
import { ReconciliationAdminApi } from "./ReconciliationApi.ts"
import { RoutingAdminApi } from "./RoutingApi.ts"
import { SandboxApi } from "./SandboxApi.ts"
import { SettlementAdminApi, SettlementCallbacksApi, SettlementsApi } from "./SettlementsApi.ts"
import { WithdrawalAdminApi, WithdrawalsApi } from "./WithdrawalsApi.ts"
import { DepositAdminApi, DepositNotificationsApi, DepositsApi } from "./DepositsApi.ts"
import { EventsApi } from "./EventsApi.ts"
import { DevelopersApi } from "./DevelopersApi.ts"
import { AuditAdminApi, AuditApi } from "./AuditApi.ts"
import { ConnectorAccountsAdminApi, ConnectorAccountsApi } from "./ConnectorAccountsApi.ts"
import { TeamApi } from "./TeamApi.ts"
import { CaptureApi } from "./CaptureApi.ts"
import { CardSessionsApi } from "./CardSessionsApi.ts"
import { InstallmentsApi } from "./InstallmentsApi.ts"
import { apiDescription } from "./Description.ts"
import { polishDocument, withWebhooks } from "./Documents.ts"
import { ErrorResponses } from "./Errors.ts"
import { operationErrorsOf } from "./EndpointErrors.ts"
import { IdentityApi, PingApi } from "./IdentityApi.ts"
import { CallbacksApi, CatalogApi, PaymentsApi } from "./PaymentsApi.ts"
import { WebhookInboxApi, WebhooksApi } from "./WebhooksApi.ts"

export const apiVersion = "2026-11-01"

/** The merchant's groups, in the order of their document. */
const merchantGroups = [
  AuthApi, PingApi, IdentityApi, CatalogApi, PaymentsApi, InstallmentsApi, CaptureApi, CallbacksApi, CheckoutApi, CheckoutPublicApi, WebhooksApi, WebhookInboxApi, EventsApi,
  DevelopersApi, TeamApi, AuditApi, ConnectorAccountsApi, CardSessionsApi, DepositsApi, DepositNotificationsApi, RefundsApi, PayoutsApi, WithdrawalsApi, SettlementsApi, SettlementCallbacksApi, SandboxApi
] as const
/** The operator's groups, under `/admin/v1`, in the order of their document. */
const operatorGroups = [
  AdminApi, OperatorAdminApi, DepositAdminApi, WithdrawalAdminApi, RefundAdminApi, PayoutAdminApi, RoutingAdminApi, SettlementAdminApi, ReconciliationAdminApi,
  AuditAdminApi, ConnectorAccountsAdminApi
] as const

/** Every group of `Api`, each with the codes its endpoints state (`withErrors`): what `documented` is typed by. */
export type ApiGroups = (typeof merchantGroups)[number] | (typeof operatorGroups)[number]

/** Each operation's own codes, by operation id, read from its group's definition: for both documents. */
export const operationErrors = operationErrorsOf([...merchantGroups, ...operatorGroups])

/** The groups, each marked to be left out of the document of the API they join; typed as they were. */
const excluded = <const Groups extends readonly [HttpApiGroup.Constraint, ...Array<HttpApiGroup.Constraint>]>(groups: Groups): Groups =>
  groups.map((group) => (group as unknown as HttpApiGroup.Top).annotate(OpenApi.Exclude, true)) as unknown as Groups

export class PublicApi extends HttpApi.make("public")
  .add(...merchantGroups)
  .prefix("/api/v1")
{}

/**
 * Every route the host serves. Its document (`/openapi.json`, the reference page `/docs`) is the
 * merchant's: the operator's groups are left out of it and documented in `AdminDocument`.
 */
export class Api extends HttpApi.make("payment-orchestration")
  .addHttpApi(PublicApi)
  .add(...excluded(operatorGroups))
  .middleware(ErrorResponses)
  // Report every problem of a request at once, not only the first; an unknown field is an error
  // (a typo must never be ignored: `amout` would refund everything). Headers carry transport
  // fields, so they keep the default for unknown keys.
  .annotate(HttpApi.ParseOptions, { errors: "all", onExcessProperty: "error" })
  .annotate(HttpApi.HeadersParseOptions, { errors: "all" })
  .annotate(OpenApi.Title, "Payment Orchestration API")
  .annotate(OpenApi.Version, apiVersion)
  .annotate(OpenApi.Description, apiDescription)
  .annotate(OpenApi.Transform, (spec) => withWebhooks(polishDocument(spec, operationErrors)))
{}

/** The operator's document, served at `/admin/openapi.json`. */
export class AdminDocument extends HttpApi.make("payment-orchestration-admin")
  .add(...operatorGroups)
  .middleware(ErrorResponses)
  .annotate(OpenApi.Title, "Payment Orchestration Admin API")
  .annotate(OpenApi.Version, apiVersion)
  .annotate(
    OpenApi.Description,
    "The operator's API of the reference host, under `/admin/v1`, authorized by the host's `ADMIN_TOKEN` as a bearer token: merchants and keys, " +
      "FX rates, provider routes and routing rules, deposit settings, settlement schedules, reconciliation with the providers' reports, and resolving claims, payouts and withdrawals. The merchant API is documented at `/openapi.json`."
  )
  .annotate(OpenApi.Transform, (spec) => polishDocument(spec, operationErrors))
{}
