import { Context } from "effect"
import type { AuditEntry } from "../ports/AuditStore.ts"

/**
 * Who is making the change being recorded, from where, by which operation: provided for each
 * request by the HTTP layer's security middlewares; absent in the engine's own jobs (`system`).
 */
export class AuditContext extends Context.Service<AuditContext, {
  readonly actor: AuditEntry["actor"]
  readonly ip: string | null
  readonly operation: string
}>()("core/audit/AuditContext") {}
