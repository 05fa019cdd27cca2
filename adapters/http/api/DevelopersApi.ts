/** The merchant's developer tools: rotating its own keys and reading its recent requests. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { IssuedKeyPair } from "./AdminApi.ts"
import { Environment, IsoDateTime, NoFields } from "./Fields.ts"
import { SecretKey } from "./Security.ts"
import { secretKey, withErrors } from "./EndpointErrors.ts"

export const LoggedRequestView = Schema.Struct({
  requestId: Schema.String.annotate({ description: "As sent back in `X-Request-Id` and in error envelopes" }),
  method: Schema.String,
  path: Schema.String.annotate({ description: "Without the query string" }),
  status: Schema.Int,
  durationMs: Schema.Finite,
  at: IsoDateTime.annotate({ description: "When the request arrived (real time)" })
}).annotate({ identifier: "LoggedRequest" })

export const KeysView = Schema.Struct({
  keyId: Schema.String,
  environment: Environment,
  scope: Schema.Literals(["shop", "merchant"]),
  version: Schema.Int,
  publishableKey: Schema.String,
  secretKey: Schema.String.annotate({ description: "Masked (`sk_test_…a1B2`): the secret is never shown again after it is issued" }),
  createdAt: IsoDateTime
}).annotate({ identifier: "KeyPairInUse" })

export class DevelopersApi extends HttpApiGroup.make("developers")
  .add(
    HttpApiEndpoint.get("keys", "/me/keys", { success: KeysView })
      .annotate(OpenApi.Description, "The key pair behind the call (an access token's is the pair it was minted from): its publishable key and its secret key masked."),
    HttpApiEndpoint.post("rotateKeys", "/me/keys/rotate", {
      payload: NoFields,
      success: Schema.Struct({
        revoked: Schema.Int.annotate({ description: "How many key pairs were revoked" }),
        keys: IssuedKeyPair
      })
    }).annotate(
      OpenApi.Description,
      "Rotates the key pair behind the call (a secret key, or the pair an access token was minted from): that pair is revoked, with every " +
        "access and refresh token minted from it, and one new pair of the same scope (bound to the same shop, or merchant-wide) is issued at the " +
        "next version. No other pair is touched: revoking another key of the shop or the merchant is the operator's `POST " +
        "/admin/v1/shops/{shopId}/rotate-keys`. The new secret key is shown once, here, and stored only as a hash. The credential that made the " +
        "call stops working at once: a repeated call with it is refused (401), so it cannot rotate twice."
    ),
    HttpApiEndpoint.get("requests", "/me/requests", {
      success: Schema.Struct({ data: Schema.Array(LoggedRequestView) })
    }).annotate(
      OpenApi.Description,
      "The last 100 authenticated API requests of the calling shop in this environment, newest first: method, path (never the query), status, " +
        "request id, time and duration; not the request that reads them. Kept in memory by each host replica: behind a load balancer each " +
        "replica answers the requests it served, and a restart empties it."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Developers")
  .pipe(withErrors({
    keys: secretKey,
    rotateKeys: secretKey,
    requests: secretKey
  }))
{}
