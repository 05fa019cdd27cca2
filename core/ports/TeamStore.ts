import { Context, type Effect, type Option } from "effect"
import type { TeamMember } from "../team/TeamMember.ts"

/** Merchants' team members (`core/team/`). */
export class TeamStore extends Context.Service<TeamStore, {
  /** False when the email is taken (by any merchant's team). */
  readonly insert: (member: TeamMember) => Effect.Effect<boolean>
  /** Writes `member` over version `member.version - 1`; false when another change came first. */
  readonly update: (member: TeamMember) => Effect.Effect<boolean>
  readonly find: (id: string) => Effect.Effect<Option.Option<TeamMember>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<TeamMember>>
  readonly findByInvitation: (tokenHash: string) => Effect.Effect<Option.Option<TeamMember>>
  /** A merchant's members, oldest first (removed ones too). */
  readonly list: (merchantId: string) => Effect.Effect<ReadonlyArray<TeamMember>>
}>()("core/ports/TeamStore") {}
