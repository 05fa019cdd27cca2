/**
 * The README is read in a clone of the repository, where nothing beside it exists: every path it
 * names and every relative link in it resolves inside the repository.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"

const repo = resolve(import.meta.dirname, "../..")
const readme = readFileSync(join(repo, "README.md"), "utf8")

describe("README", () => {
  it("points nowhere outside the repository", () => {
    assert.notMatch(readme, /\.\.\/shared\b/, "../shared does not exist in a clone")
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l))
    assert.isAbove(links.length, 0)
    for (const link of links) assert.isTrue(existsSync(join(repo, link)), `README links to ${link}, which is not in the repository`)
  })

  it("names only files that exist when it names a repository path in backticks", () => {
    const named = [...readme.matchAll(/`((?:core|adapters|providers|host|test|bench|examples|docs|tools)\/[A-Za-z0-9_./-]+\.(?:ts|md|json))`/g)].map((m) => m[1]!)
    assert.isAbove(named.length, 10)
    const missing = [...new Set(named)].filter((path) => !existsSync(join(repo, path)))
    assert.deepStrictEqual(missing, [])
  })
})
