import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AttemptRouting } from "../../../core/payments/Payment.ts"
import { CardDecline } from "../../../core/ports/CardDeclines.ts"
import { Condition, Selection, Strategy } from "../../../core/routing/Config.ts"
import { Environment, StoredInt } from "./Fields.ts"
import { SkippedView } from "./PaymentsApi.ts"
import { AdminToken } from "./Security.ts"
import { admin, withErrors } from "./EndpointErrors.ts"

const RuleBody = Schema.Struct({
  id: Schema.String.annotate({ description: "Unique in the configuration: letters, digits, _ . : -, at most 64" }),
  when: Condition.annotate({ description: "Every condition given must hold; none given matches every payment. amountUsd is [min, max)." }),
  ...Selection.fields
}).annotate({ description: "Exactly one of providers (an ordered list) or split (weights: the first provider is drawn by weight, the others follow by weight)" })

const RoutingConfigBody = Schema.Struct({
  strategy: Strategy.annotate({
    description: "static: the candidates' order; health (the default): skip providers whose circuit is open; success_rate: order by Thompson sampling over recent conversions, then skip open circuits"
  }),
  rules: Schema.Array(RuleBody),
  default: Schema.optional(Selection)
})

const RoutingConfigView = Schema.Struct({
  environment: Environment,
  shopId: Schema.String,
  version: Schema.Int.annotate({ description: "0 while never configured; send it back as `version` to refuse a write over another's" }),
  config: Schema.NullOr(RoutingConfigBody)
})

const Id = { shopId: Schema.String }

export class RoutingAdminApi extends HttpApiGroup.make("routingAdmin")
  .add(
    HttpApiEndpoint.get("getRouting", "/shops/:shopId/routing", {
      params: Id,
      query: { environment: Environment },
      success: RoutingConfigView
    }).annotate(OpenApi.Description, "The shop's routing configuration in the environment and its version (version 0 and config null: the shop's routes decide, with the health strategy)."),
    HttpApiEndpoint.put("putRouting", "/shops/:shopId/routing", {
      params: Id,
      payload: Schema.Struct({
        environment: Environment,
        version: Schema.optional(StoredInt.check(Schema.isGreaterThanOrEqualTo(0))).annotate({ description: "The version you read; another write since then answers 409 routing_version_conflict" }),
        ...RoutingConfigBody.fields
      }),
      success: RoutingConfigView
    }).annotate(
      OpenApi.Description,
      "Replaces the shop's routing configuration with a new version. The first rule whose conditions match a payment chooses its candidate providers (an ordered list or a weighted split); " +
        "with none matching, `default`, else the shop's routes. The strategy then orders them. Refused with 400 invalid_request naming the field: a duplicate rule id, a rule with both or neither of providers and split, " +
        "a provider not configured in the environment, or one that does not serve a payment method the rule names. " +
        "Card conditions (brands; bins, each a prefix or a from-to range of equal lengths; installments, a count range) hold only for payments charged with a card token; " +
        "one that can never hold is 422 routing_rule_invalid naming the field (a reversed or uneven BIN range, installments min above max, card conditions on a rule matching no card rail of its brands). " +
        "The issuer's country is not a condition (the engine has no BIN table); installments match the payment's `installments.count` (a card payment without one counts 1). " +
        "The new version routes payments at once on the host that took it, and within a second on other replicas of the engine."
    ),
    HttpApiEndpoint.get("getPaymentRouting", "/payments/:id/routing", {
      params: { id: Schema.String },
      success: Schema.Struct({
        transactionId: Schema.String,
        attempts: Schema.Array(Schema.Struct({
          provider: Schema.String,
          outcome: Schema.String,
          latencyMs: Schema.Finite,
          reason: Schema.NullOr(Schema.String),
          decline: Schema.optional(Schema.NullOr(CardDecline)).annotate({ description: "Card payments only: the attempt's normalized decline, null when none" }),
          routing: Schema.NullOr(AttemptRouting)
        })),
        skipped: Schema.Array(SkippedView)
      })
    }).annotate(
      OpenApi.Description,
      "Why each attempt of a payment went where it went: the rule that chose the candidates, the strategy, the provider's circuit then, and its success-rate draw; " +
        "and `skipped`, the providers of the rule or the shop's routes passed over without being called, each with why."
    )
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: routing")
  .pipe(withErrors({
    getRouting: admin,
    putRouting: [...admin, "routing_version_conflict", "routing_rule_invalid"],
    getPaymentRouting: admin
  }))
{}
