/**
 * Team members' sign-in through their organisation's identity provider (OpenID Connect): the
 * owner or an admin gives the merchant's provider (issuer, client id and secret; the secret
 * sealed, never answered); an active member then signs in by email there instead of with a
 * password and a code. The engine keeps what the sign-in needs between the two legs (state,
 * nonce, PKCE verifier: sealed, ten minutes, used once); the browser carries only the state. The
 * ID token's email must be verified by the provider and be the member's.
 */
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { apiError, type ApiErrorOf, invalidRequest } from "../ApiError.ts"
import { Audit } from "../audit/Audit.ts"
import { Auth, type TokenPair } from "../auth/Auth.ts"
import type { Credential } from "../auth/Credential.ts"
import type { Environment } from "../Environment.ts"
import { merchantUrlProblem } from "../MerchantUrl.ts"
import { CredentialStore } from "../ports/CredentialStore.ts"
import { type IdentityProvider, OpenIdConnect } from "../ports/OpenIdConnect.ts"
import { Sealing } from "../ports/Sealing.ts"
import { SettingsStore } from "../ports/SettingsStore.ts"
import { TeamStore } from "../ports/TeamStore.ts"
import { WebhookSender } from "../ports/WebhookSender.ts"

const Provider = Schema.Struct({ issuer: Schema.String, clientId: Schema.String, clientSecret: Schema.String })
const Pending = Schema.Struct({
  memberId: Schema.String,
  environment: Schema.Literals(["sandbox", "production"]),
  state: Schema.String,
  nonce: Schema.String,
  codeVerifier: Schema.String,
  redirectUri: Schema.String,
  expiresAt: Schema.String
})
const decodeProvider = Schema.decodeUnknownSync(Schema.fromJsonString(Provider))
const decodePending = Schema.decodeUnknownOption(Schema.fromJsonString(Pending))

const providerKey = (merchantId: string) => `team-sso:${merchantId}`
const pendingKey = (state: string) => `team-sso-pending:${state}`
const pendingMinutes = 10

type Refused = ApiErrorOf<"authentication_failed">
const refused = (message: string): Refused => apiError("authentication_failed", message)

export class SingleSignOn extends Context.Service<SingleSignOn, {
  /** The merchant's provider (without its secret), or none. */
  readonly provider: (credential: Credential) => Effect.Effect<Option.Option<{ readonly issuer: string; readonly clientId: string }>>
  readonly configure: (credential: Credential, provider: IdentityProvider) => Effect.Effect<{ readonly issuer: string; readonly clientId: string }, ApiErrorOf<"invalid_request" | "team_unavailable">>
  readonly remove: (credential: Credential) => Effect.Effect<void>
  /** Where an active member's browser goes to sign in with their organisation. */
  readonly start: (input: { readonly email: string; readonly environment: Environment; readonly redirectUri: string }) => Effect.Effect<{ readonly url: string }, Refused | ApiErrorOf<"team_unavailable">>
  /** The provider's callback (the full URL it sent the browser to): the member's token pair. */
  readonly finish: (callbackUrl: string) => Effect.Effect<TokenPair, Refused | ApiErrorOf<"team_unavailable">>
}>()("core/team/SingleSignOn") {
  static readonly layer = Layer.effect(
    SingleSignOn,
    Effect.gen(function*() {
      const settings = yield* SettingsStore
      const team = yield* TeamStore
      const credentials = yield* CredentialStore
      const auth = yield* Auth
      const audit = yield* Audit
      const sender = yield* WebhookSender
      const oidcOption = yield* Effect.serviceOption(OpenIdConnect)
      const sealingOption = yield* Effect.serviceOption(Sealing)
      const unavailable = apiError("team_unavailable", "This engine has no OpenID Connect client or sealing key configured: single sign-on is off")
      const ready = Option.isSome(oidcOption) && Option.isSome(sealingOption)
      const oidc = Option.getOrUndefined(oidcOption)!
      const sealing = Option.getOrUndefined(sealingOption)!
      const guarded = <A, E, R>(effect: Effect.Effect<A, E, R>) => ready ? effect : Effect.fail(unavailable)

      const providerOf = (merchantId: string) =>
        Effect.flatMap(settings.get(providerKey(merchantId)), (stored) =>
          Option.isNone(stored)
            ? Effect.succeed(Option.none<IdentityProvider & { readonly stored: string }>())
            : Effect.map(sealing.unseal(stored.value, providerKey(merchantId)), (plain) => Option.some({ ...decodeProvider(plain), stored: stored.value })))

      const configure = Effect.fn("SingleSignOn.configure")(function*(credential: Credential, provider: IdentityProvider) {
        const problem = merchantUrlProblem(provider.issuer) ?? (yield* sender.checkTarget(provider.issuer))
        const url = URL.canParse(provider.issuer) ? new URL(provider.issuer) : undefined
        const plainHttp = url?.protocol === "http:" && !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)
        if (problem !== undefined || plainHttp) {
          return yield* invalidRequest("Invalid issuer", [{ path: "issuer", message: problem ?? "Expected an https URL (http only on loopback)" }])
        }
        const key = providerKey(credential.merchantId)
        const current = Option.getOrUndefined(yield* providerOf(credential.merchantId))
        const sealed = yield* sealing.seal(JSON.stringify(provider), key)
        if (current !== undefined) yield* settings.removeIf(key, current.stored)
        yield* settings.putIfAbsent(key, sealed)
        yield* audit.record({
          environment: credential.environment,
          merchantId: credential.merchantId,
          object: { type: "single_sign_on", id: credential.merchantId },
          changes: { set: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: "set" } }
        })
        return { issuer: provider.issuer, clientId: provider.clientId }
      })

      const start = Effect.fn("SingleSignOn.start")(function*(input: { readonly email: string; readonly environment: Environment; readonly redirectUri: string }) {
        const none = refused("Single sign-on is not available for this email")
        const member = Option.getOrUndefined(yield* team.findByEmail(input.email.trim().toLowerCase()))
        if (member === undefined || member.status !== "active") return yield* none
        const provider = Option.getOrUndefined(yield* providerOf(member.merchantId))
        if (provider === undefined) return yield* none
        const started = yield* oidc.start(provider, input.redirectUri).pipe(Effect.mapError((e) => refused(e.message)))
        const expiresAt = DateTime.formatIso(DateTime.add(yield* DateTime.now, { minutes: pendingMinutes }))
        const pending = JSON.stringify({ memberId: member.id, environment: input.environment, ...started.pending, expiresAt })
        yield* settings.putIfAbsent(pendingKey(started.pending.state), yield* sealing.seal(pending, pendingKey(started.pending.state)))
        return { url: started.url }
      })

      const finish = Effect.fn("SingleSignOn.finish")(function*(callbackUrl: string) {
        const lost = refused("This sign-in is not valid any more: start it again")
        const state = URL.canParse(callbackUrl) ? new URL(callbackUrl).searchParams.get("state") ?? "" : ""
        const key = pendingKey(state)
        const stored = Option.getOrUndefined(yield* settings.get(key))
        if (state === "" || stored === undefined) return yield* lost
        // Used once, whatever comes of it.
        yield* settings.removeIf(key, stored)
        const pending = Option.getOrUndefined(decodePending(yield* sealing.unseal(stored, key)))
        if (pending === undefined || DateTime.isLessThanOrEqualTo(DateTime.makeUnsafe(pending.expiresAt), yield* DateTime.now)) return yield* lost
        const member = Option.getOrUndefined(yield* team.find(pending.memberId))
        const provider = member === undefined ? undefined : Option.getOrUndefined(yield* providerOf(member.merchantId))
        if (member === undefined || member.status !== "active" || member.credentials === null || provider === undefined) return yield* lost
        const said = yield* oidc.finish(provider, pending, callbackUrl).pipe(Effect.mapError((e) => refused(e.message)))
        if (!said.emailVerified || said.email.toLowerCase() !== member.email) {
          return yield* refused("The identity provider signed in someone else, or has not verified their email")
        }
        const credential = yield* credentials.findById(member.credentials[pending.environment])
        if (Option.isNone(credential) || credential.value.revokedAt !== null) return yield* lost
        return yield* auth.issueFor(credential.value)
      })

      return SingleSignOn.of({
        provider: (credential) =>
          ready ? Effect.map(providerOf(credential.merchantId), Option.map((p) => ({ issuer: p.issuer, clientId: p.clientId }))) : Effect.succeed(Option.none()),
        configure: (credential, provider) => guarded(configure(credential, provider)),
        remove: (credential) =>
          !ready ? Effect.void : Effect.flatMap(providerOf(credential.merchantId), (current) =>
            Option.isNone(current) ? Effect.void : Effect.andThen(
              settings.removeIf(providerKey(credential.merchantId), current.value.stored),
              audit.record({ environment: credential.environment, merchantId: credential.merchantId, object: { type: "single_sign_on", id: credential.merchantId }, changes: { removed: true } })
            )),
        start: (input) => guarded(start(input)),
        finish: (callbackUrl) => guarded(finish(callbackUrl))
      })
    })
  )
}
