/**
 * The three ways a request is authorised: a secret key or access token (`SecretKey`), any key
 * including a publishable one (`AnyKey`), and the operator's admin token (`AdminToken`).
 *
 * The scheme is written `bearer`: HTTP compares scheme names case-insensitively (RFC 9110 11.1,
 * and the server accepts `Bearer` or `bearer`), but OpenAPI tools compare the lower-case name;
 * the reference page, given `Bearer`, fell back to HTTP Basic in its samples.
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { CurrentPrincipal } from "../../../core/auth/Principal.ts"
import { ApiErrorResponses } from "./Errors.ts"

const bearer = HttpApiSecurity.http({ scheme: "bearer" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "An access token from `POST /api/v1/auth/token` (or, legacy, a raw secret key): `Authorization: Bearer <accessToken>`. " +
      "Sandbox keys start `pk_test_`/`sk_test_`, production keys `pk_live_`/`sk_live_`."
  )
)

const adminBearer = HttpApiSecurity.http({ scheme: "bearer" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "The host's `ADMIN_TOKEN`: `Authorization: Bearer <ADMIN_TOKEN>`. A wrong token takes from the client address's allowance of " +
      "`POST /api/v1/auth/token` (30 a minute by default); once it is spent, every token from the address is `429 rate_limited` until the reset."
  )
)

export class SecretKey extends HttpApiMiddleware.Service<SecretKey, { provides: CurrentPrincipal }>()(
  "adapters/http/SecretKey",
  { security: { bearer }, error: ApiErrorResponses }
) {}

export class AnyKey extends HttpApiMiddleware.Service<AnyKey, { provides: CurrentPrincipal }>()(
  "adapters/http/AnyKey",
  { security: { bearer }, error: ApiErrorResponses }
) {}

export class AdminToken extends HttpApiMiddleware.Service<AdminToken>()(
  "adapters/http/AdminToken",
  { security: { adminBearer }, error: ApiErrorResponses }
) {}
