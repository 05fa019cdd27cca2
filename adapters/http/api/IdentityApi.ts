import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Tier } from "../../../core/tenancy/Merchant.ts"
import { Environment, IsoDateTime, MerchantRef } from "./Fields.ts"
import { AnyKey, SecretKey } from "./Security.ts"

export const PingResult = Schema.Struct({
  ok: Schema.Boolean,
  environment: Environment,
  keyKind: Schema.Literals(["secret", "publishable"]),
  keyId: Schema.String.annotate({ description: "The key behind the call, masked" }),
  apiVersion: Schema.String,
  merchant: MerchantRef,
  timestamp: IsoDateTime
}).annotate({ identifier: "Ping" })

export const MerchantIdentity = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  industry: Schema.String,
  tier: Tier,
  trustScore: Schema.Int.annotate({ description: "0 to 1000" }),
  environment: Environment,
  capabilities: Schema.Struct({
    checkout: Schema.Boolean,
    directCharge: Schema.Boolean,
    refunds: Schema.Boolean,
    webhooks: Schema.Boolean,
    crypto: Schema.Array(Schema.String),
    methods: Schema.Array(Schema.String)
  }).annotate({ description: "What this merchant can use on this deployment now" })
}).annotate({ identifier: "MerchantIdentity" })

export class PingApi extends HttpApiGroup.make("ping")
  .add(
    HttpApiEndpoint.get("ping", "/ping", { success: PingResult })
      .annotate(OpenApi.Description, "Checks a key (any key, publishable included). No side effects.")
  )
  .middleware(AnyKey)
  .annotate(OpenApi.Title, "Health")
{}

export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/me", { success: MerchantIdentity })
      .annotate(OpenApi.Description, "The calling merchant (secret key).")
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Identity")
{}
