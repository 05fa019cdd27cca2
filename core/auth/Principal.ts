import { Context } from "effect"
import type { Environment } from "../Environment.ts"
import type { Merchant, Shop } from "../tenancy/Merchant.ts"
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
  /**
   * The shop the request acts on unless it names another (the credential's bound shop, else the
   * merchant's first), read with the credential; null when the merchant has no shop.
   */
  readonly shop: Shop | null
  /** That shop's sandbox clock offset in ms, read with the credential (0 in production). */
  readonly clockOffsetMs: number
}

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("core/auth/CurrentPrincipal") {}
