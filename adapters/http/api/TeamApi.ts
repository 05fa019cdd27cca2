/** A merchant's team (`core/team/`): members who sign in to the console as themselves, each with a role. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { roles } from "../../../core/team/Roles.ts"
import { IsoDateTime, RequiredText, Text } from "./Fields.ts"
import { SecretKey } from "./Security.ts"
import { secretKey, withErrors } from "./EndpointErrors.ts"

const Role = Schema.Literals(roles).annotate({
  description: "owner and admin: everything, the team included (only an owner manages owners); developer: keys, restricted keys, the request log, " +
    "webhooks, the sandbox; finance: balances, swaps, settlements and statements, payouts and withdrawals; support: payments, refunds and hosted " +
    "checkout; viewer: reads. Each but owner and admin reads the rest, keys excepted."
})

export const TeamMemberView = Schema.Struct({
  id: Schema.String,
  object: Schema.Literal("team_member"),
  email: Schema.String,
  name: Schema.String,
  role: Role,
  status: Schema.Literals(["invited", "active"]),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime
}).annotate({ identifier: "TeamMember" })

const Id = { id: Text(64) }

const SsoView = Schema.Struct({ issuer: Schema.String, clientId: Schema.String }).annotate({ identifier: "SingleSignOn" })

export class TeamApi extends HttpApiGroup.make("team")
  .add(
    HttpApiEndpoint.get("list", "/team/members", { success: Schema.Struct({ data: Schema.Array(TeamMemberView) }) })
      .annotate(OpenApi.Description, "The merchant's team members, invited and active, oldest first."),
    HttpApiEndpoint.post("invite", "/team/members", {
      payload: Schema.Struct({ email: Text(320), name: Schema.optional(RequiredText(200)), role: Role }),
      success: Schema.Struct({
        member: TeamMemberView,
        invitation: Schema.Struct({
          expiresAt: IsoDateTime.annotate({ description: "72 hours from now" }),
          emailedTo: Schema.NullOr(Schema.String).annotate({ description: "Where the link was emailed (the host's SMTP_URL)" }),
          url: Schema.NullOr(Schema.String).annotate({ description: "The link itself when it was not emailed (a host with no mail server, or one that refused it): pass it on to the person yourself" })
        })
      }).pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "Invites a person by email: the link (valid 72 hours) lets them set a password and enrol an authenticator app, then sign in to the console as themselves. " +
        "Inviting an invited member again sends a new link (the old one stops working). An email already active on a team is refused (400)."
    ),
    HttpApiEndpoint.patch("update", "/team/members/:id", { params: Id, payload: Schema.Struct({ role: Role }), success: TeamMemberView })
      .annotate(OpenApi.Description, "Changes a member's role. The member's sessions end at once: they sign in again with the new role."),
    HttpApiEndpoint.delete("remove", "/team/members/:id", { params: Id, success: TeamMemberView.mapFields((f) => ({ ...f, status: Schema.Literals(["invited", "active", "removed"]) })) })
      .annotate(OpenApi.Description, "Removes a member: every session and token of theirs ends at once, on every replica.")
  )
  .add(
    HttpApiEndpoint.get("getSingleSignOn", "/team/single-sign-on", { success: Schema.Struct({ provider: Schema.NullOr(SsoView) }) })
      .annotate(OpenApi.Description, "The merchant's identity provider for its members' sign-in (OpenID Connect), without its client secret; null when there is none."),
    HttpApiEndpoint.put("putSingleSignOn", "/team/single-sign-on", {
      payload: Schema.Struct({
        issuer: Text(2000).annotate({ description: "The provider's issuer URL (https; http only on loopback); its /.well-known/openid-configuration is read" }),
        clientId: RequiredText(500),
        clientSecret: RequiredText(2000).annotate({ description: "Sealed as it arrives, never answered" })
      }),
      success: SsoView
    }).annotate(
      OpenApi.Description,
      "Lets the merchant's active members sign in at its identity provider (authorization code with PKCE, scope openid email; register the console's /console/sso/callback as a redirect URI). " +
        "The ID token's email must be verified and be the member's. Members keep their password and code too."
    ),
    HttpApiEndpoint.delete("removeSingleSignOn", "/team/single-sign-on", { success: Schema.Struct({ removed: Schema.Boolean }) })
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Team")
  .pipe(withErrors({
    list: secretKey,
    invite: [...secretKey, "team_unavailable"],
    update: secretKey,
    remove: secretKey,
    getSingleSignOn: secretKey,
    putSingleSignOn: [...secretKey, "team_unavailable"],
    removeSingleSignOn: secretKey
  }))
{}
