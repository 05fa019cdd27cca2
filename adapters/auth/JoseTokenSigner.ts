/**
 * Access tokens as JWTs signed with HS256 by `jose`. The algorithm is pinned on both sides, so a
 * token claiming `none` or another algorithm is refused; times come from the Effect `Clock`.
 */
import { Clock, Effect, Layer, Redacted } from "effect"
import { errors, jwtVerify, SignJWT } from "jose"
import { environments } from "../../core/Environment.ts"
import { TokenExpired, TokenInvalid, TokenSigner } from "../../core/ports/TokenSigner.ts"

const algorithm = "HS256"
const issuer = "payment-orchestration-engine"
const audience = "api"

export const layer = (secret: Redacted.Redacted<string>) =>
  Layer.sync(TokenSigner, () => {
    const key = new TextEncoder().encode(Redacted.value(secret))
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
        Effect.flatMap(Clock.currentTimeMillis, (ms) =>
          Effect.tryPromise({
            try: () => jwtVerify(token, key, { algorithms: [algorithm], issuer, audience, currentDate: new Date(ms) }),
            catch: (e) =>
              e instanceof errors.JWTExpired ? new TokenExpired() : new TokenInvalid({ message: e instanceof Error ? e.message : String(e) })
          }).pipe(
            Effect.flatMap(({ payload }) => {
              const env = environments.find((e) => e === payload["env"])
              return typeof payload.sub === "string" && typeof payload["ver"] === "number" && typeof payload["fam"] === "string" &&
                  typeof payload["mid"] === "string" && env !== undefined && payload["typ"] === "access"
                ? Effect.succeed({
                  credentialId: payload.sub,
                  credentialVersion: payload["ver"],
                  familyId: payload["fam"],
                  merchantId: payload["mid"],
                  environment: env
                })
                : Effect.fail(new TokenInvalid({ message: "unexpected claims" }))
            })
          ))
    })
  })

export const JoseTokenSigner = { layer }
