/**
 * Security codes, held only in this process's memory for a few minutes (one authorization), never
 * in the store or a log. Expiry reads Effect's `Clock`, so tests drive it with `TestClock`. A code
 * is taken (read and dropped) by the first forward that uses it.
 */
import { Clock, Context, Duration, Effect, Layer, Redacted } from "effect"

export class SecurityCodes extends Context.Service<SecurityCodes, {
  readonly put: (token: string, code: string) => Effect.Effect<void>
  readonly held: (token: string) => Effect.Effect<boolean>
  /** The code, dropped from memory as it is handed out; undefined when it expired or was used. */
  readonly take: (token: string) => Effect.Effect<Redacted.Redacted<string> | undefined>
}>()("vault/cards/SecurityCodes") {
  static readonly defaultTtl = Duration.minutes(10)

  static readonly layer = (ttl: Duration.Input = SecurityCodes.defaultTtl) =>
    Layer.sync(SecurityCodes, () => {
      const ttlMs = Duration.toMillis(Duration.fromInputUnsafe(ttl))
      const codes = new Map<string, { readonly code: Redacted.Redacted<string>; readonly expiresAt: number }>()
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
        held: (token) => Effect.map(live(token), (entry) => entry !== undefined),
        take: (token) =>
          Effect.map(live(token), (entry) => {
            codes.delete(token)
            return entry?.code
          })
      })
    })
}
