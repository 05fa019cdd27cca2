import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Environment, MerchantRef, Text } from "./Fields.ts"
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
    }).annotate(OpenApi.Description, "Redeem a refresh token for a new pair. Each refresh token works once: the used token is invalidated, and presenting an already used token revokes every token of that login (401)."),
    HttpApiEndpoint.post("signIn", "/auth/sign-in", {
      payload: Schema.Struct({
        email: Text(320),
        password: Text(200),
        code: Text(10).annotate({ description: "The authenticator app's current six-digit code" }),
        environment: Environment
      }),
      success: TokenResponse
    }).annotate(
      OpenApi.Description,
      "A team member signs in (the console does it for them): email, password and a current one-time code give a token pair of the member's credential in " +
        "the environment, acting with their role's permissions. Any mismatch is the same 401 authentication_failed; failures are throttled per address as for /auth/token. " +
        "Removing the member, or changing their role, ends every token of theirs at once."
    ),
    HttpApiEndpoint.post("startSingleSignOn", "/auth/sso/start", {
      payload: Schema.Struct({
        email: Text(320),
        environment: Environment,
        redirectUri: Text(2000).annotate({ description: "Where the identity provider sends the browser back (registered with it): the console's is /console/sso/callback" })
      }),
      success: Schema.Struct({ url: Schema.String.annotate({ description: "The identity provider's authorization URL: send the browser there" }) })
    }).annotate(
      OpenApi.Description,
      "A team member of a merchant with single sign-on signs in at their organisation's identity provider (OpenID Connect, code flow with PKCE). " +
        "The engine keeps the state, nonce and verifier for ten minutes, once. An email with no active member or no provider is the same 401."
    ),
    HttpApiEndpoint.post("finishSingleSignOn", "/auth/sso/callback", {
      payload: Schema.Struct({ callbackUrl: Text(4000).annotate({ description: "The full URL the identity provider sent the browser to (code and state)" }) }),
      success: TokenResponse
    }).annotate(OpenApi.Description, "Redeems the identity provider's answer: its ID token's verified email must be the member's; the answer is the member's token pair, as /auth/sign-in's."),
    HttpApiEndpoint.post("acceptInvitation", "/auth/invitations/accept", {
      payload: Schema.Struct({ token: Text(200), password: Text(200).annotate({ description: "12 to 200 characters" }) }),
      success: Schema.Struct({
        totpSecret: Schema.String.annotate({ description: "Base32: enter it in an authenticator app (shown once; accepting again replaces it)" }),
        otpauthUri: Schema.String.annotate({ description: "The same as an otpauth:// URI" })
      })
    }).annotate(OpenApi.Description, "An invited member sets their password and gets the secret of their authenticator app; the invitation holds until a code confirms it."),
    HttpApiEndpoint.post("confirmInvitation", "/auth/invitations/confirm", {
      payload: Schema.Struct({ token: Text(200), code: Text(10) }),
      success: Schema.Struct({ member: Schema.Struct({ id: Schema.String, email: Schema.String, role: Schema.String }) })
    }).annotate(OpenApi.Description, "A current code of the authenticator proves the enrolment: the member is active and may sign in; the invitation link stops working.")
  )
  .annotate(OpenApi.Title, "Authentication")
  .pipe(withErrors({
    token: ["authentication_failed", "rate_limited"],
    refresh: ["authentication_failed", "rate_limited"],
    signIn: ["authentication_failed", "rate_limited", "team_unavailable"],
    acceptInvitation: ["authentication_failed", "rate_limited", "team_unavailable"],
    startSingleSignOn: ["authentication_failed", "rate_limited", "team_unavailable"],
    finishSingleSignOn: ["authentication_failed", "rate_limited", "team_unavailable"],
    confirmInvitation: ["authentication_failed", "rate_limited", "team_unavailable"]
  }))
{}
