import { Context, type Effect, type Option } from "effect"
import type { Credential } from "../auth/Credential.ts"
import type { Merchant, Shop } from "../tenancy/Merchant.ts"

/** How a request's bearer names its credential: an access token's claims, or a raw key. */
export type AccessLookup =
  | { readonly credentialId: string; readonly familyId: string }
  | { readonly secretHash: string }
  | { readonly publishableKey: string }

/** Everything authenticating one request needs, read together. */
export interface Access {
  readonly credential: Credential
  readonly merchant: Merchant
  /** The shop the credential acts on unless a request names another: its bound shop, else the merchant's first. */
  readonly shop: Shop | null
  /** That shop's sandbox clock offset in ms (0 in production and for a clock that never moved). */
  readonly clockOffsetMs: number
  /** For an access token: whether its login (refresh family) was revoked. */
  readonly familyRevoked: boolean
}

/**
 * The read behind authentication: a credential with its merchant, its default shop and that
 * shop's clock, in one lookup (one statement on SQL), so an authenticated request starts with
 * one round trip and still sees a rotation or a revocation at once, on every replica.
 */
export class AccessStore extends Context.Service<AccessStore, {
  readonly find: (lookup: AccessLookup) => Effect.Effect<Option.Option<Access>>
}>()("core/ports/AccessStore") {}
