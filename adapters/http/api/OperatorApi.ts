/**
 * The operator's lists: merchants with their shops, and what waits for a human in every shop
 * (payouts stuck in processing, open chargebacks, withdrawals waiting on the bank). Each item
 * names its merchant's shop; the resolve operations are in the claims, payouts and withdrawals
 * admin groups.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ClaimKind, ClaimStatus } from "../../../core/refunds/Claim.ts"
import { PayoutStatus } from "../../../core/payouts/Payout.ts"
import { Tier } from "../../../core/tenancy/Merchant.ts"
import { ClaimView } from "./RefundsApi.ts"
import { Environment, IsoDateTime, MerchantRef } from "./Fields.ts"
import { PageQuery, Pagination } from "./PaymentsApi.ts"
import { PayoutView } from "./PayoutsApi.ts"
import { AdminToken } from "./Security.ts"
import { WithdrawalView } from "./WithdrawalsApi.ts"
import { admin, withErrors } from "./EndpointErrors.ts"

const Owner = { shopId: Schema.String, environment: Environment }

export const MerchantListItem = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  industry: Schema.String,
  tier: Tier,
  createdAt: IsoDateTime,
  shops: Schema.Array(MerchantRef)
}).annotate({ identifier: "MerchantListItem" })

const HourHealthView = Schema.Struct({
  hour: IsoDateTime.annotate({ description: "The hour's start (UTC)" }),
  attempts: Schema.Int.annotate({ description: "Answers (accepted, declined or failed) the provider gave in the hour" }),
  bad: Schema.Int.annotate({ description: "Of them, retryable failures and timeouts" }),
  converted: Schema.Int,
  notConverted: Schema.Int,
  conversion: Schema.NullOr(Schema.Finite).annotate({ description: "converted / (converted + notConverted), 0 to 1; null without any" }),
  p50LatencyMs: Schema.NullOr(Schema.Finite),
  p95LatencyMs: Schema.NullOr(Schema.Finite)
})

export const RailHealthView = Schema.Struct({
  providerId: Schema.String,
  methodId: Schema.String,
  circuit: Schema.Struct({
    state: Schema.Literals(["closed", "open", "half_open"]),
    consecutiveBad: Schema.Int,
    openedAt: Schema.NullOr(IsoDateTime)
  }),
  attempts: Schema.Int,
  bad: Schema.Int,
  conversion: Schema.NullOr(Schema.Finite),
  declines: Schema.Array(Schema.Struct({ decline: Schema.String, count: Schema.Int })).annotate({
    description: "On a card rail: the window's charges the acquirer refused, by normalized decline (insufficient_funds, do_not_honour...), most frequent first. " +
      "With `conversion` (paid of answered, a refusal counting as not paid) it is the acquirer's approval on the brand's rail."
  }),
  hours: Schema.Array(HourHealthView)
}).annotate({ identifier: "ProviderRailHealth" })

export class OperatorAdminApi extends HttpApiGroup.make("operatorAdmin")
  .add(
    HttpApiEndpoint.get("listMerchants", "/merchants", {
      query: PageQuery,
      success: Schema.Struct({ data: Schema.Array(MerchantListItem), pagination: Pagination })
    }).annotate(OpenApi.Description, "Every merchant with its shops (oldest shop first), newest merchant first; limit 1 to 100 (default 50), clamped."),
    HttpApiEndpoint.get("providerHealth", "/providers/health", {
      query: {
        environment: Environment,
        hours: Schema.optional(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 168 }))).annotate({
          description: "The window, whole hours 1 to 168 (default 24), ending with the current hour"
        })
      },
      success: Schema.Struct({ environment: Environment, hours: Schema.Int, rails: Schema.Array(RailHealthView) })
    }).annotate(
      OpenApi.Description,
      "Routing health per provider and rail from the outcomes routing learns from: the circuit breaker's state now, and per hour the attempts, failures, " +
        "conversion (accepted payments finally paid) and answer latency p50/p95. Rails without outcomes in the window are left out; outcomes older than the routing store keeps are gone."
    ),
    HttpApiEndpoint.get("listPayouts", "/payouts", {
      query: {
        ...PageQuery,
        environment: Schema.optional(Environment),
        status: Schema.optional(PayoutStatus),
        olderThanMinutes: Schema.optional(Schema.FiniteFromString.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(525_600))).annotate({
          description: "Only payouts created at least this many minutes ago (0 to 525600)"
        })
      },
      success: Schema.Struct({ data: Schema.Array(Schema.Struct({ ...PayoutView.fields, ...Owner })), pagination: Pagination })
    }).annotate(
      OpenApi.Description,
      "Every shop's payouts, newest first: `status=processing&olderThanMinutes=60` lists those still waiting on the provider past their window, for POST /admin/v1/payouts/{id}/resolve."
    ),
    HttpApiEndpoint.get("listClaims", "/claims", {
      query: { ...PageQuery, environment: Schema.optional(Environment), kind: Schema.optional(ClaimKind), status: Schema.optional(ClaimStatus) },
      success: Schema.Struct({ data: Schema.Array(Schema.Struct({ ...ClaimView.fields, ...Owner })), pagination: Pagination })
    }).annotate(OpenApi.Description, "Every shop's claims, newest first: `kind=chargeback&status=open` lists the chargebacks to decide with POST /admin/v1/claims/{id}/resolve."),
    HttpApiEndpoint.get("listWithdrawals", "/withdrawals", {
      query: { ...PageQuery, environment: Schema.optional(Environment), status: Schema.optional(PayoutStatus) },
      success: Schema.Struct({ data: Schema.Array(Schema.Struct({ ...WithdrawalView.fields, shopId: Schema.String })), pagination: Pagination })
    }).annotate(OpenApi.Description, "Every shop's withdrawals, newest first: `status=processing` lists those waiting on the bank, for POST /admin/v1/withdrawals/{id}/resolve.")
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: merchants and queues")
  .pipe(withErrors({
    listMerchants: admin,
    providerHealth: admin,
    listPayouts: admin,
    listClaims: admin,
    listWithdrawals: admin
  }))
{}
