import { Context } from "effect"
import type { Environment } from "../Environment.ts"
import type { Merchant } from "../tenancy/Merchant.ts"
import type { Credential } from "./Credential.ts"

/** Who is calling: resolved from the bearer value on every authenticated request. */
export interface Principal {
  readonly merchant: Merchant
  readonly credential: Credential
  readonly environment: Environment
  /** `secret` for a secret key or an access token minted from a pair; `publishable` otherwise. */
  readonly keyKind: "secret" | "publishable"
  /** The key behind the call, masked (`sk_test_…a1B2`). */
  readonly keyId: string
}

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("core/auth/CurrentPrincipal") {}
