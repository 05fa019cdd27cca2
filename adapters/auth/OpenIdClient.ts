/**
 * OpenID Connect as a relying party with `openid-client`: discovery of the issuer, the
 * authorization URL (code flow, PKCE S256, state, nonce), and the code's redemption with the
 * client's secret, whose ID token `openid-client` verifies (signature, issuer, audience, expiry,
 * nonce). An issuer on plain HTTP is accepted on loopback only (an identity provider on the same
 * machine, in development and tests).
 */
import { Effect, Layer } from "effect"
import * as client from "openid-client"
import { OpenIdConnect, OpenIdFailed } from "../../core/ports/OpenIdConnect.ts"

const loopback = (url: URL) => url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]"

const configOf = (issuer: string, clientId: string, clientSecret: string) =>
  Effect.tryPromise({
    try: () => {
      const url = new URL(issuer)
      return client.discovery(url, clientId, clientSecret, undefined, url.protocol === "http:" && loopback(url) ? { execute: [client.allowInsecureRequests] } : undefined)
    },
    catch: (e) => new OpenIdFailed(`The identity provider's discovery failed: ${e instanceof Error ? e.message : String(e)}`)
  })

export const OpenIdClient = Layer.succeed(OpenIdConnect, OpenIdConnect.of({
  start: (provider, redirectUri) =>
    Effect.gen(function*() {
      const config = yield* configOf(provider.issuer, provider.clientId, provider.clientSecret)
      const codeVerifier = client.randomPKCECodeVerifier()
      const state = client.randomState()
      const nonce = client.randomNonce()
      const challenge = yield* Effect.promise(() => client.calculatePKCECodeChallenge(codeVerifier))
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: "openid email",
        code_challenge: challenge,
        code_challenge_method: "S256",
        state,
        nonce
      })
      return { url: url.href, pending: { state, nonce, codeVerifier, redirectUri } }
    }).pipe(Effect.withSpan("OpenIdClient.start")),
  finish: (provider, pending, callbackUrl) =>
    Effect.gen(function*() {
      const config = yield* configOf(provider.issuer, provider.clientId, provider.clientSecret)
      const tokens = yield* Effect.tryPromise({
        try: () => client.authorizationCodeGrant(config, new URL(callbackUrl), { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true }),
        catch: (e) => new OpenIdFailed(`The identity provider did not sign you in: ${e instanceof Error ? e.message : String(e)}`)
      })
      const claims = tokens.claims()
      if (claims === undefined) return yield* Effect.fail(new OpenIdFailed("The identity provider answered no ID token"))
      // A provider may keep the email to its UserInfo endpoint (the ID token then has only `sub`):
      // asked there with the access token, for the same subject.
      const said = typeof claims["email"] === "string" ? claims : yield* Effect.tryPromise({
        try: () => client.fetchUserInfo(config, tokens.access_token, claims.sub),
        catch: (e) => new OpenIdFailed(`The identity provider's user info could not be read: ${e instanceof Error ? e.message : String(e)}`)
      })
      return { email: typeof said["email"] === "string" ? said["email"] : "", emailVerified: said["email_verified"] === true }
    }).pipe(Effect.withSpan("OpenIdClient.finish"))
}))
