/**
 * What a restricted API key may do (as Stripe's restricted keys): a list of permissions, each a
 * resource and an access, `payments:write` or `refunds:read`; `write` includes `read`. A full
 * secret key (or an access token minted from its pair) holds every permission; a restricted key
 * holds the ones it was created with, and no key management at all (`keys` is not grantable).
 * Which permission each operation needs is the HTTP adapter's (`adapters/http/api/Permissions.ts`).
 */
export const resources = [
  "payments", "refunds", "checkout", "balance", "payouts", "deposits", "settlements", "webhooks", "events", "sandbox"
] as const
export type Resource = (typeof resources)[number]

export type Access = "read" | "write"

export type Permission = `${Resource}:${Access}`

/** Every permission a restricted key can be given, in the order of `resources`. */
export const permissions: ReadonlyArray<Permission> = resources.flatMap((r) => [`${r}:read`, `${r}:write`] as const)

export const isPermission = (value: string): value is Permission => (permissions as ReadonlyArray<string>).includes(value)

/**
 * What a credential may hold: permissions, and for a team member's role (`core/team/Roles.ts`)
 * `keys`, the developer tools (key pairs, restricted keys, the request log), which no restricted
 * key can be given.
 */
export type Grant = Permission | "keys"

/**
 * What one operation needs: a resource at an access; `keys` (a full secret key, or a role that
 * holds `keys`); or `team` (managing the team: a full secret key, or the owner's or an admin's role).
 */
export type Needed = { readonly resource: Resource; readonly access: Access } | "keys" | "team"

/** Whether a credential holding `granted` (null: a full secret key) may call an operation that needs `needed` (null: any key). */
export const allows = (granted: ReadonlyArray<Grant> | null, needed: Needed | null): boolean => {
  if (granted === null || needed === null) return true
  if (needed === "team") return false
  if (needed === "keys") return granted.includes("keys")
  return granted.includes(`${needed.resource}:write`) || (needed.access === "read" && granted.includes(`${needed.resource}:read`))
}

/** How a needed permission is written in an error and in the documents. */
export const neededText = (needed: Needed): string =>
  needed === "keys" ? "a full secret key" : needed === "team" ? "a full secret key (the owner or an admin)" : `${needed.resource}:${needed.access}`
