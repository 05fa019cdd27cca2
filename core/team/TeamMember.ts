/**
 * A person on a merchant's team (`Team.ts`): signs in to the console as themselves with an email,
 * a password and a one-time code, and acts with their role's grants (`Roles.ts`) in either
 * environment. An invited member has an invitation (its token stored as a hash, with an expiry)
 * until they set a password and confirm a code; a removed member's credentials are revoked.
 */
import { Schema } from "effect"
import { Environment } from "../Environment.ts"
import { roles } from "./Roles.ts"

export const TeamMember = Schema.Struct({
  id: Schema.String,
  merchantId: Schema.String,
  /** Lowercase; one team per email. */
  email: Schema.String,
  name: Schema.String,
  role: Schema.Literals(roles),
  status: Schema.Literals(["invited", "active", "removed"]),
  /** `Passwords.hash` of the member's password; null until the invitation is accepted. */
  passwordHash: Schema.NullOr(Schema.String),
  /** The TOTP secret, sealed (`Sealing`, context `team-member:<id>:totp`); `confirmed` once a code proved it. */
  totp: Schema.NullOr(Schema.Struct({ sealed: Schema.String, confirmed: Schema.Boolean })),
  invitation: Schema.NullOr(Schema.Struct({ tokenHash: Schema.String, expiresAt: Schema.DateTimeUtc })),
  /** The credential the member signs in with, per environment (`Credential.userId`); null until active. */
  credentials: Schema.NullOr(Schema.Record(Environment, Schema.String)),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc,
  version: Schema.Int
})
export type TeamMember = typeof TeamMember.Type

export const TeamMemberJson = Schema.toCodecJson(TeamMember)
