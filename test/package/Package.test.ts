/**
 * The npm package as an embedder gets it: `npm pack` (of the `dist` that `npm test` has just
 * built), installed into an empty project, imported only by package name and subpaths, typechecked
 * with the project's own `tsc` (NodeNext) and run with `node`.
 *
 * The install is offline: the empty project gets a lockfile holding the tarball and, for its
 * dependencies, the production entries of this repository's lockfile (with their registry URLs),
 * so `npm ci --offline` takes exactly the versions the suite runs on from the cache `npm ci` filled.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const repo = resolve(import.meta.dirname, "../..")
const tsc = join(repo, "node_modules/.bin/tsc")
const packageName = "payment-orchestration-engine"

interface PackedFile {
  readonly path: string
}
interface Packed {
  readonly filename: string
  readonly size: number
  readonly unpackedSize: number
  readonly files: ReadonlyArray<PackedFile>
}
interface LockEntry {
  readonly name?: string
  readonly version: string
  readonly resolved?: string
  readonly dev?: boolean
  readonly devOptional?: boolean
  readonly link?: boolean
}

const npm = (args: ReadonlyArray<string>, cwd: string) => run("npm", [...args], { cwd, maxBuffer: 64 * 1024 * 1024 })

/** The embedder's lockfile: the tarball, and the repository's production dependency tree. */
const embedderLock = (tarball: string, registry: string) => {
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"))
  const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }
  const spec = `file:${tarball}`
  const packages: Record<string, unknown> = {
    "": { name: "embedder", dependencies: { [packageName]: spec } },
    [`node_modules/${packageName}`]: {
      version: pkg.version,
      resolved: spec,
      integrity: `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`,
      dependencies: pkg.dependencies,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta
    }
  }
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith("node_modules/") || entry.dev || entry.devOptional || entry.link) continue
    const name = entry.name ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length)
    // The repository's lockfile omits registry URLs (omit-lockfile-registry-resolved); with them
    // npm takes each tarball from the cache by URL and integrity, asking the registry nothing.
    packages[key] = { ...entry, resolved: entry.resolved ?? `${registry.replace(/\/$/, "")}/${name}/-/${name.split("/").pop()}-${entry.version}.tgz` }
  }
  return {
    packageJson: { name: "embedder", private: true, type: "module", dependencies: { [packageName]: spec } },
    lockfile: { name: "embedder", lockfileVersion: 3, requires: true, packages }
  }
}

/**
 * An embedder's program: only package-name imports. Not `/providers/conformance`: its suites and
 * their declarations need vitest and @effect/vitest (optional peers), which an embedder lacks.
 */
const program = `
import { createHmac } from "node:crypto"
import { Layer, ManagedRuntime, Option, Redacted } from "effect"
import { HttpWebhookSender, JoseTokenSigner } from "${packageName}/adapters"
import { Engine, EngineConfig, Merchants, Money } from "${packageName}/core"
import * as Root from "${packageName}"
import { toFetchHandler } from "${packageName}/http"
import { ProviderError, type PaymentProvider } from "${packageName}/ports"
import { UpstreamHttp } from "${packageName}/providers/kit"
import { SandboxProvider } from "${packageName}/providers/sandbox"
import { MemoryStore } from "${packageName}/store/memory"
import { SqlStore } from "${packageName}/store/sql"
import { verifyWebhook } from "${packageName}/webhooks"

// Every import has real types (a declaration that does not resolve would be \`any\`).
type IsAny<T> = 0 extends 1 & T ? true : false
const typed: ReadonlyArray<false> = [
  false as IsAny<typeof Engine.layer>, false as IsAny<typeof MemoryStore.layer>, false as IsAny<typeof SqlStore.pglite>,
  false as IsAny<typeof toFetchHandler>, false as IsAny<typeof verifyWebhook>, false as IsAny<PaymentProvider>,
  false as IsAny<typeof UpstreamHttp.make>, false as IsAny<typeof SandboxProvider.layer>,
  false as IsAny<typeof Merchants>, false as IsAny<typeof JoseTokenSigner.layer>
]

const publicUrl = "https://shop.example"
const sandboxCallbackSecret = Redacted.make("the-embedder-sandbox-callback-secret")
const engine = SandboxProvider.layer({ formBaseUrl: publicUrl, callbackSecret: sandboxCallbackSecret }).pipe(
  Layer.provideMerge(Engine.layer),
  Layer.provideMerge(JoseTokenSigner.layer(Redacted.make("an-embedder-secret-of-32-bytes!!"))),
  Layer.provideMerge(HttpWebhookSender.layer({ allowPrivateTargets: false })),
  Layer.provideMerge(Layer.succeed(EngineConfig, EngineConfig.of({
    publicUrl,
    checkoutUrl: publicUrl,
    fxMarkupPct: Money.decimal("2"),
    depositCallbackSecret: Redacted.make("the-embedder-deposit-secret")
  }))),
  Layer.provideMerge(MemoryStore.layer)
)
const runtime = ManagedRuntime.make(engine)
const api = toFetchHandler(engine, { adminToken: Option.none(), sandboxCallbackSecret, trustedProxies: 0 }, { memoMap: runtime.memoMap })

const { keys, merchant } = await runtime.runPromise(Merchants.use((m) => m.create({ name: "Acme", email: "ops@acme.example" })))
const auth = { authorization: \`Bearer \${keys.sandbox.secretKey}\` }
const ping = await api.handler(new Request(\`\${publicUrl}/api/v1/ping\`, { headers: auth }))
const me = await api.handler(new Request(\`\${publicUrl}/api/v1/me\`, { headers: auth }))
const created = await api.handler(new Request(\`\${publicUrl}/api/v1/payments\`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/json", "idempotency-key": "order-1", "sandbox-simulate": "paid" },
  body: JSON.stringify({ amount: 100, paymentMethodId: "sbx_pix", merchantOrderId: "order-1" })
}))
const payment = await created.json() as { readonly transactionId: string; readonly status: string }

const body = JSON.stringify({ id: "evt_1", type: "payment.completed" })
const t = Math.floor(Date.now() / 1000)
const header = \`t=\${t},v1=\${createHmac("sha256", "whsec_embedder").update(\`\${t}.\${body}\`).digest("hex")}\`

let deepImport = "allowed"
try {
  await import("${packageName}/dist/core/Engine.js" as string)
} catch (e) {
  deepImport = (e as { code?: string }).code ?? String(e)
}

console.log("RESULT " + JSON.stringify({
  typed: typed.length,
  rootIsCore: Root.Engine === Engine,
  ping: ping.status,
  me: [me.status, ((await me.json()) as { id: string }).id === merchant.id],
  payment: [created.status, payment.status, payment.transactionId.startsWith("TXN")],
  webhook: [(await verifyWebhook(body, header, "whsec_embedder")).valid, (await verifyWebhook(body + " ", header, "whsec_embedder")).reason],
  providerError: new ProviderError({ providerId: "x", reason: "declined", message: "no", retryable: false })._tag,
  deepImport
}))
await api.dispose()
await runtime.dispose()
`

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    // The package's declarations are checked too, not only used.
    skipLibCheck: false,
    outDir: "out",
    types: ["node"],
    // Node's types come from the repository: the embedder's own dev dependency.
    typeRoots: [join(repo, "node_modules/@types")]
  },
  include: ["main.ts"]
}

describe("the npm package", () => {
  it("packs dist only, installs offline into an empty project, typechecks and runs by package name", { timeout: 120_000 }, async () => {
    // `npm test` builds before vitest runs; alone, this test builds what is missing.
    if (!existsSync(join(repo, "dist/core/index.js"))) await run(tsc, ["-p", join(repo, "tsconfig.build.json")], { cwd: repo })
    const work = mkdtempSync(join(tmpdir(), "poe-package-"))
    try {
      // --ignore-scripts: no prepack rebuild of the dist other tests may be running from.
      const packOut = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work], repo)
      const packed = (JSON.parse(packOut.stdout) as ReadonlyArray<Packed>)[0]!
      const paths = packed.files.map((f) => f.path)
      const stray = paths.filter((p) => !(p.startsWith("dist/") || p === "package.json" || /^(README|LICENSE|NOTICE)/i.test(p)))
      assert.deepStrictEqual(stray, [], "only dist, package.json, README and licence files")
      assert.deepStrictEqual(paths.filter((p) => /\.test\.|\.conformance\.|(^|\/)test\//.test(p)), [])
      assert.deepStrictEqual(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts")), [], "no TypeScript sources")
      const exportsMap = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).exports as Record<string, string | { types: string; default: string }>
      for (const [subpath, target] of Object.entries(exportsMap)) {
        if (typeof target === "string") continue
        assert.include(paths, target.types.slice(2), `${subpath}: types`)
        assert.include(paths, target.default.slice(2), `${subpath}: JavaScript`)
      }
      assert.include(paths, "dist/host/main.js", "the reference host's compiled entry")

      const app = join(work, "app")
      const registry = (await npm(["config", "get", "registry"], repo)).stdout.trim()
      const { lockfile, packageJson } = embedderLock(join(work, packed.filename), registry)
      await run("mkdir", ["-p", app])
      writeFileSync(join(app, "package.json"), JSON.stringify(packageJson, null, 2))
      writeFileSync(join(app, "package-lock.json"), JSON.stringify(lockfile, null, 2))
      writeFileSync(join(app, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
      writeFileSync(join(app, "main.ts"), program)
      const installStart = Date.now()
      await npm(["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], app)
      const installMs = Date.now() - installStart
      assert.isTrue(existsSync(join(app, "node_modules", packageName, "dist/core/index.d.ts")))

      await run(tsc, ["-p", join(app, "tsconfig.json")], { cwd: app }).catch((e: { stdout?: string }) => {
        assert.fail(`the embedder's program does not typecheck:\n${e.stdout ?? String(e)}`)
      })
      const { stdout } = await run("node", [join(app, "out/main.js")], { cwd: app, env: { ...process.env, NODE_OPTIONS: "" } })
      const line = stdout.split("\n").find((l) => l.startsWith("RESULT "))
      assert.isDefined(line, stdout)
      assert.deepStrictEqual(JSON.parse(line!.slice("RESULT ".length)), {
        typed: 10,
        rootIsCore: true,
        ping: 200,
        me: [200, true],
        payment: [201, "pending", true],
        webhook: [true, "mismatch"],
        providerError: "ProviderError",
        deepImport: "ERR_PACKAGE_PATH_NOT_EXPORTED"
      })
      console.log(`package: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${paths.length} files; offline install ${installMs} ms`)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })
})
