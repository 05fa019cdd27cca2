import { Context, type Effect, type Option } from "effect"
import type { CheckoutSession } from "../checkout/CheckoutSession.ts"

export class CheckoutSessionStore extends Context.Service<CheckoutSessionStore, {
  readonly insert: (session: CheckoutSession) => Effect.Effect<void>
  readonly findByToken: (token: string) => Effect.Effect<Option.Option<CheckoutSession>>
  /** Writes `session` if the stored version is `session.version - 1`; false when another writer won. */
  readonly update: (session: CheckoutSession) => Effect.Effect<boolean>
}>()("core/ports/CheckoutSessionStore") {}
