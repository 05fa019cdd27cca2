import { Context, type Effect } from "effect"

/**
 * The second factor of a team member's sign-in: time-based one-time codes (TOTP, RFC 6238: six
 * digits, 30 s steps, HMAC-SHA1, as every authenticator app reads them). The reference adapter is
 * the `otpauth` package (`adapters/auth/TotpCodes.ts`).
 */
export class OneTimeCodes extends Context.Service<OneTimeCodes, {
  /** A new secret, base32 (what an authenticator app is given). */
  readonly newSecret: Effect.Effect<string>
  /** The `otpauth://totp/...` URI an authenticator app reads (as a QR code or pasted). */
  readonly uri: (secret: string, account: string, issuer: string) => string
  /** Whether `code` is the secret's code now, or one step either side (clock drift). */
  readonly verify: (secret: string, code: string) => Effect.Effect<boolean>
}>()("core/ports/OneTimeCodes") {}
