/**
 * The console's sign-ins. The cookie carries `<id>.<secret>` (32 random bytes); the store keeps the
 * secret's SHA-256 and the credential the session acts with (a merchant's access token, or the
 * operator's admin token) sealed with AES-256-GCM under a key derived from the secret: a copy of
 * the database alone opens no session and reveals no credential. Signing out deletes the row, and
 * with it the only copy of the sealed credential.
 *
 * A merchant session lives as long as its access token (`POST /auth/token`: 3600 s); an
 * operator's lives `operatorSessionSeconds`. Each session has its own CSRF token, sent back by
 * every form.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import { Aead, Digest, SecureRandom } from "effect/crypto"
import { Base64Url, Hex } from "effect/encoding"
import { realMillis } from "../../../core/clock/RealClock.ts"
import type { Environment } from "../../../core/Environment.ts"
import { ConsoleSessionStore } from "../../../core/ports/ConsoleSessionStore.ts"
import { safeEqual } from "../../../core/Secrets.ts"

/** What a session acts with: exactly what a script would send as its bearer. */
/**
 * A page that shows a secret the API gave once (new keys, a webhook secret), held sealed in the
 * session between the action and the page that shows it (see `Console.showOnce`).
 */
export const ShownOnce = Schema.Struct({ title: Schema.String, body: Schema.String, section: Schema.optional(Schema.String) })
export type ShownOnce = typeof ShownOnce.Type

export const SessionCredential = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("merchant"),
    accessToken: Schema.String,
    merchantId: Schema.String,
    merchantName: Schema.String,
    shownOnce: Schema.optional(ShownOnce)
  }),
  Schema.Struct({ kind: Schema.Literal("operator"), adminToken: Schema.String, shownOnce: Schema.optional(ShownOnce) }),
  /**
   * A merchant session whose keys it just rotated: its token is revoked, and all it still holds is
   * the new pair, to show once (on a second click of the rotate button too) before it ends.
   */
  Schema.Struct({ kind: Schema.Literal("rotated"), merchantName: Schema.String, publishableKey: Schema.String, secretKey: Schema.String })
])
export type SessionCredential = typeof SessionCredential.Type
/** What a session starts with: a merchant's token or the admin token. */
export type StartingCredential = Exclude<SessionCredential, { readonly kind: "rotated" }>

export interface OpenSession {
  readonly id: string
  readonly environment: Environment | null
  readonly csrfToken: string
  readonly expiresAt: Date
  readonly credential: SessionCredential
}

export const operatorSessionSeconds = 8 * 3600

/** Where a session that rotated its keys shows them, once. */
export const rotatedKeysPath = "/console/developers/new-keys"

/** Where a session shows the secret an action just made, once. */
export const shownOncePath = "/console/shown-once"

const encoder = new TextEncoder()
const decodeCredential = Schema.decodeUnknownOption(Schema.fromJsonString(SessionCredential))

export class Sessions extends Context.Service<Sessions, {
  /** Starts a session; answers the cookie value, shown to no one but the browser. */
  readonly start: (credential: StartingCredential, environment: Environment | null, lifetimeSeconds: number) => Effect.Effect<{ readonly cookie: string; readonly session: OpenSession }>
  /** The live session a cookie names, or none (unknown, forged, expired, signed out). */
  readonly open: (cookie: string) => Effect.Effect<Option.Option<OpenSession>>
  /** What the session acts with from now on (sealed again under the cookie's own key). */
  readonly replace: (cookie: string, credential: SessionCredential) => Effect.Effect<void>
  readonly end: (cookie: string) => Effect.Effect<void>
}>()("adapters/http/console/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function*() {
      const store = yield* ConsoleSessionStore
      const random = yield* SecureRandom.SecureRandom
      const digest = yield* Digest.Digest
      const aead = yield* Aead.Aead

      const derive = (label: string, secret: string) => digest.digest(Digest.sha256, encoder.encode(`${label}\u0000${secret}`))
      const sealKey = (secret: string) => Effect.flatMap(derive("console-seal", secret), (bytes) => Aead.key(Aead.aes256Gcm, bytes))
      const secretHash = (secret: string) => Effect.map(derive("console-session", secret), Hex.encode)
      const token = (bytes: number) => Effect.map(random.randomBytes(bytes), Base64Url.encode)
      const split = (cookie: string) => {
        const [id, secret, ...rest] = cookie.split(".")
        return id === undefined || secret === undefined || rest.length > 0 || id === "" || secret === "" ? undefined : { id, secret }
      }

      const seal = Effect.fnUntraced(function*(id: string, secret: string, credential: SessionCredential) {
        const nonce = yield* random.randomBytes(12)
        const key = yield* Effect.orDie(sealKey(secret))
        const sealed = yield* Effect.orDie(aead.encrypt(key, encoder.encode(JSON.stringify(credential)), { nonce, aad: encoder.encode(id) }))
        return `${Base64Url.encode(nonce)}.${Base64Url.encode(sealed)}`
      })

      const start = Effect.fn("ConsoleSessions.start")(function*(credential: StartingCredential, environment: Environment | null, lifetimeSeconds: number) {
        const now = new Date(yield* realMillis)
        yield* store.removeExpired(now)
        const id = `cs_${yield* token(12)}`
        const secret = yield* token(32)
        const session = {
          id,
          secretHash: yield* secretHash(secret),
          kind: credential.kind,
          environment,
          csrfToken: yield* token(24),
          sealed: yield* seal(id, secret, credential),
          createdAt: now,
          expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000)
        }
        yield* store.insert(session)
        return { cookie: `${id}.${secret}`, session: { id, environment, csrfToken: session.csrfToken, expiresAt: session.expiresAt, credential } }
      })

      const open = Effect.fn("ConsoleSessions.open")(function*(cookie: string) {
        const parts = split(cookie)
        if (parts === undefined) return Option.none<OpenSession>()
        const found = yield* store.find(parts.id)
        if (Option.isNone(found)) return Option.none<OpenSession>()
        const session = found.value
        if (session.expiresAt.getTime() <= (yield* realMillis)) return Option.none<OpenSession>()
        if (!safeEqual(yield* secretHash(parts.secret), session.secretHash)) return Option.none<OpenSession>()
        const [nonce, sealed] = session.sealed.split(".")
        const opened = yield* Effect.gen(function*() {
          const key = yield* sealKey(parts.secret)
          const bytes = yield* aead.decrypt(key, yield* Effect.fromResult(Base64Url.decode(sealed ?? "")), {
            nonce: yield* Effect.fromResult(Base64Url.decode(nonce ?? "")),
            aad: encoder.encode(session.id)
          })
          return decodeCredential(new TextDecoder().decode(bytes))
        }).pipe(Effect.orElseSucceed(() => Option.none<SessionCredential>()))
        return Option.map(opened, (credential): OpenSession => ({
          id: session.id,
          environment: session.environment,
          csrfToken: session.csrfToken,
          expiresAt: session.expiresAt,
          credential
        }))
      })

      const end = Effect.fn("ConsoleSessions.end")(function*(cookie: string) {
        const parts = split(cookie)
        if (parts === undefined) return
        const found = yield* store.find(parts.id)
        if (Option.isSome(found) && safeEqual(yield* secretHash(parts.secret), found.value.secretHash)) yield* store.remove(parts.id)
      })

      const replace = Effect.fn("ConsoleSessions.replace")(function*(cookie: string, credential: SessionCredential) {
        const parts = split(cookie)
        if (parts === undefined) return
        const found = yield* store.find(parts.id)
        if (Option.isSome(found) && safeEqual(yield* secretHash(parts.secret), found.value.secretHash)) {
          yield* store.reseal(parts.id, yield* seal(parts.id, parts.secret, credential))
        }
      })

      return Sessions.of({ start, open, replace, end })
    })
  ).pipe(Layer.provide(Aead.layerWebCrypto))
}
