/**
 * The README and the guides under `docs/` are read in a clone of the repository, where nothing
 * beside it exists: every path they name and every relative link in them resolves inside the
 * repository, and a link to a section of a guide names a heading that guide has.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const repo = resolve(import.meta.dirname, "../..")
const documents = ["README.md", ...readdirSync(join(repo, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)]
const read = (path: string) => readFileSync(join(repo, path), "utf8")

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string) =>
  heading.trim().toLowerCase().replace(/[`*_]/g, "").replace(/[^\p{L}\p{N} -]/gu, "").replace(/ /g, "-")
const anchorsOf = (path: string) => new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)))

/** Every relative link of a document, resolved from its folder: the file, and the section it names. */
const linksOf = (path: string) =>
  [...read(path).matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)]
    .filter((m) => !/^[a-z]+:/.test(m[1]!))
    .map((m) => ({ target: m[1] === "" ? path : relative(repo, join(repo, dirname(path), m[1]!)), section: m[2] }))

describe("README and docs", () => {
  it("the README points to the guides", () => {
    const guides = linksOf("README.md").map((l) => l.target).filter((t) => t.startsWith("docs/"))
    for (const guide of ["merchant-api", "embedding", "connectors", "operating", "architecture", "money"]) assert.include(guides, `docs/${guide}.md`)
  })

  for (const path of documents) {
    it(`${path} points nowhere outside the repository`, () => {
      const text = read(path)
      assert.notMatch(text, /\.\.\/shared\b/, "../shared does not exist in a clone")
      const links = linksOf(path)
      if (path === "README.md") assert.isAbove(links.length, 0)
      for (const { target, section } of links) {
        assert.isTrue(!target.startsWith("..") && existsSync(join(repo, target)), `${path} links to ${target}, which is not in the repository`)
        if (section !== undefined && target.endsWith(".md")) assert.isTrue(anchorsOf(target).has(section), `${path} links to ${target}#${section}, a heading ${target} does not have`)
      }
    })
  }

  it("names only files that exist when it names a repository path in backticks", () => {
    const named = documents.flatMap((path) =>
      [...read(path).matchAll(/`((?:core|adapters|providers|host|test|bench|examples|docs|tools)\/[A-Za-z0-9_./-]+\.(?:ts|md|json))`/g)].map((m) => ({ path, named: m[1]! }))
    )
    assert.isAbove(named.length, 10)
    const missing = [...new Set(named.filter((n) => !existsSync(join(repo, n.named))).map((n) => `${n.path}: ${n.named}`))]
    assert.deepStrictEqual(missing, [])
  })
})
