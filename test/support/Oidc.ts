/**
 * A real OpenID Connect provider on loopback for tests (`oidc-provider`, the certified
 * implementation by the author of `openid-client` and `jose`): one confidential client, PKCE
 * required, and its development login and consent pages, where any login is an account whose
 * email (verified) is that login.
 */
import { Effect } from "effect"
import Provider from "oidc-provider"
import { freePort } from "./Host.ts"

export interface IdentityProviderUnderTest {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
}

export const identityProvider = (redirectUri: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const port = await freePort()
      const issuer = `http://127.0.0.1:${port}`
      const clientId = "payments-console"
      const clientSecret = "a-client-secret-of-the-test-identity-provider"
      const provider = new (Provider as any)(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
        findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub, email: sub, email_verified: true }) }),
        claims: { openid: ["sub"], email: ["email", "email_verified"] },
        pkce: { required: () => true },
        features: { devInteractions: { enabled: true } },
        cookies: { keys: ["test-identity-provider-cookie-key"] }
      })
      const server = await new Promise<{ close: (cb: () => void) => void; closeAllConnections: () => void }>((resolve) => {
        const s = provider.listen(port, "127.0.0.1", () => resolve(s))
      })
      return { issuer, clientId, clientSecret, server }
    }),
    // Its keep-alive connections (the browser's, the host's) are cut: a close would wait for them.
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }))
  )
