import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Tier } from "../../../core/tenancy/Merchant.ts"
import { Email, Environment, IdempotencyHeaders, MaskedWhenStored, MerchantRef, RequiredText, StoredInt, Text } from "./Fields.ts"
import { AdminToken } from "./Security.ts"
import { admin, idempotent, withErrors } from "./EndpointErrors.ts"

export const KeyPairView = Schema.Struct({ publishableKey: Schema.String, secretKey: Schema.String })


export const CreatedMerchant = Schema.Struct({
  merchant: MerchantRef,
  shops: Schema.Array(MerchantRef),
  keys: Schema.Struct({ sandbox: KeyPairView, production: KeyPairView })
})

/** `CreatedMerchant` as its idempotent replay is stored: secret keys masked. */
export const StoredCreatedMerchant = Schema.Struct({
  ...CreatedMerchant.fields,
  keys: Schema.Struct({
    sandbox: Schema.Struct({ ...KeyPairView.fields, secretKey: MaskedWhenStored }),
    production: Schema.Struct({ ...KeyPairView.fields, secretKey: MaskedWhenStored })
  })
})

const idempotentCredentials = " With `Idempotency-Key`, a retry (or a double click in the console) answers the first result with " +
  "`Idempotent-Replayed: true` and changes nothing; its secret keys are masked (`sk_test_…abcd`): they are shown once, by the first answer."

export const IssuedKeyPair = Schema.Struct({
  keyId: Schema.String,
  environment: Environment,
  scope: Schema.Literals(["shop", "merchant"]),
  shopId: Schema.NullOr(Schema.String),
  version: Schema.Int,
  publishableKey: Schema.String,
  secretKey: Schema.String.annotate({ description: "Shown once; stored only as a hash" })
}).annotate({ identifier: "IssuedKeyPair" })

export const RotatedKeys = Schema.Struct({
  shopId: Schema.String,
  revoked: Schema.Int.annotate({ description: "How many key pairs were revoked" }),
  keys: Schema.Struct({ sandbox: IssuedKeyPair, production: IssuedKeyPair })
})

/** `RotatedKeys` as its idempotent replay is stored: secret keys masked. */
export const StoredRotatedKeys = Schema.Struct({
  ...RotatedKeys.fields,
  keys: Schema.Struct({
    sandbox: Schema.Struct({ ...IssuedKeyPair.fields, secretKey: MaskedWhenStored }),
    production: Schema.Struct({ ...IssuedKeyPair.fields, secretKey: MaskedWhenStored })
  })
})

export const FxRateView = Schema.Struct({
  currency: Schema.String,
  perUsd: Schema.Finite,
  enabled: Schema.Boolean,
  updatedAt: Schema.String
}).annotate({ identifier: "FxRate" })

export const RouteView = Schema.Struct({
  environment: Environment,
  shopId: Schema.String,
  providerId: Schema.String,
  priority: Schema.Int,
  methodIds: Schema.NullOr(Schema.Array(Schema.String)),
  enabled: Schema.Boolean
}).annotate({ identifier: "ProviderRoute" })

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("createMerchant", "/merchants", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({
        name: RequiredText(200),
        email: Email,
        industry: Schema.optional(Text(100)),
        tier: Schema.optional(Tier),
        shops: Schema.optional(Schema.Array(Schema.Struct({ name: RequiredText(200) })).check(Schema.isMaxLength(50)))
      }),
      success: CreatedMerchant.pipe(HttpApiSchema.status(201))
    }).annotate(OpenApi.Description, "Creates a merchant with its shops (one named after the merchant when none is given) and a sandbox and a production key pair: shop-bound for a single shop, merchant-wide for several. Secrets are shown once." + idempotentCredentials),
    HttpApiEndpoint.post("issueKeys", "/shops/:shopId/keys", {
      params: { shopId: Schema.String },
      payload: Schema.Struct({
        environment: Environment,
        scope: Schema.optional(Schema.Literals(["shop", "merchant"]))
      }),
      success: IssuedKeyPair.pipe(HttpApiSchema.status(201))
    }).annotate(OpenApi.Description, "Issues another key pair for the shop (scope shop, the default) or for every shop of its merchant."),
    HttpApiEndpoint.post("rotateKeys", "/shops/:shopId/rotate-keys", {
      params: { shopId: Schema.String },
      headers: IdempotencyHeaders,
      success: RotatedKeys
    }).annotate(OpenApi.Description, "Revokes every key pair covering the shop, with every access and refresh token minted from them, and issues new pairs at the next credential version." + idempotentCredentials)
  )
  .add(
    HttpApiEndpoint.get("listFxRates", "/fx-rates", {
      success: Schema.Struct({ markupPct: Schema.Finite, rates: Schema.Array(FxRateView) })
    }),
    HttpApiEndpoint.put("putFxRate", "/fx-rates/:currency", {
      params: { currency: Schema.String },
      payload: Schema.Struct({
        perUsd: Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1e9)).annotate({
          description: "Units of the currency per 1 USD (mid rate), above 0 and at most 1e9"
        }),
        enabled: Schema.optional(Schema.Boolean)
      }),
      success: FxRateView
    }).annotate(OpenApi.Description, "Sets a mid rate. `enabled: false` withdraws it: conversions answer 422 fx_unavailable."),
    HttpApiEndpoint.get("listProviders", "/providers", {
      success: Schema.Struct({ providers: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, environments: Schema.Array(Environment) })) })
    }).annotate(OpenApi.Description, "The provider plugins registered in this host."),
    HttpApiEndpoint.get("listRoutes", "/shops/:shopId/routes", {
      params: { shopId: Schema.String },
      query: { environment: Environment },
      success: Schema.Struct({ routes: Schema.Array(RouteView) })
    }),
    HttpApiEndpoint.put("putRoute", "/shops/:shopId/routes/:providerId", {
      params: { shopId: Schema.String, providerId: Schema.String },
      payload: Schema.Struct({
        environment: Environment,
        priority: StoredInt.annotate({ description: "Lower is tried first; at most 2147483647 either way" }),
        methodIds: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))).annotate({ description: "Null or absent: every method the provider supports" }),
        enabled: Schema.optional(Schema.Boolean)
      }),
      success: RouteView
    }).annotate(OpenApi.Description, "Routes the shop's payments to a provider in an environment; the cascade tries routes by ascending priority. In sandbox the sandbox provider serves every rail after the configured routes. A change routes payments at once on the host that took it, and within a second on other replicas of the engine."),
    HttpApiEndpoint.post("reconcileNow", "/jobs/reconcile", {
      success: Schema.Struct({ moved: Schema.Int })
    }).annotate(OpenApi.Description, "Runs the reconcile poll now over every pending payment (it also runs by itself every 5 minutes)."),
    HttpApiEndpoint.delete("deleteRoute", "/shops/:shopId/routes/:providerId", {
      params: { shopId: Schema.String, providerId: Schema.String },
      query: { environment: Environment },
      success: Schema.Struct({ deleted: Schema.Boolean })
    })
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin")
  .annotate(OpenApi.Description, "Operator API of the reference host, guarded by `Authorization: Bearer <ADMIN_TOKEN>`; answers 404 when ADMIN_TOKEN is not configured.")
  .pipe(withErrors({
    createMerchant: [...admin, ...idempotent],
    issueKeys: admin,
    rotateKeys: [...admin, ...idempotent],
    listFxRates: admin,
    putFxRate: admin,
    listProviders: admin,
    listRoutes: admin,
    putRoute: admin,
    deleteRoute: admin,
    reconcileNow: admin
  }))
{}
