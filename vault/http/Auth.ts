/**
 * The vault's two credentials: the engine's bearer key (`VAULT_ENGINE_KEY`, compared in constant
 * time over SHA-256 digests so neither length nor content leaks), and the short-lived tokenize
 * session the engine mints for a merchant or for the card page (HS256 JWT, `aud: "vault"`,
 * `scope: "tokenize"`, `sub` the merchant).
 */
import { Effect, Redacted, Schema } from "effect"
import { jwtVerify } from "jose"
import { createHash, timingSafeEqual } from "node:crypto"

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

export const bearerOf = (authorization: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")
  return match?.[1]
}

export const isEngineKey = (engineKey: Redacted.Redacted<string>, presented: string | undefined): boolean =>
  presented !== undefined && timingSafeEqual(digest(presented), digest(Redacted.value(engineKey)))

export interface TokenizeSession {
  readonly merchantId: string
  readonly returnUrl: string | undefined
  readonly transactionId: string | undefined
}

export class SessionInvalid extends Schema.TaggedError<SessionInvalid>()("SessionInvalid", {
  message: Schema.String
}) {}

/** Verifies a session JWT against the clock (jose reads the system clock; `nowMs` lets a test pin it). */
export const verifySession = (secret: Redacted.Redacted<string>, jwt: string | undefined, nowMs?: number) =>
  Effect.tryPromise({
    try: async () => {
      if (jwt === undefined || jwt === "") throw new Error("missing")
      const { payload } = await jwtVerify(jwt, new TextEncoder().encode(Redacted.value(secret)), {
        algorithms: ["HS256"],
        audience: "vault",
        requiredClaims: ["sub", "exp"],
        ...(nowMs === undefined ? {} : { currentDate: new Date(nowMs) })
      })
      if (payload["scope"] !== "tokenize" || typeof payload.sub !== "string" || payload.sub === "") throw new Error("scope")
      const returnUrl = typeof payload["returnUrl"] === "string" ? payload["returnUrl"] : undefined
      const transactionId = typeof payload["transactionId"] === "string" ? payload["transactionId"] : undefined
      return { merchantId: payload.sub, returnUrl, transactionId } satisfies TokenizeSession
    },
    catch: () => new SessionInvalid({ message: "the tokenize session is missing, expired or not the vault's" })
  })
