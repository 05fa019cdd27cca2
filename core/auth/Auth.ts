/**
 * Authentication (spec section 5): key pair -> token pair, refresh with rotation and reuse
 * detection (a reused refresh token revokes its whole login: every refresh and access token of
 * its family), and resolving any bearer value (access token, raw secret key, publishable key)
 * to the calling `Principal`.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { type Access, type AccessLookup, AccessStore } from "../ports/AccessStore.ts"
import { CredentialStore } from "../ports/CredentialStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { TokenSigner } from "../ports/TokenSigner.ts"
import { Transactions } from "../ports/Transactions.ts"
import { maskKey, safeEqual, secretHasher } from "../Secrets.ts"
import type { Merchant } from "../tenancy/Merchant.ts"
import type { Credential, RefreshToken } from "./Credential.ts"
import type { Principal } from "./Principal.ts"

export const accessTokenTtlSeconds = 3600
export const refreshTokenTtlSeconds = 30 * 24 * 3600

export interface TokenPair {
  readonly accessToken: string
  readonly refreshToken: string
  readonly tokenType: "Bearer"
  readonly expiresIn: number
  readonly refreshExpiresIn: number
  readonly environment: Environment
  readonly merchant: { readonly id: string; readonly name: string }
}

const environmentOfKey = (key: string): Environment | undefined =>
  /^(?:pk|sk|rk|rt)_test_/.test(key) ? "sandbox" : /^(?:pk|sk|rk|rt)_live_/.test(key) ? "production" : undefined

const authFailed = (message: string) => apiError("authentication_failed", message)

export class Auth extends Context.Service<Auth, {
  /** POST /auth/token: a same-environment publishable + secret pair for a token pair. */
  readonly exchange: (apiKey: string, secretKey: string) => Effect.Effect<TokenPair, ApiErrorOf<"authentication_failed">>
  /** POST /auth/refresh: redeems a refresh token once for a new pair. */
  readonly refresh: (refreshToken: string) => Effect.Effect<TokenPair, ApiErrorOf<"authentication_failed">>
  /** Resolves the bearer value of a business request. */
  /** A new login's token pair for a credential the caller has checked (a team member's sign-in, `core/team/`). */
  readonly issueFor: (credential: Credential) => Effect.Effect<TokenPair>
  readonly authenticate: (bearer: string) => Effect.Effect<Principal, ApiErrorOf<"invalid_api_key" | "token_expired" | "token_revoked">>
}>()("core/auth/Auth") {
  static readonly layer = Layer.effect(
    Auth,
    Effect.gen(function*() {
      const ids = yield* Ids
      const tenancy = yield* TenancyStore
      const credentials = yield* CredentialStore
      const accesses = yield* AccessStore
      const signer = yield* TokenSigner
      const tx = yield* Transactions
      const hash = yield* secretHasher

      const merchantOf = (credential: Credential) =>
        tenancy.findMerchant(credential.merchantId).pipe(
          Effect.flatMap(Option.match({
            // A credential always has its merchant; a missing one is a broken store.
            onNone: () => Effect.die(new Error(`credential ${credential.id} has no merchant`)),
            onSome: (m): Effect.Effect<Merchant> => Effect.succeed(m)
          }))
        )

      const issuePair = Effect.fnUntraced(function*(credential: Credential, familyId: string) {
        const merchant = yield* merchantOf(credential)
        const createdAt = yield* DateTime.now
        const accessToken = yield* signer.sign({
          credentialId: credential.id,
          credentialVersion: credential.version,
          familyId,
          merchantId: credential.merchantId,
          environment: credential.environment
        }, accessTokenTtlSeconds)
        const refreshToken = yield* ids.secret(`rt_${credential.environment === "sandbox" ? "test" : "live"}_`, 32)
        const record: RefreshToken = {
          id: yield* ids.next("refreshToken"),
          tokenHash: yield* hash(refreshToken),
          familyId,
          credentialId: credential.id,
          credentialVersion: credential.version,
          expiresAt: DateTime.add(createdAt, { seconds: refreshTokenTtlSeconds }),
          usedAt: null,
          revokedAt: null,
          createdAt
        }
        yield* credentials.insertRefreshToken(record)
        return {
          accessToken,
          refreshToken,
          tokenType: "Bearer",
          expiresIn: accessTokenTtlSeconds,
          refreshExpiresIn: refreshTokenTtlSeconds,
          environment: credential.environment,
          merchant: { id: merchant.id, name: merchant.name }
        } satisfies TokenPair
      })

      const exchange = Effect.fn("Auth.exchange")(function*(apiKey: string, secretKey: string) {
        const publicEnv = environmentOfKey(apiKey)
        const secretEnv = environmentOfKey(secretKey)
        if (publicEnv === undefined || !apiKey.startsWith("pk_")) return yield* authFailed("apiKey must be a publishable key (pk_test_ or pk_live_)")
        if (secretEnv === undefined || !secretKey.startsWith("sk_")) return yield* authFailed("secretKey must be a secret key (sk_test_ or sk_live_)")
        if (publicEnv !== secretEnv) return yield* authFailed("apiKey and secretKey belong to different environments")
        const credential = yield* credentials.findByPublishableKey(apiKey)
        const secretHash = yield* hash(secretKey)
        if (Option.isNone(credential) || !safeEqual(credential.value.secretHash, secretHash)) {
          return yield* authFailed("The key pair is not valid")
        }
        if (credential.value.revokedAt !== null) return yield* authFailed("The key pair was revoked")
        return yield* tx.run(issuePair(credential.value, yield* ids.next("refreshFamily")))
      })

      const refresh = Effect.fn("Auth.refresh")(function*(refreshToken: string) {
        const found = yield* credentials.findRefreshToken(yield* hash(refreshToken))
        if (Option.isNone(found)) return yield* authFailed("The refresh token is not valid")
        const token = found.value
        const at = yield* DateTime.now
        if (token.revokedAt !== null) return yield* authFailed("The refresh token was revoked")
        if (token.usedAt !== null) {
          yield* credentials.revokeRefreshFamily(token.familyId, at)
          return yield* authFailed("The refresh token was already used; every token of its login is now revoked")
        }
        if (DateTime.isLessThanOrEqualTo(token.expiresAt, at)) return yield* authFailed("The refresh token has expired")
        const credential = yield* credentials.findById(token.credentialId)
        if (Option.isNone(credential) || credential.value.revokedAt !== null || credential.value.version !== token.credentialVersion) {
          return yield* authFailed("The key pair behind this refresh token was rotated")
        }
        const result = yield* tx.run(Effect.gen(function*() {
          // The guarded update decides a race between two redemptions of one token.
          if (!(yield* credentials.markRefreshTokenUsed(token.id, at))) return Option.none<TokenPair>()
          return Option.some(yield* issuePair(credential.value, token.familyId))
        }))
        if (Option.isNone(result)) {
          yield* credentials.revokeRefreshFamily(token.familyId, at)
          return yield* authFailed("The refresh token was already used; every token of its login is now revoked")
        }
        return result.value
      })

      const principal = (access: Access, keyKind: Principal["keyKind"], keyId: string): Principal => ({
        merchant: access.merchant,
        credential: access.credential,
        environment: access.credential.environment,
        keyKind,
        keyId,
        shop: access.shop,
        clockOffsetMs: access.clockOffsetMs
      })

      /** How the caller is named (audit log, errors): the key masked, or a team member's email. */
      const maskedSecret = (credential: Credential) =>
        credential.userId !== null
          ? `member ${credential.name ?? credential.userId}`
          : `${credential.permissions === null ? "sk" : "rk"}_${credential.environment === "sandbox" ? "test" : "live"}_…${credential.secretLast4}`

      /** A raw API key: one lookup of the key with its merchant and shop. */
      const byKey = Effect.fnUntraced(function*(bearer: string, lookup: AccessLookup, keyKind: Principal["keyKind"]) {
        const access = yield* accesses.find(lookup)
        if (Option.isNone(access)) return yield* apiError("invalid_api_key", `Invalid API key ${maskKey(bearer)}`)
        if (access.value.credential.revokedAt !== null) return yield* apiError("token_revoked", "This API key was rotated or revoked")
        return principal(access.value, keyKind, keyKind === "secret" ? maskedSecret(access.value.credential) : maskKey(bearer))
      })

      const authenticate = Effect.fn("Auth.authenticate")(function*(bearer: string) {
        if (bearer.startsWith("rt_")) {
          return yield* apiError("invalid_api_key", "A refresh token is redeemable only at POST /auth/refresh")
        }
        // A restricted key is a secret like a pair's; its permissions come with its credential.
        if (bearer.startsWith("sk_") || bearer.startsWith("rk_")) return yield* byKey(bearer, { secretHash: yield* hash(bearer) }, "secret")
        if (bearer.startsWith("pk_")) return yield* byKey(bearer, { publishableKey: bearer }, "publishable")
        const claims = yield* signer.verify(bearer).pipe(
          Effect.catchTags({
            TokenExpired: () => Effect.fail(apiError("token_expired", "The access token has expired")),
            TokenInvalid: () => Effect.fail(apiError("invalid_api_key", "The bearer value is not a valid access token or API key"))
          })
        )
        // One read: the credential's version (rotation revokes at once, on every replica), its
        // login's revocation, its merchant and default shop.
        const access = yield* accesses.find({ credentialId: claims.credentialId, familyId: claims.familyId })
        if (
          Option.isNone(access) || access.value.credential.revokedAt !== null ||
          access.value.credential.version !== claims.credentialVersion
        ) {
          return yield* apiError("token_revoked", "The key pair behind this token was rotated; get a new token")
        }
        if (access.value.familyRevoked) {
          return yield* apiError("token_revoked", "This login was revoked (a used refresh token was presented again); get a new token")
        }
        return principal(access.value, "secret", maskedSecret(access.value.credential))
      })

      const issueFor = (credential: Credential) => Effect.flatMap(ids.next("refreshFamily"), (family) => tx.run(issuePair(credential, family)))

      return Auth.of({ exchange, refresh, issueFor, authenticate })
    })
  )
}
