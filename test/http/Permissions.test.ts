/**
 * The permission matrix of restricted keys, generated from the API's own operation list: every
 * operation that takes a key names what it needs (a new group or operation without an entry
 * fails here), and the table in docs/merchant-api.md ("Restricted keys") is exactly the
 * generated one. On a mismatch the message carries the table to paste.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { neededBy } from "../../adapters/http/api/Permissions.ts"
import { neededText } from "../../core/auth/Permissions.ts"
import { between, operations } from "../support/Operations.ts"

const table = () => [
  "| operation | a restricted key needs |",
  "| --- | --- |",
  ...operations().filter((o) => o.takesKey).map(({ endpoint, group }) => {
    const needed = neededBy(group, endpoint)
    return `| \`${endpoint.method} ${endpoint.path}\` | ${needed === null || needed === undefined ? "any key" : needed === "keys" || needed === "team" ? neededText(needed) : `\`${neededText(needed)}\``} |`
  })
].join("\n")

describe("restricted keys' permission matrix", () => {
  it("names what every operation that takes a key needs, and only those", () => {
    for (const { group, endpoint, takesKey } of operations()) {
      const needed = neededBy(group, endpoint)
      if (takesKey) assert.notStrictEqual(needed, undefined, `${group}.${endpoint.identifier} takes a key: adapters/http/api/Permissions.ts must say what it needs`)
      else assert.strictEqual(needed, undefined, `${group}.${endpoint.identifier} takes no key`)
    }
  })

  it("is the table of the merchant guide", () => {
    const guide = readFileSync(new URL("../../docs/merchant-api.md", import.meta.url), "utf8")
    const shown = between(guide, "permissions")
    assert.strictEqual(shown, table(), `docs/merchant-api.md, between the permissions markers, should read:\n${table()}`)
  })
})
