import type { DateTime } from "effect"
import type { Environment } from "../Environment.ts"
import type { Grant } from "./Permissions.ts"

/**
 * An API key pair of one environment, bound to one shop or (shopId null) to every shop of the
 * merchant. The secret half is stored as its SHA-256 only. `version` is the credential version
 * of spec 5.6: rotation revokes the pair and issues a new one at version + 1, and every token
 * carries the version it was minted from. A restricted key (`rk_test_`/`rk_live_`, a secret with
 * no publishable half) is a credential too, with the permissions it was created with.
 */
export interface Credential {
  readonly id: string
  readonly merchantId: string
  readonly shopId: string | null
  readonly environment: Environment
  /** The pair's publishable key; null for a restricted key, which is a secret alone. */
  readonly publishableKey: string | null
  readonly secretHash: string
  /** Last four characters of the secret key, to show it masked. */
  readonly secretLast4: string
  readonly version: number
  readonly revokedAt: DateTime.Utc | null
  readonly createdAt: DateTime.Utc
  /** A restricted key's permissions, or a team member's role's (`Permissions.ts`); null for a full key pair. */
  readonly permissions: ReadonlyArray<Grant> | null
  /** A restricted key's name, as its merchant gave it; null for a key pair. */
  readonly name: string | null
  /**
   * The team member (`core/team/`) this credential signs in: it has no usable secret, only the
   * access tokens a sign-in issues; removing the member revokes it. Null for keys.
   */
  readonly userId: string | null
}

/**
 * A refresh token, stored as its SHA-256. Tokens of one login form a family; redeeming a token
 * marks it used and issues the next member, and redeeming a used one revokes the family
 * (the theft signal of refresh-token rotation).
 */
export interface RefreshToken {
  readonly id: string
  readonly tokenHash: string
  readonly familyId: string
  readonly credentialId: string
  readonly credentialVersion: number
  readonly expiresAt: DateTime.Utc
  readonly usedAt: DateTime.Utc | null
  readonly revokedAt: DateTime.Utc | null
  readonly createdAt: DateTime.Utc
}
