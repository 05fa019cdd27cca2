/**
 * A merchant's team (`TeamMember.ts`): people who sign in to the console as themselves, each with
 * a role (`Roles.ts`). A full secret key, the owner or an admin invites a member by email (the
 * link expires in 72 hours); the member sets a password and enrols an authenticator app (a TOTP
 * secret, proven by one code); then signs in with email, password and a current code, which
 * issues a token pair (`Auth.issueFor`) of the member's credential in the environment chosen.
 *
 * A member acts through a credential per environment holding the role's grants, read on every
 * request: removing a member (or changing the role, which replaces the credentials) ends every
 * session and token they hold at once, on every replica. Every change is on the audit record.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf, invalidRequest, notFound } from "../ApiError.ts"
import { Audit } from "../audit/Audit.ts"
import { Auth, type TokenPair } from "../auth/Auth.ts"
import type { Credential } from "../auth/Credential.ts"
import { EngineConfig } from "../EngineConfig.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { CredentialStore } from "../ports/CredentialStore.ts"
import { Mailer } from "../ports/Mailer.ts"
import { OneTimeCodes } from "../ports/OneTimeCodes.ts"
import { Passwords } from "../ports/Passwords.ts"
import { Sealing } from "../ports/Sealing.ts"
import { TeamStore } from "../ports/TeamStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { secretHasher } from "../Secrets.ts"
import { grantsOf, type Role } from "./Roles.ts"
import type { TeamMember } from "./TeamMember.ts"

/** Who manages the team: the caller's credential (a full key, or a member's). */
export interface TeamActor {
  readonly credential: Credential
}

export interface Invited {
  readonly member: TeamMember
  readonly expiresAt: DateTime.Utc
  /** Where the invitation was emailed; null when it was not (no mail server, or it refused). */
  readonly emailedTo: string | null
  /** The link, for the inviter to pass on, when it was not emailed; null when it was. */
  readonly url: string | null
}

export interface SignIn {
  readonly email: string
  readonly password: string
  readonly code: string
  readonly environment: Environment
}

/** How long an invitation link holds. */
const invitationHours = 72
const passwordRule = { min: 12, max: 200 }
const emailPattern = /^[^\s@<>()",;:]{1,64}@[^\s@<>()",;:]{1,255}\.[^\s@<>()",;:]{2,63}$/

type Refused = ApiErrorOf<"authentication_failed">
const refused = (message: string): Refused => apiError("authentication_failed", message)

export class Team extends Context.Service<Team, {
  readonly list: (actor: TeamActor) => Effect.Effect<ReadonlyArray<TeamMember>>
  readonly invite: (actor: TeamActor, input: { readonly email: string; readonly name: string; readonly role: Role }) => Effect.Effect<Invited, ApiErrorOf<"invalid_request" | "team_unavailable">>
  readonly changeRole: (actor: TeamActor, id: string, role: Role) => Effect.Effect<TeamMember, ApiErrorOf<"not_found" | "invalid_request">>
  readonly remove: (actor: TeamActor, id: string) => Effect.Effect<TeamMember, ApiErrorOf<"not_found" | "invalid_request">>
  /** The member an invitation link names, while it holds. */
  readonly invitation: (token: string) => Effect.Effect<Option.Option<{ readonly member: TeamMember; readonly merchantName: string }>>
  /** Sets the password (again, until confirmed) and answers a new TOTP secret to enrol. */
  readonly accept: (token: string, password: string) => Effect.Effect<{ readonly secret: string; readonly uri: string }, Refused | ApiErrorOf<"invalid_request" | "team_unavailable">>
  /** A current code of the enrolled secret: the member is active. */
  readonly confirm: (token: string, code: string) => Effect.Effect<TeamMember, Refused | ApiErrorOf<"team_unavailable">>
  readonly signIn: (input: SignIn) => Effect.Effect<TokenPair, Refused | ApiErrorOf<"team_unavailable">>
}>()("core/team/Team") {
  static readonly layer = Layer.effect(
    Team,
    Effect.gen(function*() {
      const store = yield* TeamStore
      const credentials = yield* CredentialStore
      const tenancy = yield* TenancyStore
      const auth = yield* Auth
      const audit = yield* Audit
      const tx = yield* Transactions
      const ids = yield* Ids
      const config = yield* EngineConfig
      const hash = yield* secretHasher
      // What an engine without them cannot do: every operation answers 422 team_unavailable.
      const passwordsOption = yield* Effect.serviceOption(Passwords)
      const codesOption = yield* Effect.serviceOption(OneTimeCodes)
      const sealingOption = yield* Effect.serviceOption(Sealing)
      const mailer = Option.getOrElse(yield* Effect.serviceOption(Mailer), () => Mailer.of({ configured: false, send: () => Effect.die("no mailer") }))
      const unavailable = apiError("team_unavailable", "This engine has no password hashing, one-time codes or sealing key configured: team members cannot sign in")
      const ready = Option.isSome(passwordsOption) && Option.isSome(codesOption) && Option.isSome(sealingOption)
      const passwords = Option.getOrUndefined(passwordsOption)!
      const codes = Option.getOrUndefined(codesOption)!
      const sealing = Option.getOrUndefined(sealingOption)!
      const guarded = <A, E, R>(effect: Effect.Effect<A, E, R>) => ready ? effect : Effect.fail(unavailable)
      const totpContext = (id: string) => `team-member:${id}:totp`

      /** The caller's role: a full key's is the owner's. */
      const roleOf = (actor: TeamActor) =>
        actor.credential.userId === null
          ? Effect.succeed<Role>("owner")
          : Effect.map(store.find(actor.credential.userId), (m) => Option.match(m, { onNone: () => "viewer" as Role, onSome: (x) => x.role }))
      /** Only an owner (or a full key) makes, changes or removes an owner. */
      const mayTouch = Effect.fnUntraced(function*(actor: TeamActor, role: Role) {
        if (role !== "owner") return
        if ((yield* roleOf(actor)) !== "owner") {
          return yield* invalidRequest("Only an owner (or a full secret key) manages owners", [{ path: "role", message: "An admin cannot make, change or remove an owner" }])
        }
      })
      const recorded = (environment: Environment, m: TeamMember, changes: Record<string, unknown>) =>
        audit.record({ environment, merchantId: m.merchantId, object: { type: "team_member", id: m.id }, changes })
      const mine = (actor: TeamActor, id: string) =>
        Effect.flatMap(store.find(id), (m) =>
          Option.isSome(m) && m.value.merchantId === actor.credential.merchantId && m.value.status !== "removed"
            ? Effect.succeed(m.value)
            : Effect.fail(notFound("team member", id)))

      /** The member's credentials, one per environment, holding the role's grants; never a usable secret. */
      const credentialsFor = Effect.fnUntraced(function*(m: TeamMember) {
        const made: Array<Credential> = []
        for (const environment of ["sandbox", "production"] as const) {
          made.push({
            id: yield* ids.next("credential"),
            merchantId: m.merchantId,
            shopId: null,
            environment,
            publishableKey: null,
            secretHash: yield* hash(yield* ids.secret("unusable_", 32)),
            secretLast4: "",
            version: 1,
            revokedAt: null,
            createdAt: yield* DateTime.now,
            permissions: grantsOf[m.role],
            name: m.email,
            userId: m.id
          })
        }
        return made
      })
      const revokeOf = (m: TeamMember, at: DateTime.Utc) => m.credentials === null ? Effect.void : Effect.asVoid(credentials.revoke(Object.values(m.credentials), at))

      const invite = Effect.fn("Team.invite")(function*(actor: TeamActor, input: { readonly email: string; readonly name: string; readonly role: Role }) {
        const email = input.email.trim().toLowerCase()
        if (!emailPattern.test(email)) return yield* invalidRequest("Invalid email", [{ path: "email", message: "Expected an email address" }])
        yield* mayTouch(actor, input.role)
        const token = yield* ids.secret("inv_", 32)
        const now = yield* DateTime.now
        const expiresAt = DateTime.add(now, { hours: invitationHours })
        const invitation = { tokenHash: yield* hash(token), expiresAt }
        const existing = yield* store.findByEmail(email)
        const member: TeamMember = Option.isSome(existing)
          ? { ...existing.value, name: input.name, role: input.role, status: "invited", passwordHash: null, totp: null, invitation, credentials: null, updatedAt: now, version: existing.value.version + 1 }
          : {
            id: yield* ids.next("teamMember"),
            merchantId: actor.credential.merchantId,
            email,
            name: input.name,
            role: input.role,
            status: "invited",
            passwordHash: null,
            totp: null,
            invitation,
            credentials: null,
            createdAt: now,
            updatedAt: now,
            version: 1
          }
        if (Option.isSome(existing) && (existing.value.merchantId !== actor.credential.merchantId || existing.value.status === "active")) {
          return yield* invalidRequest("This email cannot be invited", [{
            path: "email",
            message: existing.value.merchantId === actor.credential.merchantId ? "Already on the team" : "Already on another merchant's team"
          }])
        }
        const written = yield* tx.run(Effect.flatMap(Option.isSome(existing) ? store.update(member) : store.insert(member), (ok) =>
          ok ? Effect.as(recorded(actor.credential.environment, member, { invited: { email, role: input.role } }), true) : Effect.succeed(false)))
        if (!written) return yield* invalidRequest("This email cannot be invited", [{ path: "email", message: "Invited by another request at the same time" }])
        const url = `${config.publicUrl}/console/invitations/${token}`
        const merchant = yield* tenancy.findMerchant(member.merchantId)
        const merchantName = Option.match(merchant, { onNone: () => "a merchant", onSome: (m) => m.name })
        const emailed = !mailer.configured ? false : yield* mailer.send({
          to: email,
          subject: `You are invited to ${merchantName}'s payments console`,
          text: [
            `${input.name === "" ? "Hello" : `Hello ${input.name}`},`,
            "",
            `You are invited to ${merchantName}'s team as ${input.role}. Set your password and your authenticator app here:`,
            "",
            url,
            "",
            `The link works until ${DateTime.formatIso(expiresAt)} (UTC). If you did not expect it, ignore this message.`
          ].join("\n")
        }).pipe(
          Effect.as(true),
          Effect.catch((e) => Effect.as(Effect.logWarning(`invitation of team member ${member.id} not emailed: ${e.message}`), false))
        )
        return { member, expiresAt, emailedTo: emailed ? email : null, url: emailed ? null : url } satisfies Invited
      })

      const changeRole = Effect.fn("Team.changeRole")(function*(actor: TeamActor, id: string, role: Role) {
        const current = yield* mine(actor, id)
        yield* mayTouch(actor, current.role)
        yield* mayTouch(actor, role)
        if (current.role === role) return current
        const at = yield* DateTime.now
        const base: TeamMember = { ...current, role, updatedAt: at, version: current.version + 1 }
        const made = current.status === "active" ? yield* credentialsFor(base) : []
        const next: TeamMember = made.length === 0 ? base : { ...base, credentials: Object.fromEntries(made.map((c) => [c.environment, c.id])) as Record<Environment, string> }
        yield* tx.run(Effect.gen(function*() {
          // Another change of the member came first: read it again (retryOnConflict), never a 500.
          if (!(yield* store.update(next))) return yield* new Conflict()
          yield* revokeOf(current, at)
          for (const c of made) yield* credentials.insert(c)
          yield* recorded(actor.credential.environment, next, { role: { from: current.role, to: role } })
        }))
        return next
      }, retryOnConflict("team member", 5))

      const remove = Effect.fn("Team.remove")(function*(actor: TeamActor, id: string) {
        const current = yield* mine(actor, id)
        yield* mayTouch(actor, current.role)
        const at = yield* DateTime.now
        const next: TeamMember = { ...current, status: "removed", invitation: null, updatedAt: at, version: current.version + 1 }
        yield* tx.run(Effect.gen(function*() {
          // Another change of the member came first: read it again (retryOnConflict), never a 500.
          if (!(yield* store.update(next))) return yield* new Conflict()
          yield* revokeOf(current, at)
          yield* recorded(actor.credential.environment, next, { removed: true })
        }))
        return next
      }, retryOnConflict("team member", 5))

      /** The invited member a token names while its link holds. */
      const invited = Effect.fnUntraced(function*(token: string) {
        const found = yield* store.findByInvitation(yield* hash(token))
        if (Option.isNone(found) || found.value.status !== "invited" || found.value.invitation === null) return Option.none<TeamMember>()
        if (DateTime.isLessThanOrEqualTo(found.value.invitation.expiresAt, yield* DateTime.now)) return Option.none<TeamMember>()
        return found
      })
      const invitedOrRefused = (token: string) =>
        Effect.flatMap(invited(token), (m) => Option.isSome(m) ? Effect.succeed(m.value) : Effect.fail(refused("This invitation link is not valid or has expired: ask for a new one")))

      const accept = Effect.fn("Team.accept")(function*(token: string, password: string) {
        const member = yield* invitedOrRefused(token)
        if (password.length < passwordRule.min || password.length > passwordRule.max) {
          return yield* invalidRequest("Invalid password", [{ path: "password", message: `Expected ${passwordRule.min} to ${passwordRule.max} characters` }])
        }
        const secret = yield* codes.newSecret
        const next: TeamMember = {
          ...member,
          passwordHash: yield* passwords.hash(password),
          totp: { sealed: yield* sealing.seal(secret, totpContext(member.id)), confirmed: false },
          updatedAt: yield* DateTime.now,
          version: member.version + 1
        }
        if (!(yield* store.update(next))) return yield* refused("The invitation changed meanwhile: open the link again")
        return { secret, uri: codes.uri(secret, member.email, "Payment console") }
      })

      const confirm = Effect.fn("Team.confirm")(function*(token: string, code: string) {
        const member = yield* invitedOrRefused(token)
        if (member.totp === null || member.passwordHash === null) return yield* refused("Set a password first")
        if (!(yield* codes.verify(yield* sealing.unseal(member.totp.sealed, totpContext(member.id)), code))) {
          return yield* refused("The code is not the authenticator's current one")
        }
        const base: TeamMember = { ...member, status: "active", invitation: null, totp: { ...member.totp, confirmed: true }, updatedAt: yield* DateTime.now, version: member.version + 1 }
        const made = yield* credentialsFor(base)
        const next: TeamMember = { ...base, credentials: Object.fromEntries(made.map((c) => [c.environment, c.id])) as Record<Environment, string> }
        const done = yield* tx.run(Effect.gen(function*() {
          if (!(yield* store.update(next))) return false
          for (const c of made) yield* credentials.insert(c)
          yield* audit.record({
            environment: "sandbox",
            merchantId: next.merchantId,
            object: { type: "team_member", id: next.id },
            changes: { joined: { email: next.email, role: next.role } },
            actor: { kind: "user", id: `member ${next.email}` },
            operation: "auth.confirmInvitation"
          })
          return true
        }))
        if (!done) return yield* refused("The invitation changed meanwhile: open the link again")
        return next
      })

      const signIn = Effect.fn("Team.signIn")(function*(input: SignIn) {
        const failed = refused("The email, password or code is not valid")
        const found = yield* store.findByEmail(input.email.trim().toLowerCase())
        // A password is checked even for an unknown email, so that the answer takes as long.
        const member = Option.getOrUndefined(found)
        const stored = member?.passwordHash ?? (yield* passwords.hash("no member has this password"))
        const passwordHolds = yield* passwords.verify(input.password, stored)
        if (member === undefined || member.status !== "active" || !passwordHolds || member.totp === null || member.credentials === null) return yield* failed
        if (!(yield* codes.verify(yield* sealing.unseal(member.totp.sealed, totpContext(member.id)), input.code))) return yield* failed
        const credential = yield* credentials.findById(member.credentials[input.environment])
        if (Option.isNone(credential) || credential.value.revokedAt !== null) return yield* failed
        return yield* auth.issueFor(credential.value)
      })

      return Team.of({
        list: (actor) => Effect.map(store.list(actor.credential.merchantId), (all) => all.filter((m) => m.status !== "removed")),
        invite: (actor, input) => guarded(invite(actor, input)),
        changeRole,
        remove,
        invitation: (token) =>
          Effect.flatMap(invited(token), (m) =>
            Option.isNone(m)
              ? Effect.succeed(Option.none())
              : Effect.map(tenancy.findMerchant(m.value.merchantId), (merchant) =>
                Option.some({ member: m.value, merchantName: Option.match(merchant, { onNone: () => "", onSome: (x) => x.name }) }))),
        accept: (token, password) => guarded(accept(token, password)),
        confirm: (token, code) => guarded(confirm(token, code)),
        signIn: (input) => guarded(signIn(input))
      })
    })
  )
}
