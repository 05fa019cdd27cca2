/**
 * The permission each merchant operation needs from a restricted key (`core/auth/Permissions.ts`):
 * its group's resource, `read` for GET and HEAD and `write` for anything else. An operation that
 * any key may call (the catalog, the instalment quote, `GET /me`, ping) needs none; the developer
 * tools (keys, the request log, restricted keys themselves) need a full secret key. A group
 * missing here is a compile error, and `test/http/Permissions.test.ts` checks the matrix against
 * every operation of the API and against the table in docs/merchant-api.md.
 */
import type { HttpApiEndpoint } from "effect/http-api"
import type { Needed, Resource } from "../../../core/auth/Permissions.ts"

/** The merchant groups whose operations take a key, and what each needs. */
const byGroup = {
  ping: null,
  catalog: null,
  installments: null,
  identity: "balance",
  payments: "payments",
  authorizations: "payments",
  cardSessions: "payments",
  claims: "refunds",
  checkout: "checkout",
  webhooks: "webhooks",
  events: "events",
  developers: "keys",
  audit: "keys",
  team: "team",
  connectorAccounts: "keys",
  deposits: "deposits",
  payouts: "payouts",
  withdrawals: "payouts",
  settlements: "settlements",
  sandbox: "sandbox"
} as const satisfies Readonly<Record<string, Resource | "keys" | "team" | null>>

export type KeyedGroup = keyof typeof byGroup

/** Operations whose need is not their group's: `GET /me` answers who is calling, to any key. */
const byOperation: Readonly<Record<string, Needed | null>> = {
  "identity.me": null
}

const isKeyedGroup = (group: string): group is KeyedGroup => Object.hasOwn(byGroup, group)

/** What `group.endpoint` needs; undefined for an operation that takes no key (callbacks, hosted checkout, the admin API). */
export const neededBy = (group: string, endpoint: Pick<HttpApiEndpoint.Top, "identifier" | "method">): Needed | null | undefined => {
  const id = `${group}.${endpoint.identifier}`
  if (Object.hasOwn(byOperation, id)) return byOperation[id]
  if (!isKeyedGroup(group)) return undefined
  const resource = byGroup[group]
  if (resource === null || resource === "keys" || resource === "team") return resource
  return { resource, access: endpoint.method === "GET" || endpoint.method === "HEAD" ? "read" : "write" }
}
