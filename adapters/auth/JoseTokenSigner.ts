/**
 * Access tokens as JWTs signed with HS256 by `jose`. The algorithm is pinned on both sides, so a
 * token claiming `none` or another algorithm is refused; times come from the Effect `Clock`.
 */
import { Clock, Effect, Layer, Redacted } from "effect"
import { errors, jwtVerify, SignJWT } from "jose"
import { environments } from "../../core/Environment.ts"
import { type AccessClaims, TokenExpired, TokenInvalid, TokenSigner } from "../../core/ports/TokenSigner.ts"

const algorithm = "HS256"
const issuer = "payment-orchestration-engine"
const audience = "api"
const verifiedKept = 10_000

export const layer = (secret: Redacted.Redacted<string>) =>
  Layer.effect(TokenSigner, Effect.gen(function*() {
    // Imported once: handing jose the raw bytes makes it import a key on every call.
    const key = yield* Effect.promise(() =>
      crypto.subtle.importKey("raw", new TextEncoder().encode(Redacted.value(secret)), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
    )
    /** Tokens whose signature and claims were checked, oldest first (at most `verifiedKept`). */
    const verified = new Map<string, { readonly claims: AccessClaims; readonly expiresAtMs: number }>()
    return TokenSigner.of({
      sign: (claims, expiresInSeconds) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) => {
          const iat = Math.floor(ms / 1000)
          return Effect.promise(() =>
            new SignJWT({ ver: claims.credentialVersion, fam: claims.familyId, mid: claims.merchantId, env: claims.environment, typ: "access" })
              .setProtectedHeader({ alg: algorithm, typ: "JWT" })
              .setSubject(claims.credentialId)
              .setIssuer(issuer)
              .setAudience(audience)
              .setIssuedAt(iat)
              .setExpirationTime(iat + expiresInSeconds)
              .sign(key)
          )
        }),
      verify: (token) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) => {
          // A token verified before is the same bytes under the same key: only its expiry can change.
          const known = verified.get(token)
          if (known !== undefined) {
            return known.expiresAtMs > ms ? Effect.succeed(known.claims) : Effect.fail(new TokenExpired())
          }
          return Effect.tryPromise({
            try: () => jwtVerify(token, key, { algorithms: [algorithm], issuer, audience, currentDate: new Date(ms) }),
            catch: (e) =>
              e instanceof errors.JWTExpired ? new TokenExpired() : new TokenInvalid({ message: e instanceof Error ? e.message : String(e) })
          }).pipe(
            Effect.flatMap(({ payload }) => {
              const env = environments.find((e) => e === payload["env"])
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
                  verified.set(token, { claims, expiresAtMs: (payload.exp ?? 0) * 1000 })
                  return claims
                })
                : Effect.fail(new TokenInvalid({ message: "unexpected claims" }))
            })
          )
        })
    })
  }))

export const JoseTokenSigner = { layer }
