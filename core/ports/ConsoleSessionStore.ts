import { Context, type Effect, type Option } from "effect"
import type { Environment } from "../Environment.ts"

/**
 * A console sign-in, kept server-side so that replicas share it and signing out ends it. The
 * browser holds `id` and a secret; the store keeps only the secret's hash and the credential the
 * session acts with, sealed under a key derived from that secret (the store alone cannot open it).
 */
export interface ConsoleSession {
  readonly id: string
  readonly secretHash: string
  readonly kind: "merchant" | "operator"
  /** The environment a merchant session sees; null for an operator. */
  readonly environment: Environment | null
  readonly csrfToken: string
  readonly sealed: string
  readonly createdAt: Date
  readonly expiresAt: Date
}

export class ConsoleSessionStore extends Context.Service<ConsoleSessionStore, {
  readonly insert: (session: ConsoleSession) => Effect.Effect<void>
  readonly find: (id: string) => Effect.Effect<Option.Option<ConsoleSession>>
  /** Replaces what a session acts with (its sealed credential); nothing for an unknown one. */
  readonly reseal: (id: string, sealed: string) => Effect.Effect<void>
  /** Ends a session; ending an unknown one is not an error. */
  readonly remove: (id: string) => Effect.Effect<void>
  /** Forgets the sessions that expired before `now`; answers how many. */
  readonly removeExpired: (now: Date) => Effect.Effect<number>
}>()("core/ports/ConsoleSessionStore") {}
