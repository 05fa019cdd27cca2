/** One-time codes (TOTP: SHA-1, six digits, 30 s) with the `otpauth` package. */
import { Effect, Layer } from "effect"
import { Secret, TOTP } from "otpauth"
import { OneTimeCodes } from "../../core/ports/OneTimeCodes.ts"

const totpOf = (secret: string, label = "", issuer = "") =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, label, issuer })

export const TotpCodes = Layer.succeed(OneTimeCodes, OneTimeCodes.of({
  newSecret: Effect.sync(() => new Secret({ size: 20 }).base32),
  uri: (secret, account, issuer) => totpOf(secret, account, issuer).toString(),
  verify: (secret, code) => Effect.sync(() => /^\d{6}$/.test(code.trim()) && totpOf(secret).validate({ token: code.trim(), window: 1 }) !== null)
}))
