/**
 * The dependency rules of docs/architecture.md, read from the sources' imports: `core` imports no adapter,
 * host or provider, and knows no HTTP (statuses are `adapters/http/api/ErrorStatus.ts`); a provider plugin imports from `core` only the ports (`core/ports/`, whose entry
 * re-exports the values a port speaks in) and the package's public entry (`core/index.ts`); routing's parts do not import back
 * up into payments (payments use routing, not the other way round).
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"

const root = join(import.meta.dirname, "../..")

const sources = (folder: string): ReadonlyArray<string> =>
  readdirSync(join(root, folder)).flatMap((name) => {
    const path = join(folder, name)
    return statSync(join(root, path)).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })

/** Every relative import of a file, as a path from the repository's root. */
const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(join(root, file), "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((m) => normalize(relative(root, join(root, dirname(file), m[1]!))))

const breaking = (folder: string, allowed: (target: string) => boolean) =>
  sources(folder).flatMap((file) => importsOf(file).filter((target) => !allowed(target)).map((target) => `${file} -> ${target}`))

describe("dependency rules", () => {
  it("core imports nothing outside core", () => {
    assert.deepStrictEqual(breaking("core", (t) => t.startsWith("core/")), [])
  })

  it("core knows no HTTP: no import of effect/http, and no status code in its error catalog", () => {
    const http = sources("core").filter((file) => /from "effect\/http/.test(readFileSync(join(root, file), "utf8")))
    assert.deepStrictEqual(http, [])
    assert.notMatch(readFileSync(join(root, "core/ApiError.ts"), "utf8"), /status: \d{3}|entry\(\s*\d{3}/)
  })

  it("a provider imports from core only the ports and the package's public entry", () => {
    // What a plugin outside the repository can reach: `/ports` and the package root. The values
    // the ports speak in (money, environment, catalog types, signatures) are re-exported there.
    assert.deepStrictEqual(
      breaking("providers", (t) => !t.startsWith("core/") || t.startsWith("core/ports/") || t === "core/index.ts"),
      []
    )
  })

  it("adapters import no provider, and the sandbox provider's id is written once (core/ports/SandboxForm.ts)", () => {
    assert.deepStrictEqual(breaking("adapters", (t) => !t.startsWith("providers/")), [])
    const written = ["adapters", "core", "host", "providers"].flatMap(sources)
      .filter((file) => /sandboxProviderId\s*=/.test(readFileSync(join(root, file), "utf8")))
    assert.deepStrictEqual(written, ["core/ports/SandboxForm.ts"])
  })

  it("no two files of core, adapters, providers or host import each other, not even for a type", () => {
    // A type-only circle still says the two files are one piece cut in two.
    const imports = (file: string) =>
      [...readFileSync(join(root, file), "utf8").matchAll(/^(?:import|export) [^"]*from "(\.{1,2}\/[^"]+)"/gm)]
        .map((m) => normalize(relative(root, join(root, dirname(file), m[1]!))))
    const files = ["core", "adapters", "providers", "host"].flatMap(sources)
    const edges = new Map(files.map((file) => [file, imports(file)]))
    const circles = files.flatMap((a) => (edges.get(a) ?? []).filter((b) => a < b && (edges.get(b) ?? []).includes(a)).map((b) => `${a} <-> ${b}`))
    assert.deepStrictEqual(circles, [])
  })

  it("routing does not import back up into payments", () => {
    assert.deepStrictEqual(breaking("core/routing", (t) => !t.startsWith("core/payments/")), [])
  })
})
