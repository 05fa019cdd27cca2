import { Context, type DateTime, type Effect } from "effect"

/**
 * The test clock of each sandbox shop: how far its time runs ahead of the real clock. A shop
 * whose clock never moved has offset 0. Offsets only grow (a test clock never goes back), so
 * whatever was due stays due.
 */
export class SandboxClockStore extends Context.Service<SandboxClockStore, {
  /** The shop's offset in milliseconds; 0 when its clock never moved. */
  readonly offset: (shopId: string) => Effect.Effect<number>
  /** Adds `byMs` (> 0) to the shop's offset in one atomic step; answers the new offset. */
  readonly advance: (shopId: string, byMs: number, at: DateTime.Utc) => Effect.Effect<number>
}>()("core/ports/SandboxClockStore") {}
