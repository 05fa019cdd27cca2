/**
 * The receiver's side of webhook signatures, for merchants' servers: verify the raw body against
 * the `X-Service-Signature` header with your secret (or secrets, while you rotate). Compares in
 * constant time, accepts `v0` (the previous secret) during a rotation, refuses timestamps more
 * than `toleranceSeconds` away from now, and never throws: malformed input is a `valid: false`.
 *
 * ```ts
 * const { valid } = await verifyWebhook(rawBody, req.headers["x-service-signature"], process.env.WEBHOOK_SECRET!)
 * ```
 */
import { Effect, Layer } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { defaultToleranceSeconds, verifySignature } from "../Signatures.ts"

export interface Verification {
  readonly valid: boolean
  /** Why not: the header is malformed, its timestamp is too far from now, or no signature matches. */
  readonly reason?: "malformed" | "stale" | "mismatch"
}

const crypto = Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))

export const verifyWebhook = async (
  rawBody: string | Uint8Array,
  header: string | ReadonlyArray<string> | null | undefined,
  secret: string | ReadonlyArray<string>,
  toleranceSeconds: number = defaultToleranceSeconds
): Promise<Verification> => {
  try {
    if (typeof header !== "string") return { valid: false, reason: "malformed" }
    const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody)
    const secrets = typeof secret === "string" ? [secret] : secret
    if (secrets.length === 0) return { valid: false, reason: "mismatch" }
    const verdict = await Effect.runPromise(verifySignature(body, header, secrets, toleranceSeconds).pipe(Effect.provide(crypto)))
    return verdict === "valid" ? { valid: true } : { valid: false, reason: verdict }
  } catch {
    return { valid: false, reason: "malformed" }
  }
}
