/** The console's sessions in memory. */
import { Effect, Layer, Option } from "effect"
import { type ConsoleSession, ConsoleSessionStore } from "../../../core/ports/ConsoleSessionStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

export const MemoryConsoleSessionStore = Layer.effect(
  ConsoleSessionStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const sessions = db.table<ConsoleSession>("console_sessions")
    return ConsoleSessionStore.of({
      insert: (session) => db.run(Effect.sync(() => void sessions.set(session.id, session))),
      find: (id) => db.run(Effect.sync(() => Option.fromNullishOr(sessions.get(id)))),
      reseal: (id, sealed) =>
        db.run(Effect.sync(() => {
          const session = sessions.get(id)
          if (session !== undefined) sessions.set(id, { ...session, sealed })
        })),
      remove: (id) => db.run(Effect.sync(() => void sessions.delete(id))),
      removeExpired: (now) =>
        db.run(Effect.sync(() => {
          const expired = [...sessions.values()].filter((s) => s.expiresAt.getTime() <= now.getTime())
          for (const s of expired) sessions.delete(s.id)
          return expired.length
        }))
    })
  })
)
