/**
 * Conekta's webhook signature, as "Verificar firmas" documents it
 * (https://developers.conekta.com/docs/autenticaci%C3%B3n-webhooks): the company's webhook key is an
 * RSA key pair made once with `POST /webhook_keys`; Conekta keeps the private key and answers the
 * `public_key` (PEM, SPKI). Every notification carries a `DIGEST` header: the SHA-256 of the raw
 * (UTF-8) body signed with the private key, i.e. RSASSA-PKCS1-v1_5 with SHA-256, base64-encoded
 * (the encoding is the one of the working example in https://github.com/conekta/conekta-node/issues/105; see the
 * README). The signature covers the body only: there is no timestamp to check, so the plugin
 * reads the order from the API after verifying (a replay can only report what is true now).
 *
 * The public key is a setting, not a secret; it is imported once into WebCrypto (`effect/crypto`).
 */
import { Effect, Layer, Result } from "effect"
import { KeyFormat, SecureRandom, Signature } from "effect/crypto"
import { Base64 } from "effect/encoding"

const encoder = new TextEncoder()

/** Verifies `digest` headers with one public key. */
export interface Verifier {
  /** True only for a well-formed base64 RSA-SHA256 signature of `rawBody` by the key's pair. */
  readonly verify: (digest: string | undefined, rawBody: string) => Effect.Effect<boolean>
}

const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * The verifier of one webhook key. A public key that does not import (not an RSA SPKI PEM)
 * verifies nothing: every notification is then refused, never accepted.
 */
export const make = (publicKeyPem: string): Effect.Effect<Verifier> =>
  Effect.gen(function*() {
    const crypto = Signature.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
    const signature = yield* Signature.Signature.pipe(Effect.provide(crypto))
    const key = yield* Effect.cached(
      KeyFormat.decodePublic(KeyFormat.pem(KeyFormat.spki), Signature.rsaPkcs1v15Sha256, publicKeyPem.replace(/\\n/g, "\n").trim())
    )
    const verify = (digest: string | undefined, rawBody: string): Effect.Effect<boolean> => {
      const text = (digest ?? "").trim()
      if (text.length < 16 || text.length > 2048 || !base64Pattern.test(text)) return Effect.succeed(false)
      const bytes = Base64.decode(text)
      if (Result.isFailure(bytes)) return Effect.succeed(false)
      return Effect.flatMap(key, (publicKey) => signature.verify(publicKey, bytes.success, encoder.encode(rawBody))).pipe(
        Effect.orElseSucceed(() => false)
      )
    }
    return { verify }
  })
