/**
 * Pagar.me's webhook signature, as Pagar.me's own e-commerce modules verify it
 * (`pagarme/ecommerce-module-core` `src/Webhook/Services/WebhookValidatorService.php`, read by
 * `pagarme/woocommerce` `src/Controller/Webhooks.php` and `pagarme/magento2`):
 *
 * - header `X-Webhook-Asymmetric-Signature` (woocommerce) or `X-Hub-Asymmetric-Signature`
 *   (magento2): `alg=RS256; kid=<key id>; signature=<base64url>`;
 * - `signature` is RSASSA-PKCS1-v1_5 with SHA-256 over the exact bytes of the body;
 * - the public key is the RSA key with that `kid` (`kty: RSA`, `use: sig`, `alg` absent or
 *   `RS256`) of the JWKS Pagar.me publishes at `https://hubapi.pagar.me/.well-known/jwks.json`.
 *
 * Keys are fetched through the connector's `HttpClient` and kept by `kid`; an unknown `kid`
 * fetches the JWKS again, at most once per {@link refetchSeconds} (so forged `kid`s cannot make
 * the connector hammer the JWKS URL). Nothing here throws: anything unreadable is "not verified".
 */
import { Clock, Effect, Layer, Option, Result, Schema } from "effect"
import { KeyFormat, SecureRandom, Signature } from "effect/crypto"
import { Base64Url } from "effect/encoding"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as Wire from "./Wire.ts"

export const refetchSeconds = 60

export interface Verifier {
  /** Whether `rawBody` carries a valid Pagar.me signature in `headers` (lowercase names). */
  readonly verify: (headers: Readonly<Record<string, string | undefined>>, rawBody: string) => Effect.Effect<boolean>
}

const decodeJwks = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.Jwks))
const decodeJwk = Schema.decodeUnknownOption(Wire.Jwk)
const encoder = new TextEncoder()

export const make = (options: { readonly jwksUrl: string; readonly timeoutMs: number }): Effect.Effect<Verifier, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const signature = yield* Signature.Signature.pipe(
      Effect.provide(Signature.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))
    )
    const keys = new Map<string, Signature.PublicKey>()
    let lastFetchMs: number | undefined

    const fetchKeys = Effect.gen(function*() {
      lastFetchMs = yield* Clock.currentTimeMillis
      const text = yield* http.execute(HttpClientRequest.get(options.jwksUrl).pipe(HttpClientRequest.acceptJson)).pipe(
        Effect.flatMap((response) => response.status === 200 ? response.text : Effect.succeed("")),
        Effect.timeout(options.timeoutMs),
        Effect.orElseSucceed(() => "")
      )
      const jwks = decodeJwks(text)
      if (Option.isNone(jwks)) return
      for (const raw of jwks.value.keys) {
        const jwk = decodeJwk(raw)
        if (Option.isNone(jwk)) continue
        const { alg, e, kid, kty, n, use } = jwk.value
        if (kty !== "RSA" || (use !== undefined && use !== "sig") || (alg !== undefined && alg !== "RS256")) continue
        const key = yield* KeyFormat.decodePublic(KeyFormat.jwk, Signature.rsaPkcs1v15Sha256, { kty, n, e }).pipe(Effect.option)
        if (Option.isSome(key)) keys.set(kid, key.value)
      }
    })

    const keyFor = (kid: string) =>
      Effect.gen(function*() {
        const known = keys.get(kid)
        if (known !== undefined) return Option.some(known)
        const now = yield* Clock.currentTimeMillis
        if (lastFetchMs === undefined || now - lastFetchMs >= refetchSeconds * 1000) yield* fetchKeys
        return Option.fromNullishOr(keys.get(kid))
      })

    const verify: Verifier["verify"] = (headers, rawBody) =>
      Effect.gen(function*() {
        const parsed = Wire.parseSignature(Wire.signatureHeaders.map((name) => headers[name]).find((value) => value !== undefined))
        if (parsed === undefined || parsed.alg !== "RS256") return false
        const bytes = Base64Url.decode(parsed.signature)
        if (Result.isFailure(bytes) || bytes.success.length === 0) return false
        const key = yield* keyFor(parsed.kid)
        if (Option.isNone(key)) return false
        return yield* signature.verify(key.value, bytes.success, encoder.encode(rawBody)).pipe(Effect.orElseSucceed(() => false))
      }).pipe(Effect.catchDefect(() => Effect.succeed(false)))

    return { verify } satisfies Verifier
  })
