/**
 * A merchant's team over HTTP, with a real SMTP server on loopback: a full key invites members by
 * email; the link lets a member set a password and enrol an authenticator (TOTP); the member signs
 * in with email, password and a current code and acts with their role's permissions, named on the
 * audit record; a role change or a removal ends their tokens at once; nothing answers or logs a
 * password, a TOTP secret or an invitation token.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { Secret, TOTP } from "otpauth"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"
import { type Received, smtpReceiver } from "../support/Smtp.ts"
import { type StoreLayer, storeTargets } from "../support/Stores.ts"

class Inbox extends Context.Service<Inbox, { readonly messages: Array<Received> }>()("test/Team/Inbox") {}

const hostWithMail = (store: StoreLayer) => Layer.unwrap(Effect.gen(function*() {
  const smtp = yield* smtpReceiver
  return Layer.merge(
    testHost(store, { smtp: Option.some({ url: Redacted.make(smtp.url), from: "Console <console@pagos.test>" }) }),
    Layer.succeed(Inbox, { messages: smtp.messages })
  )
}))

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate()

/** Polls the inbox (the mail arrives over a socket) for a message to `to`. */
const mailTo = (to: string) =>
  Effect.gen(function*() {
    const { messages } = yield* Inbox
    for (let i = 0; i < 100; i++) {
      const found = messages.find((m) => m.to.includes(to))
      if (found !== undefined) return found
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
    }
    return assert.fail(`no mail to ${to}`)
  })

/** Invites `email` as `role` with `bearer`, reads the link from the mail, sets a password, enrols and confirms: the member's sign-in. */
const join = (bearer: string, email: string, role: string) =>
  Effect.gen(function*() {
    const invited = yield* call("POST", "/api/v1/team/members", { bearer, body: { email, name: email.split("@")[0], role } })
    assert.strictEqual(invited.status, 201, JSON.stringify(invited.body))
    assert.deepStrictEqual([invited.body.invitation.emailedTo, invited.body.invitation.url], [email, null])
    const mail = yield* mailTo(email)
    const token = /\/console\/invitations\/(inv_[0-9A-Za-z]+)/.exec(mail.text)?.[1]
    assert.isDefined(token, mail.text)
    const password = `correct horse ${email}`
    const accepted = yield* call("POST", "/api/v1/auth/invitations/accept", { body: { token, password } })
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
    const secret = accepted.body.totpSecret as string
    assert.match(accepted.body.otpauthUri, /^otpauth:\/\/totp\//)
    assert.strictEqual((yield* call("POST", "/api/v1/auth/invitations/confirm", { body: { token, code: "000000" } })).status, 401)
    const confirmed = yield* call("POST", "/api/v1/auth/invitations/confirm", { body: { token, code: codeOf(secret) } })
    assert.strictEqual(confirmed.status, 200, JSON.stringify(confirmed.body))
    assert.strictEqual((yield* call("POST", "/api/v1/auth/invitations/accept", { body: { token, password } })).status, 401, "the link works once")
    const signIn = (environment = "sandbox") => call("POST", "/api/v1/auth/sign-in", { body: { email, password, code: codeOf(secret), environment } })
    return { id: invited.body.member.id as string, token: token!, password, secret, signIn, mail }
  })

for (const target of storeTargets("team")) describe(`team members (${target.name})`, () => {
  layer(hostWithMail(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("invited by email, enrolled with a one-time code, signed in with their role, ended at once by a change or a removal", () =>
      Effect.gen(function*() {
        const { keys, merchant } = yield* createMerchant({ name: "Loja Azul" })
        const sk = keys.sandbox.secretKey
        const ana = yield* join(sk, "ana@lojaazul.test", "support")
        assert.include(ana.mail.subject, "Loja Azul")

        // A wrong password or code is the same refusal.
        assert.strictEqual((yield* call("POST", "/api/v1/auth/sign-in", { body: { email: "ana@lojaazul.test", password: "nope nope nope", code: codeOf(ana.secret), environment: "sandbox" } })).status, 401)
        assert.strictEqual((yield* call("POST", "/api/v1/auth/sign-in", { body: { email: "ana@lojaazul.test", password: ana.password, code: "123456", environment: "sandbox" } })).status, 401)
        const signedIn = yield* ana.signIn()
        assert.strictEqual(signedIn.status, 200, JSON.stringify(signedIn.body))
        assert.deepStrictEqual([signedIn.body.environment, signedIn.body.merchant.id], ["sandbox", merchant.id])
        const anaToken = signedIn.body.accessToken as string

        // Support: payments yes, keys and the team no.
        const paid = yield* call("POST", "/api/v1/payments", {
          bearer: anaToken,
          body: { amount: 10, paymentMethodId: "sbx_pix", userName: "Bia Lima", documentId: "52998224725" }
        })
        assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        const keysRead = yield* call("GET", "/api/v1/me/keys", { bearer: anaToken })
        assert.strictEqual(keysRead.status, 403)
        assert.strictEqual(keysRead.body.error.code, "permission_denied")
        assert.include(keysRead.body.error.message, "team member's role (member ana@lojaazul.test)")
        assert.strictEqual((yield* call("POST", "/api/v1/team/members", { bearer: anaToken, body: { email: "x@lojaazul.test", role: "viewer" } })).status, 403)

        // A developer's change is on the record under their name.
        const dev = yield* join(sk, "dev@lojaazul.test", "developer")
        const devToken = (yield* dev.signIn()).body.accessToken as string
        const hook = yield* call("POST", "/api/v1/webhooks", { bearer: devToken, body: { url: "https://hooks.lojaazul.test/in", events: ["payment.completed"] } })
        assert.strictEqual(hook.status, 201, JSON.stringify(hook.body))
        const log = yield* call("GET", `/api/v1/me/audit-log?objectId=${hook.body.id}`, { bearer: sk })
        assert.deepStrictEqual(log.body.data[0].actor, { kind: "user", id: "member dev@lojaazul.test" })

        // A role change ends the member's tokens at once; the new role holds after signing in again.
        const changed = yield* call("PATCH", `/api/v1/team/members/${ana.id}`, { bearer: sk, body: { role: "viewer" } })
        assert.deepStrictEqual([changed.status, changed.body.role], [200, "viewer"])
        const stale = yield* call("GET", "/api/v1/payments", { bearer: anaToken })
        assert.deepStrictEqual([stale.status, stale.body.error.code], [401, "token_revoked"])
        const viewer = (yield* ana.signIn()).body.accessToken as string
        assert.strictEqual((yield* call("GET", "/api/v1/payments", { bearer: viewer })).status, 200)
        assert.strictEqual((yield* call("POST", "/api/v1/payments", { bearer: viewer, body: { amount: 10, paymentMethodId: "sbx_pix", userName: "Bia Lima", documentId: "52998224725" } })).status, 403)

        // Only an owner manages owners; an admin cannot make one.
        const admin = yield* join(sk, "admin@lojaazul.test", "admin")
        const adminBearer = (yield* admin.signIn("production")).body.accessToken as string
        const owner = yield* call("POST", "/api/v1/team/members", { bearer: adminBearer, body: { email: "boss@lojaazul.test", role: "owner" } })
        assert.strictEqual(owner.status, 400, JSON.stringify(owner.body))

        // Removed: every token of theirs ends at once, and they cannot sign in again.
        const removed = yield* call("DELETE", `/api/v1/team/members/${dev.id}`, { bearer: sk })
        assert.deepStrictEqual([removed.status, removed.body.status], [200, "removed"])
        assert.strictEqual((yield* call("GET", "/api/v1/webhooks", { bearer: devToken })).status, 401)
        assert.strictEqual((yield* dev.signIn()).status, 401)
        const team = yield* call("GET", "/api/v1/team/members", { bearer: sk })
        assert.sameMembers(team.body.data.map((m: { email: string }) => m.email), ["ana@lojaazul.test", "admin@lojaazul.test"])

        // No password, TOTP secret or invitation token in any answer or record.
        const record = JSON.stringify((yield* call("GET", "/api/v1/me/audit-log", { bearer: sk })).body) +
          JSON.stringify(team.body) + JSON.stringify((yield* call("GET", "/admin/v1/audit-log", { bearer: adminToken })).body)
        for (const secret of [ana.password, ana.secret, ana.token, dev.password, dev.secret, dev.token]) assert.notInclude(record, secret)
      }))

    it.effect("an unknown link, a short password, a malformed email and an email already on a team are refused, naming why", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Verde" })
        const sk = keys.sandbox.secretKey
        assert.strictEqual((yield* call("POST", "/api/v1/auth/invitations/accept", { body: { token: "inv_unknown", password: "long enough password" } })).status, 401)
        const invited = yield* call("POST", "/api/v1/team/members", { bearer: sk, body: { email: "Rui@LojaVerde.test", role: "finance" } })
        assert.strictEqual(invited.body.member.email, "rui@lojaverde.test")
        const token = /(inv_[0-9A-Za-z]+)/.exec((yield* mailTo("rui@lojaverde.test")).text)![1]!
        const short = yield* call("POST", "/api/v1/auth/invitations/accept", { body: { token, password: "short" } })
        assert.deepStrictEqual([short.status, short.body.error.details.issues[0].path], [400, "password"])
        const bad = yield* call("POST", "/api/v1/team/members", { bearer: sk, body: { email: "not an email", role: "viewer" } })
        assert.deepStrictEqual([bad.status, bad.body.error.details.issues[0].path], [400, "email"])
        const other = yield* createMerchant({ name: "Loja Roxa" })
        const ana = yield* join(other.keys.sandbox.secretKey, "ana@lojaroxa.test", "viewer")
        assert.isString(ana.id)
        const taken = yield* call("POST", "/api/v1/team/members", { bearer: sk, body: { email: "ana@lojaroxa.test", role: "viewer" } })
        assert.strictEqual(taken.status, 400)
      }))
  })
})

describe("team members without a mail server", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("answers the invitation link to the inviter instead", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const invited = yield* call("POST", "/api/v1/team/members", { bearer: keys.sandbox.secretKey, body: { email: "eva@example.com", role: "viewer" } })
        assert.strictEqual(invited.status, 201, JSON.stringify(invited.body))
        assert.isNull(invited.body.invitation.emailedTo)
        assert.match(invited.body.invitation.url, /^http:\/\/api\.test\.local\/console\/invitations\/inv_/)
      }))
  })
})
