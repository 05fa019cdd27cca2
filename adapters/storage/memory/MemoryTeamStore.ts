/** Team members in memory. */
import { Effect, Layer, Option } from "effect"
import { TeamStore } from "../../../core/ports/TeamStore.ts"
import type { TeamMember } from "../../../core/team/TeamMember.ts"
import { MemoryDb } from "./MemoryDb.ts"

export const MemoryTeamStore = Layer.effect(
  TeamStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const members = db.table<TeamMember>("team_members")
    const where = (p: (m: TeamMember) => boolean) => db.run(Effect.sync(() => Option.fromNullishOr(Array.from(members.values()).find(p))))
    return TeamStore.of({
      insert: (member) =>
        db.run(Effect.sync(() => {
          if (Array.from(members.values()).some((m) => m.email === member.email)) return false
          members.set(member.id, member)
          return true
        })),
      update: (member) =>
        db.run(Effect.sync(() => {
          if (members.get(member.id)?.version !== member.version - 1) return false
          members.set(member.id, member)
          return true
        })),
      find: (id) => db.run(Effect.sync(() => Option.fromNullishOr(members.get(id)))),
      findByEmail: (email) => where((m) => m.email === email),
      findByInvitation: (tokenHash) => where((m) => m.invitation?.tokenHash === tokenHash),
      list: (merchantId) =>
        db.run(Effect.sync(() =>
          Array.from(members.values()).filter((m) => m.merchantId === merchantId)
            .sort((a, b) => a.createdAt.epochMilliseconds - b.createdAt.epochMilliseconds || a.id.localeCompare(b.id))
        ))
    })
  })
)
