/**
 * Security codes, held only in this process's memory for a few minutes (one authorization), never
 * in the store or a log. Expiry reads Effect's `Clock`, so tests drive it with `TestClock`. The
 * first forward that uses a code binds it to its purpose (one payment), whose later forwards use
 * it again until it expires; any other forward finds it gone (`securityCodeUse`).
 */
import { Clock, Context, Duration, Effect, Layer, Redacted } from "effect"
import { securityCodeUse } from "../../core/ports/CardVault.ts"

export class SecurityCodes extends Context.Service<SecurityCodes, {
  readonly put: (token: string, code: string) => Effect.Effect<void>
  /** Whether a new payment may use the code: held, and not yet bound to another payment. */
  readonly held: (token: string) => Effect.Effect<boolean>
  /**
   * The code for a forward of `purpose`; undefined when it expired or another purpose used it.
   * Without a purpose the code is dropped from memory as it is handed out.
   */
  readonly use: (token: string, purpose: string | undefined) => Effect.Effect<Redacted.Redacted<string> | undefined>
}>()("vault/cards/SecurityCodes") {
  static readonly defaultTtl = Duration.minutes(10)

  static readonly layer = (ttl: Duration.Input = SecurityCodes.defaultTtl) =>
    Layer.sync(SecurityCodes, () => {
      const ttlMs = Duration.toMillis(Duration.fromInputUnsafe(ttl))
      const codes = new Map<string, {
        readonly code: Redacted.Redacted<string>
        readonly expiresAt: number
        readonly boundTo?: string | undefined
      }>()
      const sweep = (now: number) => {
        for (const [token, entry] of codes) if (entry.expiresAt <= now) codes.delete(token)
      }
      const live = (token: string) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          sweep(now)
          return codes.get(token)
        })
      return SecurityCodes.of({
        put: (token, code) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            sweep(now)
            codes.set(token, { code: Redacted.make(code), expiresAt: now + ttlMs })
          }),
        held: (token) => Effect.map(live(token), (entry) => entry !== undefined && entry.boundTo === undefined),
        use: (token, purpose) =>
          Effect.map(live(token), (entry) => {
            if (entry === undefined) return undefined
            switch (securityCodeUse(entry.boundTo, purpose)) {
              case "gone":
                return undefined
              case "take":
                codes.delete(token)
                return entry.code
              case "bind":
                codes.set(token, { ...entry, boundTo: purpose })
                return entry.code
              case "reuse":
                return entry.code
            }
          })
      })
    })
}
