/**
 * A merchant's team members' roles and what each holds (`core/auth/Permissions.ts`): the owner
 * and admins hold everything a full secret key does, team management included; the others a
 * fixed set of grants, checked on every API call their console session makes, as a restricted
 * key's permissions are. `test/http/TeamRoles.test.ts` checks every operation against every role
 * and the table in docs/merchant-api.md.
 */
import { type Grant, type Permission, resources } from "../auth/Permissions.ts"

export const roles = ["owner", "admin", "developer", "finance", "support", "viewer"] as const
export type Role = (typeof roles)[number]

const reads: ReadonlyArray<Permission> = resources.map((r) => `${r}:read` as const)

/** What each role holds; null: everything (a full secret key's). */
export const grantsOf: { readonly [R in Role]: ReadonlyArray<Grant> | null } = {
  owner: null,
  admin: null,
  /** Keys, restricted keys, the request log, webhooks and the sandbox; reads the rest. */
  developer: [...reads, "keys", "webhooks:write", "events:write", "sandbox:write"],
  /** Balances, swaps, settlements and statements, payouts and withdrawals; reads the rest. */
  finance: [...reads, "balance:write", "settlements:write", "payouts:write"],
  /** Payments and refunds (and hosted checkout); reads the rest but keys. */
  support: [...reads, "payments:write", "refunds:write", "checkout:write"],
  viewer: reads
}

export const describeRole: { readonly [R in Role]: string } = {
  owner: "everything, the team included; only an owner makes or removes another owner",
  admin: "everything, the team included, but owners",
  developer: "key pairs, restricted keys, the request log, webhooks, the sandbox; reads the rest",
  finance: "balances, swaps, settlements and statements, payouts and withdrawals; reads the rest",
  support: "payments, refunds and hosted checkout; reads the rest",
  viewer: "reads everything but keys"
}
