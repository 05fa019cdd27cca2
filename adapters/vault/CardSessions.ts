/**
 * A card session: what a merchant's server tokenizes a card with at the vault
 * (`POST {vaultUrl}/v1/cards` with the session as its bearer). An HS256 JWT signed with
 * `VAULT_SESSION_SECRET`, which only the engine and the vault hold: `{ sub: merchantId, aud:
 * "vault", scope: "tokenize", iat, exp: iat + 15 min }`. It carries no card and no secret.
 */
import { Effect, Redacted } from "effect"
import { SignJWT } from "jose"
import { realMillis } from "../../core/clock/RealClock.ts"

/** How long a card session may be used. */
export const cardSessionTtlSeconds = 15 * 60

export interface CardSession {
  readonly vaultUrl: string
  readonly token: string
  readonly expiresAt: Date
}

/**
 * A session for `merchantId` at the vault `vaultUrl`, at real time (a shop's sandbox clock does not reach the vault).
 * `page`: the hosted checkout's card step, whose vault card page answers 303 to `returnUrl` with the card's token.
 */
export const issueCardSession = (
  options: { readonly vaultUrl: string; readonly sessionSecret: Redacted.Redacted<string> },
  merchantId: string,
  page?: { readonly returnUrl: string; readonly ttlSeconds: number }
) =>
  Effect.gen(function*() {
    const iat = Math.floor((yield* realMillis) / 1000)
    const exp = iat + (page?.ttlSeconds ?? cardSessionTtlSeconds)
    const token = yield* Effect.promise(() =>
      new SignJWT({ scope: "tokenize", ...(page === undefined ? {} : { returnUrl: page.returnUrl }) })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(merchantId)
        .setAudience("vault")
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(Redacted.value(options.sessionSecret)))
    )
    return { vaultUrl: options.vaultUrl, token, expiresAt: new Date(exp * 1000) } satisfies CardSession
  })
