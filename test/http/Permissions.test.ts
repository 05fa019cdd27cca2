/**
 * The permission matrix of restricted keys, generated from the API's own operation list: every
 * operation that takes a key names what it needs (a new group or operation without an entry
 * fails here), and the table in docs/merchant-api.md ("Restricted keys") is exactly the
 * generated one. On a mismatch the message carries the table to paste.
 */
import { assert, describe, it } from "@effect/vitest"
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup, type HttpApiMiddleware } from "effect/http-api"
import { readFileSync } from "node:fs"
import { PublicApi } from "../../adapters/http/api/Api.ts"
import { neededBy } from "../../adapters/http/api/Permissions.ts"
import { neededText } from "../../core/auth/Permissions.ts"

const keyed = new Set(["adapters/http/SecretKey", "adapters/http/AnyKey"])

const operations = () => {
  const rows: Array<{ readonly group: string; readonly endpoint: HttpApiEndpoint.Top; readonly takesKey: boolean }> = []
  HttpApi.reflect(PublicApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, middleware }: { group: HttpApiGroup.Top; endpoint: HttpApiEndpoint.Top; middleware: ReadonlySet<HttpApiMiddleware.AnyService> }) => {
      rows.push({ group: group.identifier, endpoint, takesKey: [...middleware].some((m) => keyed.has(m.key)) })
    }
  })
  return rows
}

const table = () => [
  "| operation | a restricted key needs |",
  "| --- | --- |",
  ...operations().filter((o) => o.takesKey).map(({ endpoint, group }) => {
    const needed = neededBy(group, endpoint)
    return `| \`${endpoint.method} ${endpoint.path}\` | ${needed === null || needed === undefined ? "any key" : needed === "keys" ? neededText(needed) : `\`${neededText(needed)}\``} |`
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
    const shown = /<!-- permissions:start -->\n([\s\S]*?)\n<!-- permissions:end -->/.exec(guide)?.[1]
    assert.strictEqual(shown, table(), `docs/merchant-api.md, between the permissions markers, should read:\n${table()}`)
  })
})
