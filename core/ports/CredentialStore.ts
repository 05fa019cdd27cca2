import { Context, type DateTime, type Effect, type Option } from "effect"
import type { Credential, RefreshToken } from "../auth/Credential.ts"

/** API key pairs and refresh tokens. Lookups are by unique index on the public key or the hash. */
export class CredentialStore extends Context.Service<CredentialStore, {
  readonly insert: (credential: Credential) => Effect.Effect<void>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Credential>>
  readonly findByPublishableKey: (publishableKey: string) => Effect.Effect<Option.Option<Credential>>
  readonly findBySecretHash: (secretHash: string) => Effect.Effect<Option.Option<Credential>>
  /** Credentials not revoked whose scope covers the shop: bound to it, or merchant-wide. */
  readonly listActiveForShop: (merchantId: string, shopId: string) => Effect.Effect<ReadonlyArray<Credential>>
  /** Revokes the given credentials that are still active; answers how many it revoked. */
  readonly revoke: (ids: ReadonlyArray<string>, at: DateTime.Utc) => Effect.Effect<number>

  readonly insertRefreshToken: (token: RefreshToken) => Effect.Effect<void>
  readonly findRefreshToken: (tokenHash: string) => Effect.Effect<Option.Option<RefreshToken>>
  /**
   * Marks a token used if it is neither used nor revoked; false when another redemption won.
   * This guarded update is what makes two racing refreshes yield one new pair.
   */
  readonly markRefreshTokenUsed: (id: string, at: DateTime.Utc) => Effect.Effect<boolean>
  /** Revokes every token of the family; answers how many it revoked. */
  readonly revokeRefreshFamily: (familyId: string, at: DateTime.Utc) => Effect.Effect<number>
  /** Whether the family (one login) was revoked: its access tokens stop working too. */
  readonly isFamilyRevoked: (familyId: string) => Effect.Effect<boolean>
}>()("core/ports/CredentialStore") {}
