/**
 * Access tokens as JWTs signed with HS256 by `jose`. The algorithm is pinned on both sides, so a
 * token claiming `none` or another algorithm is refused; times come from the real clock
 * (`core/clock/RealClock.ts`: the Effect `Clock` under any shop's test-clock shift).
 *
 * Keys rotate without logging anyone out: tokens are signed with the current key and carry its
 * `kid` (derived from the key: the first 16 hex digits of its SHA-256), and verification accepts
 * the current key and any previous one, picked by `kid`. A key shorter than `minimumKeyBytes` or
 * made of fewer than `minimumDistinctCharacters` distinct characters is refused when the layer is
 * built. A token must carry `iat` and `exp`, and one whose `exp - iat` exceeds the access token
 * lifetime (`accessTokenTtlSeconds`, one hour) is refused whatever its signature.
 */
import { Effect, Layer, Redacted } from "effect"
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from "jose"
import { createHash } from "node:crypto"
import { accessTokenTtlSeconds } from "../../core/auth/Auth.ts"
import { realMillis } from "../../core/clock/RealClock.ts"
import { environments } from "../../core/Environment.ts"
import { type AccessClaims, TokenExpired, TokenInvalid, TokenSigner } from "../../core/ports/TokenSigner.ts"

const algorithm = "HS256"
const issuer = "payment-orchestration-engine"
const audience = "api"
const verifiedKept = 10_000
/** Clock skew tolerated on `iat` (a token issued in the future by more than this is refused). */
const skewSeconds = 60

/** The floor on a signing key: 32 bytes (256 bits, HS256's own size) ... */
export const minimumKeyBytes = 32
/** ... of at least this many distinct characters (`aaaa…` is 32 bytes and no secret). */
export const minimumDistinctCharacters = 8

/** The signing key and the previous ones still accepted (a rotation: new first, old kept a token lifetime). */
export interface JwtKeys {
  readonly current: Redacted.Redacted<string>
  readonly previous?: ReadonlyArray<Redacted.Redacted<string>> | undefined
}

/** Why a key is too weak to sign tokens, or undefined when it is strong enough. */
export const keyWeakness = (key: string): string | undefined => {
  if (new TextEncoder().encode(key).length < minimumKeyBytes) return `shorter than ${minimumKeyBytes} bytes`
  if (new Set(key).size < minimumDistinctCharacters) return `fewer than ${minimumDistinctCharacters} distinct characters`
  return undefined
}

/** The `kid` of a key: not secret (a hash prefix of a 256-bit key), stable across restarts and replicas. */
export const keyId = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 16)

const importKey = (secret: Redacted.Redacted<string>) =>
  Effect.promise(() =>
    crypto.subtle.importKey("raw", new TextEncoder().encode(Redacted.value(secret)), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
  )

export const layer = (keys: Redacted.Redacted<string> | JwtKeys) =>
  Layer.effect(TokenSigner, Effect.gen(function*() {
    const { current, previous = [] } = Redacted.isRedacted(keys) ? { current: keys } : keys
    const all = [current, ...previous]
    for (const [i, secret] of all.entries()) {
      const weakness = keyWeakness(Redacted.value(secret))
      if (weakness !== undefined) {
        return yield* Effect.die(new Error(`The ${i === 0 ? "JWT signing key" : `previous JWT key number ${i}`} is too weak: ${weakness}`))
      }
    }
    // Imported once: handing jose the raw bytes makes it import a key on every call.
    const byKid = new Map<string, CryptoKey>()
    for (const secret of all) {
      const kid = keyId(Redacted.value(secret))
      if (!byKid.has(kid)) byKid.set(kid, yield* importKey(secret))
    }
    const currentKid = keyId(Redacted.value(current))
    const signingKey = byKid.get(currentKid)!
    /** Tokens whose signature and claims were checked, oldest first (at most `verifiedKept`). */
    const verified = new Map<string, { readonly claims: AccessClaims; readonly expiresAtMs: number }>()

    const keyFor = (token: string): CryptoKey | undefined => {
      try {
        const kid = decodeProtectedHeader(token).kid
        // A token minted before keys carried a kid was signed with the key of its day: the current one.
        return kid === undefined ? signingKey : byKid.get(kid)
      } catch {
        return undefined
      }
    }

    return TokenSigner.of({
      sign: (claims, expiresInSeconds) =>
        Effect.flatMap(realMillis, (ms) => {
          const iat = Math.floor(ms / 1000)
          return Effect.promise(() =>
            new SignJWT({ ver: claims.credentialVersion, fam: claims.familyId, mid: claims.merchantId, env: claims.environment, typ: "access" })
              .setProtectedHeader({ alg: algorithm, typ: "JWT", kid: currentKid })
              .setSubject(claims.credentialId)
              .setIssuer(issuer)
              .setAudience(audience)
              .setIssuedAt(iat)
              .setExpirationTime(iat + Math.min(expiresInSeconds, accessTokenTtlSeconds))
              .sign(signingKey)
          )
        }),
      verify: (token) =>
        Effect.flatMap(realMillis, (ms) => {
          // A token verified before is the same bytes under the same key: only its expiry can change.
          const known = verified.get(token)
          if (known !== undefined) {
            return known.expiresAtMs > ms ? Effect.succeed(known.claims) : Effect.fail(new TokenExpired())
          }
          const key = keyFor(token)
          if (key === undefined) return Effect.fail(new TokenInvalid({ message: "unknown signing key" }))
          return Effect.tryPromise({
            try: () =>
              jwtVerify(token, key, { algorithms: [algorithm], issuer, audience, requiredClaims: ["exp", "iat"], currentDate: new Date(ms) }),
            catch: (e) =>
              e instanceof errors.JWTExpired ? new TokenExpired() : new TokenInvalid({ message: e instanceof Error ? e.message : String(e) })
          }).pipe(
            Effect.flatMap(({ payload }) => {
              const env = environments.find((e) => e === payload["env"])
              const { exp, iat } = payload
              if (typeof exp !== "number" || typeof iat !== "number" || exp - iat > accessTokenTtlSeconds || iat > ms / 1000 + skewSeconds) {
                return Effect.fail(new TokenInvalid({ message: "the token lives longer than an access token may" }))
              }
              return typeof payload.sub === "string" && typeof payload["ver"] === "number" && typeof payload["fam"] === "string" &&
                  typeof payload["mid"] === "string" && env !== undefined && payload["typ"] === "access"
                ? Effect.sync(() => {
                  const claims = {
                    credentialId: payload.sub as string,
                    credentialVersion: payload["ver"] as number,
                    familyId: payload["fam"] as string,
                    merchantId: payload["mid"] as string,
                    environment: env
                  }
                  if (verified.size >= verifiedKept) verified.delete(verified.keys().next().value!)
                  verified.set(token, { claims, expiresAtMs: exp * 1000 })
                  return claims
                })
                : Effect.fail(new TokenInvalid({ message: "unexpected claims" }))
            })
          )
        })
    })
  }))

export const JoseTokenSigner = { layer, keyId, keyWeakness }
