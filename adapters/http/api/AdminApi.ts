import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Tier } from "../../../core/tenancy/Merchant.ts"
import { Email, Environment, MerchantRef, RequiredText, Text } from "./Fields.ts"
import { AdminToken } from "./Security.ts"

export const KeyPairView = Schema.Struct({ publishableKey: Schema.String, secretKey: Schema.String })

export const IssuedKeyPair = Schema.Struct({
  keyId: Schema.String,
  environment: Environment,
  scope: Schema.Literals(["shop", "merchant"]),
  shopId: Schema.NullOr(Schema.String),
  version: Schema.Int,
  publishableKey: Schema.String,
  secretKey: Schema.String.annotate({ description: "Shown once; stored only as a hash" })
}).annotate({ identifier: "IssuedKeyPair" })

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("createMerchant", "/merchants", {
      payload: Schema.Struct({
        name: RequiredText(200),
        email: Email,
        industry: Schema.optional(Text(100)),
        tier: Schema.optional(Tier),
        shops: Schema.optional(Schema.Array(Schema.Struct({ name: RequiredText(200) })).check(Schema.isMaxLength(50)))
      }),
      success: Schema.Struct({
        merchant: MerchantRef,
        shops: Schema.Array(MerchantRef),
        keys: Schema.Struct({ sandbox: KeyPairView, production: KeyPairView })
      }).pipe(HttpApiSchema.status(201))
    }).annotate(OpenApi.Description, "Creates a merchant with its shops (one named after the merchant when none is given) and a sandbox and a production key pair: shop-bound for a single shop, merchant-wide for several. Secrets are shown once."),
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
      success: Schema.Struct({
        shopId: Schema.String,
        revoked: Schema.Int.annotate({ description: "How many key pairs were revoked" }),
        keys: Schema.Struct({ sandbox: IssuedKeyPair, production: IssuedKeyPair })
      })
    }).annotate(OpenApi.Description, "Revokes every key pair covering the shop, with every access and refresh token minted from them, and issues new pairs at the next credential version.")
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin")
  .annotate(OpenApi.Description, "Operator API of the reference host, guarded by `Authorization: Bearer <ADMIN_TOKEN>`; answers 404 when ADMIN_TOKEN is not configured.")
{}
