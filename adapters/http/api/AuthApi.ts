import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Environment, MerchantRef } from "./Fields.ts"
import { withErrors } from "./EndpointErrors.ts"

export const TokenResponse = Schema.Struct({
  accessToken: Schema.String.annotate({ description: "JWT bearer token" }),
  refreshToken: Schema.String.annotate({ description: "Redeemable once, only at POST /auth/refresh" }),
  tokenType: Schema.Literal("Bearer"),
  expiresIn: Schema.Int.annotate({ description: "Seconds; 3600" }),
  refreshExpiresIn: Schema.Int.annotate({ description: "Seconds; 2592000" }),
  environment: Environment,
  merchant: MerchantRef
}).annotate({ identifier: "AccessToken" })

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("token", "/auth/token", {
      payload: Schema.Struct({
        apiKey: Schema.String.annotate({ description: "Publishable key (pk_test_ or pk_live_)" }),
        secretKey: Schema.String.annotate({ description: "Secret key of the same pair and environment" })
      }),
      success: TokenResponse
    }).annotate(OpenApi.Description, "Exchange a key pair of one environment for an access token (3600 s) and a refresh token (30 days). A cross-environment or unknown pair gives 401 authentication_failed."),
    HttpApiEndpoint.post("refresh", "/auth/refresh", {
      payload: Schema.Struct({ refreshToken: Schema.String }),
      success: TokenResponse
    }).annotate(OpenApi.Description, "Redeem a refresh token for a new pair. Each refresh token works once: the used token is invalidated, and presenting an already used token revokes every token of that login (401).")
  )
  .annotate(OpenApi.Title, "Authentication")
  .pipe(withErrors({
    token: ["authentication_failed", "rate_limited"],
    refresh: ["authentication_failed", "rate_limited"]
  }))
{}
