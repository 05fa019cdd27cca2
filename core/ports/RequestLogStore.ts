import { Context, type Effect } from "effect"
import type { Environment } from "../Environment.ts"

/** How many requests a shop's log keeps per environment. */
export const requestLogSize = 100

/** One authenticated API request, as the merchant's request log shows it. */
export interface LoggedRequest {
  readonly environment: Environment
  readonly shopId: string
  readonly requestId: string
  readonly method: string
  /** The path only: a query string can carry an email, a phone or a document number. */
  readonly path: string
  readonly status: number
  readonly durationMs: number
  /** When it arrived, epoch milliseconds. */
  readonly atMs: number
}

/**
 * The merchant's request log, shared by the host's replicas and kept across restarts, the last
 * `requestLogSize` per environment and shop. `record` is on the request path: it only queues
 * (SQL writes the queue in one statement every few tens of milliseconds, and at shutdown; a
 * crash loses that moment's lines, as they are a log, not records).
 */
export class RequestLogStore extends Context.Service<RequestLogStore, {
  readonly record: (request: LoggedRequest) => void
  /** Newest first, at most `requestLogSize`. */
  readonly recent: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<LoggedRequest>>
}>()("core/ports/RequestLogStore") {}
