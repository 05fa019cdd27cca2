/**
 * How the connector authenticates to EBANX: one of the two schemes EBANX documents.
 *
 * - **JWS** (current; https://docs.ebanx.com/docs/payments/guides/features/authentication/jws-authentication
 *   and .../jws-integration): every request carries `X-JWS-Signature: BASE64URL(header)..BASE64URL(signature)`,
 *   the detached-payload compact form (RFC 7515 appendix F) with an unencoded payload (RFC 7797):
 *   the header is `{"alg":"RS256","kid":"<kid>","b64":false,"crit":["b64"]}`, the signing input
 *   `BASE64URL(header) + "." + <the exact body bytes>`, signed RS256 (RSASSA-PKCS1-v1_5, SHA-256)
 *   with the merchant's RSA private key (PKCS#8 PEM, `openssl genpkey`), whose public key EBANX
 *   registered under `kid`. The body carries no `integration_key`.
 * - **Integration key** (legacy, "being deprecated" per .../jws-migration): `integration_key` in
 *   the JSON body.
 *
 * Both secrets stay `Redacted`: the key is read only to write the body, the private key only to
 * import it once into WebCrypto (`effect/crypto`), and the connector scrubs both from anything
 * EBANX answers.
 */
import { Effect, Layer, Redacted } from "effect"
import { KeyFormat, SecureRandom, Signature } from "effect/crypto"
import { Base64Url } from "effect/encoding"
import { UpstreamHttp } from "../kit/UpstreamHttp.ts"

export type Credentials =
  | { readonly scheme: "integration_key"; readonly integrationKey: Redacted.Redacted<string> }
  | { readonly scheme: "jws"; readonly keyId: string; readonly privateKey: Redacted.Redacted<string> }

/** The JOSE header EBANX documents, in the order its integration guide writes it. */
export const jwsHeader = (keyId: string) => ({ alg: "RS256", kid: keyId, b64: false, crit: ["b64"] })

/** A signed request: the exact body text and the headers that go with it. */
export interface Signed {
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
}

const encoder = new TextEncoder()

/** The secrets to scrub from anything EBANX answers. */
export const secretsOf = (credentials: Credentials): ReadonlyArray<Redacted.Redacted<string>> =>
  credentials.scheme === "jws" ? [credentials.privateKey] : [credentials.integrationKey]

/**
 * The signer of one account: `sign(body)` writes the body (JSON with exact decimals,
 * `UpstreamHttp.jsonText`) and authenticates it under the account's scheme. A private key that
 * does not import fails every call with `invalid_key` (the message never holds the key).
 */
export interface Signer {
  /** Fails with why (never the key) when the private key cannot sign. */
  readonly sign: (body: Record<string, unknown>) => Effect.Effect<Signed, string>
}

export const make = (credentials: Credentials): Effect.Effect<Signer> =>
  Effect.gen(function*() {
    if (credentials.scheme === "integration_key") {
      const sign = (body: Record<string, unknown>): Effect.Effect<Signed, string> =>
        Effect.succeed({ text: UpstreamHttp.jsonText({ integration_key: Redacted.value(credentials.integrationKey), ...body }), headers: {} })
      return { sign }
    }
    const crypto = Signature.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
    const signature = yield* Signature.Signature.pipe(Effect.provide(crypto))
    const key = yield* Effect.cached(
      KeyFormat.decodePrivate(KeyFormat.pem(KeyFormat.pkcs8), Signature.rsaPkcs1v15Sha256, Redacted.value(credentials.privateKey)).pipe(
        Effect.mapError(() => "the JWS private key is not an RSA PKCS#8 PEM key")
      )
    )
    const header = Base64Url.encode(JSON.stringify(jwsHeader(credentials.keyId)))
    const sign = (body: Record<string, unknown>): Effect.Effect<Signed, string> =>
      Effect.gen(function*() {
        const text = UpstreamHttp.jsonText(body)
        const signed = yield* signature.sign(yield* key, encoder.encode(`${header}.${text}`)).pipe(
          Effect.mapError(() => "signing with the JWS private key failed")
        )
        return { text, headers: { "x-jws-signature": `${header}..${Base64Url.encode(signed)}` } } satisfies Signed
      })
    return { sign }
  })
