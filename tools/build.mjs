// `npm run build` and `npm start`'s prestart: compile core, adapters, providers and host into
// dist/. With --if-stale it compiles only when the sources differ from the ones dist/ was built
// from (a SHA-256 over every compiled input, kept in dist/.sources-sha256), so `npm start` on an
// up-to-date build starts at once, and says so when it has to compile.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"

const repo = resolve(import.meta.dirname, "..")
const stamp = join(repo, "dist/.sources-sha256")
const roots = ["core", "adapters", "providers", "host", "vault"]
const configs = ["tsconfig.json", "tsconfig.build.json", "package.json"]

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : entry.name.endsWith(".ts") ? [path] : []
  })

const sourcesHash = () => {
  const hash = createHash("sha256")
  const files = [...roots.flatMap((root) => filesUnder(join(repo, root))), ...configs.map((name) => join(repo, name))]
  for (const file of files.sort()) hash.update(relative(repo, file)).update("\0").update(readFileSync(file)).update("\0")
  return hash.digest("hex")
}

const ifStale = process.argv.includes("--if-stale")
const before = sourcesHash()
if (ifStale && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === before) process.exit(0)

if (ifStale) {
  console.error(existsSync(stamp)
    ? "The sources changed since dist/ was built: compiling the host (npm run build)..."
    : "No build yet: compiling the host into dist/ (npm run build)...")
}
const started = Date.now()
// A fresh tree: what a moved or deleted source emitted before would otherwise stay in dist/ (and in the package).
for (const root of roots) rmSync(join(repo, "dist", root), { recursive: true, force: true })
const tsc = spawnSync(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  cwd: repo,
  stdio: "inherit"
})
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
mkdirSync(join(repo, "dist"), { recursive: true })
// The stamp names what was compiled: a source edited during the build leaves the next start to compile again.
writeFileSync(stamp, before === sourcesHash() ? `${before}\n` : "changed during the build\n")
if (ifStale) console.error(`Compiled in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
