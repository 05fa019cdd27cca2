/** Team members on SQL (`team_members`): versioned JSON documents, the email and the invitation's hash in unique columns. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TeamStore } from "../../../core/ports/TeamStore.ts"
import { type TeamMember, TeamMemberJson } from "../../../core/team/TeamMember.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { date } from "./Rows.ts"

export const SqlTeamStore = Layer.effect(
  TeamStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const members = jsonDocuments(sql, "team_members", TeamMemberJson)
    const invitationHash = (m: TeamMember) => m.invitation?.tokenHash ?? null
    return TeamStore.of({
      insert: (m) =>
        members.insertIfAbsent(m, { id: m.id, merchantId: m.merchantId, email: m.email, invitationHash: invitationHash(m), version: m.version, createdAt: date(m.createdAt) }),
      update: (m) => members.update(m, m.id, m.version, sql`, invitation_hash = ${invitationHash(m)}`),
      find: (id) => members.first(sql`id = ${id}`),
      findByEmail: (email) => members.first(sql`email = ${email}`),
      findByInvitation: (tokenHash) => members.first(sql`invitation_hash = ${tokenHash}`),
      list: (merchantId) => members.select(sql`merchant_id = ${merchantId}`, sql`ORDER BY created_at, id`)
    })
  })
)
