import { Context, type Effect, Schema } from "effect"

/** The store did not answer its trivial query (unreachable, refused, broken connection). */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  message: Schema.String
}) {}

/**
 * Whether the store answers at all, for the host's readiness probe: one trivial round trip, no
 * table read. The caller bounds how long it waits.
 */
export class StoreHealth extends Context.Service<StoreHealth, {
  readonly ping: Effect.Effect<void, StoreUnavailable>
}>()("core/ports/StoreHealth") {}
