/** Handlers of the merchant's team: members listed, invited, given a role, removed. */
import { DateTime, Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import { Team } from "../../../../core/team/Team.ts"
import { SingleSignOn } from "../../../../core/team/SingleSignOn.ts"
import type { TeamMember } from "../../../../core/team/TeamMember.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

const view = (m: TeamMember) => ({
  id: m.id,
  object: "team_member" as const,
  email: m.email,
  name: m.name,
  role: m.role,
  status: m.status,
  createdAt: DateTime.formatIso(m.createdAt),
  updatedAt: DateTime.formatIso(m.updatedAt)
})
const current = (m: TeamMember) => ({ ...view(m), status: m.status === "removed" ? "invited" as const : m.status })

export const TeamHandlers = HttpApiBuilder.group(Api, "team", (handlers) =>
  Effect.gen(function*() {
    const team = yield* Team
    const sso = yield* SingleSignOn
    const actor = Effect.map(CurrentPrincipal, (p) => ({ credential: p.credential }))
    return handlers.handleAll({
      list: () => documented("team.list", Effect.map(Effect.flatMap(actor, team.list), (all) => ({ data: all.map(current) }))),
      invite: ({ payload }) =>
        documented("team.invite", Effect.map(Effect.flatMap(actor, (a) => team.invite(a, { email: payload.email, name: payload.name ?? "", role: payload.role })), (invited) => ({
          member: current(invited.member),
          invitation: { expiresAt: DateTime.formatIso(invited.expiresAt), emailedTo: invited.emailedTo, url: invited.url }
        }))),
      update: ({ params, payload }) => documented("team.update", Effect.map(Effect.flatMap(actor, (a) => team.changeRole(a, params.id, payload.role)), current)),
      remove: ({ params }) => documented("team.remove", Effect.map(Effect.flatMap(actor, (a) => team.remove(a, params.id)), view)),
      getSingleSignOn: () =>
        documented("team.getSingleSignOn", Effect.map(Effect.flatMap(CurrentPrincipal, (p) => sso.provider(p.credential)), (p) => ({ provider: Option.getOrNull(p) }))),
      putSingleSignOn: ({ payload }) => documented("team.putSingleSignOn", Effect.flatMap(CurrentPrincipal, (p) => sso.configure(p.credential, payload))),
      removeSingleSignOn: () => documented("team.removeSingleSignOn", Effect.as(Effect.flatMap(CurrentPrincipal, (p) => sso.remove(p.credential)), { removed: true }))
    })
  }))
