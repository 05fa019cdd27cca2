/**
 * The three ways a request is authorised: a secret key or access token (`SecretKey`), any key
 * including a publishable one (`AnyKey`), and the operator's admin token (`AdminToken`).
 */
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { CurrentPrincipal } from "../../../core/auth/Principal.ts"
import { ApiErrorResponses } from "./Errors.ts"

export class SecretKey extends HttpApiMiddleware.Service<SecretKey, { provides: CurrentPrincipal }>()(
  "adapters/http/SecretKey",
  { security: { bearer: HttpApiSecurity.bearer }, error: ApiErrorResponses }
) {}

export class AnyKey extends HttpApiMiddleware.Service<AnyKey, { provides: CurrentPrincipal }>()(
  "adapters/http/AnyKey",
  { security: { bearer: HttpApiSecurity.bearer }, error: ApiErrorResponses }
) {}

export class AdminToken extends HttpApiMiddleware.Service<AdminToken>()(
  "adapters/http/AdminToken",
  { security: { adminBearer: HttpApiSecurity.bearer }, error: ApiErrorResponses }
) {}
