/**
 * A team member signs in to the console through their organisation's identity provider: a real
 * OpenID Connect provider on loopback (`oidc-provider`), its own login and consent pages in
 * Chromium, the code redeemed by the host (`openid-client`), and the member's session with their
 * role. A person the provider signs in who is not the member is refused.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Scope } from "effect"
import { Secret, TOTP } from "otpauth"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { looked } from "../support/Console.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"
import { identityProvider } from "../support/Oidc.ts"

describe.skipIf(chromiumPath === undefined)("single sign-on in Chromium", () => {
  layer(reachableHost(MemoryStore.layer), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a member signs in at the identity provider and lands in the console with their role", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const idp = yield* identityProvider(`${base}/console/sso/callback`).pipe(Scope.provide(yield* Effect.scope))
        const { keys } = yield* createMerchant({ name: "Loja Azul" })
        const sk = keys.sandbox.secretKey
        // A member, active (enrolled with a password and a code).
        const invited = yield* call("POST", "/api/v1/team/members", { bearer: sk, body: { email: "ana@lojaazul.test", role: "support" } })
        const token = /(inv_[0-9A-Za-z]+)/.exec(invited.body.invitation.url)![1]!
        const secret = (yield* call("POST", "/api/v1/auth/invitations/accept", { body: { token, password: "a long enough password" } })).body.totpSecret as string
        assert.strictEqual((yield* call("POST", "/api/v1/auth/invitations/confirm", { body: { token, code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() } })).status, 200)

        // The merchant's identity provider; its secret is never answered.
        const put = yield* call("PUT", "/api/v1/team/single-sign-on", { bearer: sk, body: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } })
        assert.deepStrictEqual([put.status, put.body], [200, { issuer: idp.issuer, clientId: idp.clientId }])
        assert.notInclude(JSON.stringify((yield* call("GET", "/api/v1/team/single-sign-on", { bearer: sk })).body), idp.clientSecret)
        const badIssuer = yield* call("PUT", "/api/v1/team/single-sign-on", { bearer: sk, body: { issuer: "http://idp.example.com", clientId: "x", clientSecret: "y" } })
        assert.strictEqual(badIssuer.status, 400, "plain http is for loopback only")

        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true }))
        const foreign: Array<string> = []
        yield* Effect.promise(() => context.route("**/*", (route) => {
          const url = route.request().url()
          if (url.startsWith(base) || url.startsWith(idp.issuer) || url.startsWith("data:")) return route.continue()
          // The test provider's own development pages ask for a web font: refused, not ours to judge.
          if (!route.request().frame().url().startsWith(idp.issuer)) foreign.push(url)
          return route.abort()
        }))
        const page = yield* Effect.promise(() => context.newPage())
        const signInAt = async (login: string) => {
          await page.goto(`${base}/console/sign-in`)
          await page.fill("#sso-email", "ana@lojaazul.test")
          await page.click("#sso-heading ~ form button[type=submit]")
          await page.click("[data-testid=sso-continue]")
          await page.waitForURL((url) => url.href.startsWith(idp.issuer))
          await page.fill("input[name=login]", login)
          await page.fill("input[name=password]", "anything")
          await page.click("button[type=submit]")
          // The provider's consent page (first sign-in of this account to this client).
          if (page.url().startsWith(idp.issuer)) await page.click("button[type=submit]")
          await page.waitForURL((url) => url.href.startsWith(base))
        }
        yield* Effect.promise(async () => {
          // The provider signs in someone else: refused, on the sign-in page.
          await signInAt("mallory@example.com")
          assert.strictEqual(new URL(page.url()).pathname, "/console/sso/callback")
          assert.include(await page.textContent("#sso-email-error") ?? "", "someone else")
          await looked(page, "sso-refused")
          // A new browser session at the provider (its own cookie would sign Mallory in again).
          await context.clearCookies()

          await signInAt("ana@lojaazul.test")
          assert.strictEqual(new URL(page.url()).pathname, "/console/payments")
          assert.include(await page.textContent("main") ?? "", "Payments")
          await looked(page, "sso-payments")
        })
        // Signed in as Ana, with her role: support reads payments, not the team.
        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/team`)
          assert.include(await page.textContent("main") ?? "", "may not call")
        })
        const log = yield* call("GET", "/api/v1/me/audit-log?operation=team.putSingleSignOn", { bearer: sk })
        assert.strictEqual(log.body.data[0].changes.set.clientSecret, "set")
        assert.deepStrictEqual(foreign, [])
        yield* Effect.promise(() => context.close())
      }))
  })
})
