/** The merchant's developer tools: rotating its own keys and reading its recent requests. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { permissions } from "../../../core/auth/Permissions.ts"
import { IssuedKeyPair } from "./AdminApi.ts"
import { Environment, IsoDateTime, NoFields, Text } from "./Fields.ts"
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

const Permission = Schema.Literals(permissions).annotate({
  description: "A resource and an access: `payments:read`, `payments:write` (write includes read). The operation-by-operation matrix is in the merchant guide, \"Restricted keys\"."
})

export const RestrictedKeyView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  environment: Environment,
  scope: Schema.Literals(["shop", "merchant"]),
  permissions: Schema.Array(Permission),
  secretKey: Schema.String.annotate({ description: "Masked (`rk_test_…a1B2`), except in the answer that creates it" }),
  createdAt: IsoDateTime,
  revokedAt: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "RestrictedKey" })

const NewRestrictedKey = Schema.Struct({
  name: Text(100).annotate({ description: "Yours, to tell the key apart (\"warehouse reads payments\")" }),
  permissions: Schema.Array(Permission).check(Schema.isMinLength(1))
}).annotate({ identifier: "NewRestrictedKey" })

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
    HttpApiEndpoint.post("createRestrictedKey", "/me/restricted-keys", {
      payload: NewRestrictedKey,
      success: RestrictedKeyView.pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "Creates a restricted key: a secret (`rk_test_...`/`rk_live_...`) that calls only the operations its permissions cover, in the calling " +
        "key's environment and scope (its shop, or merchant-wide). Use it as the bearer, as a secret key; it mints no access token. Any other " +
        "operation answers 403 permission_denied with `details.needed`. The secret is shown once, here, and stored only as a hash. Only a full " +
        "secret key (or an access token of its pair) manages keys: a restricted key calling this is refused."
    ),
    HttpApiEndpoint.get("listRestrictedKeys", "/me/restricted-keys", {
      success: Schema.Struct({ data: Schema.Array(RestrictedKeyView) })
    }).annotate(OpenApi.Description, "The active restricted keys of the environment that cover the calling shop, oldest first, secrets masked."),
    HttpApiEndpoint.delete("revokeRestrictedKey", "/me/restricted-keys/:id", {
      params: { id: Text(64) },
      success: RestrictedKeyView
    }).annotate(
      OpenApi.Description,
      "Revokes a restricted key at once, on every replica: its next call is 401 token_revoked. Revoking one already revoked answers it again; " +
        "another merchant's or environment's key, or a key pair's id, is 404."
    ),
    HttpApiEndpoint.get("requests", "/me/requests", {
      success: Schema.Struct({ data: Schema.Array(LoggedRequestView) })
    }).annotate(
      OpenApi.Description,
      "The last 100 authenticated API requests of the calling shop in this environment, newest first: method, path (never the query), status, " +
        "request id, time and duration; not the request that reads them. Kept in the store, shared by every replica of the host and across " +
        "restarts (a line reaches the other replicas within a tenth of a second)."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Developers")
  .pipe(withErrors({
    keys: secretKey,
    rotateKeys: secretKey,
    createRestrictedKey: secretKey,
    listRestrictedKeys: secretKey,
    revokeRestrictedKey: secretKey,
    requests: secretKey
  }))
{}
