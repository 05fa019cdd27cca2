import { Context, type Effect, Schema } from "effect"
import type { Environment } from "../Environment.ts"

/** What an access token says: which credential, at which version, in which environment. */
export interface AccessClaims {
  /** The credential the token was minted from. */
  readonly credentialId: string
  readonly credentialVersion: number
  /** The login (refresh token family) it belongs to: reusing a refresh token revokes it. */
  readonly familyId: string
  readonly merchantId: string
  readonly environment: Environment
}

export class TokenInvalid extends Schema.TaggedError<TokenInvalid>()("TokenInvalid", {
  message: Schema.String
}) {}

export class TokenExpired extends Schema.TaggedError<TokenExpired>()("TokenExpired", {}) {}

/**
 * Signs and verifies access tokens (JWTs in the reference host). The signer pins its algorithm;
 * `verify` reads the current time from the Effect `Clock`.
 */
export class TokenSigner extends Context.Service<TokenSigner, {
  readonly sign: (claims: AccessClaims, expiresInSeconds: number) => Effect.Effect<string>
  readonly verify: (token: string) => Effect.Effect<AccessClaims, TokenInvalid | TokenExpired>
}>()("core/ports/TokenSigner") {}
