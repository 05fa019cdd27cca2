import { Context, type Effect } from "effect"

/** A merchant's identity provider, as its owner configured it (`core/team/SingleSignOn.ts`). */
export interface IdentityProvider {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
}

/** What the sign-in carries from the authorization request to the callback (kept by the engine, never by the browser). */
export interface PendingSignIn {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
  readonly redirectUri: string
}

/** Why an identity provider could not be used or did not sign the person in; `message` is safe to show. */
export class OpenIdFailed extends Error {
  readonly _tag = "OpenIdFailed"
}

/**
 * OpenID Connect sign-in as a relying party (authorization code with PKCE, a nonce, the client's
 * secret at the token endpoint). The reference adapter is `openid-client`
 * (`adapters/auth/OpenIdClient.ts`): discovery, the ID token's signature, issuer, audience, expiry
 * and nonce are its checks.
 */
export class OpenIdConnect extends Context.Service<OpenIdConnect, {
  /** A fresh state, nonce and PKCE verifier, and the provider's authorization URL asking for `openid email`. */
  readonly start: (provider: IdentityProvider, redirectUri: string) => Effect.Effect<{ readonly url: string; readonly pending: PendingSignIn }, OpenIdFailed>
  /** Redeems the callback (the full URL the provider sent the browser to): the ID token's verified email. */
  readonly finish: (provider: IdentityProvider, pending: PendingSignIn, callbackUrl: string) => Effect.Effect<{ readonly email: string; readonly emailVerified: boolean }, OpenIdFailed>
}>()("core/ports/OpenIdConnect") {}
