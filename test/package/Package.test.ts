/**
 * The npm package as an embedder gets it: `npm pack` (of the `dist` that `npm test` has just
 * built), installed into a project made by `npm init -y`, imported only by package name and
 * subpaths, typechecked with `tsc` (NodeNext) and run with `node`; the embedding guide's "Install
 * as a library" program and every file of `examples/` are copied there and run as written.
 *
 * The install is offline: the empty project gets a lockfile holding the tarball and, for its
 * dependencies, the production entries of this repository's lockfile (with their registry URLs),
 * so `npm ci --offline` takes exactly the versions the suite runs on from the cache `npm ci` filled.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { execFile, spawn } from "node:child_process"
import { createHash, createHmac } from "node:crypto"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const repo = resolve(import.meta.dirname, "../..")
const tsc = join(repo, "node_modules/.bin/tsc")
const tsx = join(repo, "node_modules/.bin/tsx")
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
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

const npm = (args: ReadonlyArray<string>, cwd: string) => run("npm", [...args], { cwd, maxBuffer: 64 * 1024 * 1024 })

/** The embedder's lockfile: the tarball, and the repository's production dependency tree. */
const embedderLock = (root: { readonly name: string; readonly version: string }, tarball: string, registry: string) => {
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"))
  const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }
  const spec = `file:${tarball}`
  const packages: Record<string, unknown> = {
    "": { name: root.name, version: root.version, dependencies: { [packageName]: spec } },
    [`node_modules/${packageName}`]: {
      version: pkg.version,
      resolved: spec,
      integrity: `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`,
      dependencies: pkg.dependencies,
      // As npm records them: the lockfile's `bin` is what `npm ci` links into node_modules/.bin.
      ...(pkg.bin === undefined ? {} : { bin: pkg.bin }),
      ...(pkg.engines === undefined ? {} : { engines: pkg.engines }),
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
  return { dependencies: { [packageName]: spec }, lockfile: { name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages } }
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
  providerError: ProviderError.declined({ providerId: "x", code: "declined", message: "no" })._tag,
  deepImport
}))
await api.dispose()
await runtime.dispose()
`

/**
 * The repository's lockfile entries that installing `names` takes (their dependency trees, as
 * npm laid them out), without dev flags: a provider team's dev dependencies, from the same cache.
 */
const lockClosure = (names: ReadonlyArray<string>, registry: string) => {
  const lock = (JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages
  const taken: Record<string, unknown> = {}
  const visit = (from: string, name: string) => {
    for (let base = from; ; base = base.includes("/node_modules/") ? base.slice(0, base.lastIndexOf("/node_modules/")) : "") {
      const key = `${base === "" ? "" : `${base}/`}node_modules/${name}`
      const entry = lock[key]
      if (entry !== undefined && !entry.link) {
        if (key in taken) return
        const { dev: _dev, devOptional: _devOptional, ...rest } = entry as LockEntry & Record<string, unknown>
        taken[key] = { ...rest, resolved: entry.resolved ?? `${registry.replace(/\/$/, "")}/${name}/-/${name.split("/").pop()}-${entry.version}.tgz` }
        const peers = Object.keys(entry.peerDependencies ?? {}).filter((p) => entry.peerDependenciesMeta?.[p]?.optional !== true)
        for (const dep of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers]) visit(key, dep)
        return
      }
      if (base === "") return
    }
  }
  for (const name of names) visit("", name)
  return taken
}

/** A free loopback port. */
const freePort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolvePort(port))
    })
  })

/**
 * The reference connector (`providers/reference-http`) as a provider team outside the repository
 * copies it: the same files, renamed kind `acme`, importing only the package's public subpaths.
 * A relative import into the repository left over fails the test, naming it.
 */
const outsideConnector = () => {
  const pkg = (sub: string) => `"${packageName}/${sub}"`
  const rewrite = (text: string) => {
    let out = text
      .replace(/import \* as Money from "\.\.\/\.\.\/core\/Money\.ts"/, `import { Money } from ${pkg("core")}`)
      .replace(/import \{ verifySignature \} from "\.\.\/\.\.\/core\/Signatures\.ts"/, `import { Signatures } from ${pkg("core")}\nconst { verifySignature } = Signatures`)
      .replace(/"\.\.\/\.\.\/core\/(catalog\/PaymentMethod|Environment)\.ts"/g, pkg("core"))
      .replace(/"\.\.\/\.\.\/core\/ports\/(PaymentProvider|ProviderRegistry|index)\.ts"/g, pkg("ports"))
      .replace(/"\.\.\/\.\.\/core\/index\.ts"/g, pkg("core"))
      .replace(/"\.\.\/kit\/(Connector|UpstreamHttp|CallbackReceiver|StatusMap|Buyer)\.ts"/g, pkg("providers/kit"))
      .replace(/"\.\.\/kit\/ProviderConformance\.ts"/g, pkg("providers/conformance"))
      .replace(/kind: "reference-http"/, `kind: "acme"`)
      .replace(/providerConformance\("reference-http"/, `providerConformance("acme"`)
    if (out.includes(`"../kit/SimulatorServer.ts"`)) {
      out = out
        .replace(/\n  idempotencyMemo,/, "").replace(/\n  serve,/, "\n  SimulatorServer,")
        .replace(`"../kit/SimulatorServer.ts"`, `${pkg("providers/kit")}\nconst { idempotencyMemo, serve } = SimulatorServer`)
    }
    const left = /from "\.\.\/[^"]*"/.exec(out)
    assert.isNull(left, `the reference connector imports ${left?.[0]}, which the package does not export under the rewrite`)
    return out
  }
  const dir = join(repo, "providers/reference-http")
  const files: Record<string, string> = {}
  for (const file of ["Wire.ts", "ReferenceHttpProvider.ts", "UpstreamSimulator.ts", "ConformanceHarness.ts"]) files[file] = rewrite(readFileSync(join(dir, file), "utf8"))
  files["acme.conformance.ts"] = rewrite(readFileSync(join(dir, "reference-http.conformance.ts"), "utf8"))
  files["index.ts"] = `export { connector } from "./ReferenceHttpProvider.ts"\n`
  return files
}

/** The embedder's TypeScript settings; its `esm/` folder is an ES module package (`"type": "module"`). */
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

/** The embedding guide, where the README sends an embedder. */
const guide = "docs/embedding.md"

/** The first fenced block of a section of the embedding guide, and the file name its first line gives (`// main.mjs`). */
const guideProgram = (section: string) => {
  const readme = readFileSync(join(repo, guide), "utf8")
  const start = readme.indexOf(`\n## ${section}\n`)
  assert.isAtLeast(start, 0, `${guide} has a section "${section}"`)
  const body = readme.slice(start + 1).split(/\n## /)[0]!.slice(3)
  const block = /```(\w*)\n([\s\S]*?)```/.exec(body)
  assert.isNotNull(block, `a code block in "${section}"`)
  const code = block![2]!
  const named = /^\/\/ ([\w.-]+\.[cm]?[jt]s)\b/.exec(code)
  return { file: named?.[1] ?? "main.js", code }
}

/** A child process's output until it prints a line matching `ready`, or exits. */
const startUntil = (command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv, ready: RegExp) => {
  const child = spawn(command, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  const seen = new Promise<void>((resolveSeen, reject) => {
    const check = (chunk: Buffer) => {
      out += chunk.toString("utf8")
      if (ready.test(out)) resolveSeen()
    }
    child.stdout.on("data", check)
    child.stderr.on("data", check)
    child.on("exit", (code) => reject(new Error(`exited ${code}:\n${out}`)))
  })
  return { child, seen, output: () => out }
}

/** Node without the repository's test-runner options, and none of the secrets the embedding guide names. */
const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", ...extra }
  for (const name of ["JWT_SECRET", "SEALING_KEY", "DEPOSIT_CALLBACK_SECRET", "SANDBOX_CALLBACK_SECRET", "DEPOSIT_SECRET", "SANDBOX_SECRET"]) {
    if (!(name in extra)) delete env[name]
  }
  return env
}

describe("the npm package", () => {
  let work = ""
  let packed: Packed
  let app = ""

  beforeAll(async () => {
    // `npm test` builds before vitest runs; alone, this test builds what is missing.
    if (!existsSync(join(repo, "dist/core/index.js"))) await run(tsc, ["-p", join(repo, "tsconfig.build.json")], { cwd: repo })
    work = mkdtempSync(join(tmpdir(), "poe-package-"))
    // --ignore-scripts: no prepack rebuild of the dist other tests may be running from.
    const packOut = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work], repo)
    packed = (JSON.parse(packOut.stdout) as ReadonlyArray<Packed>)[0]!

    // A newcomer's project: `npm init -y` (CommonJS by default), then the tarball installed.
    app = join(work, "app")
    mkdirSync(app)
    await npm(["init", "-y"], app)
    const initial = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { name: string; version: string }
    const registry = (await npm(["config", "get", "registry"], repo)).stdout.trim()
    const { dependencies, lockfile } = embedderLock(initial, join(work, packed.filename), registry)
    writeFileSync(join(app, "package.json"), JSON.stringify({ ...initial, dependencies }, null, 2))
    writeFileSync(join(app, "package-lock.json"), JSON.stringify(lockfile, null, 2))
    const installStart = Date.now()
    await npm(["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], app)
    console.log(`package: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.files.length} files; offline install ${Date.now() - installStart} ms`)
  }, 180_000)

  afterAll(() => {
    if (work !== "") rmSync(work, { recursive: true, force: true })
  })

  it("is as large as the embedding guide says (within 15 %)", () => {
    const readme = readFileSync(join(repo, guide), "utf8")
    const said = /([\d.]+) MB\s+packed, ([\d.]+) MB\s+unpacked, ([\d,]+)\s+files/.exec(readme)
    assert.isNotNull(said, `${guide} gives the package's size`)
    const within = (measured: number, written: number, what: string) =>
      assert.isBelow(Math.abs(measured - written) / written, 0.15, `${what}: measured ${measured}, ${guide} says ${written}`)
    within(packed.size / 1e6, Number(said![1]), "MB packed")
    within(packed.unpackedSize / 1e6, Number(said![2]), "MB unpacked")
    within(packed.files.length, Number(said![3]!.replace(",", "")), "files")
  })

  it("packs dist only, with every exported file", () => {
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
    assert.notInclude(paths, "dist/.sources-sha256", "the build stamp stays in the repository")
    assert.isTrue(existsSync(join(app, "node_modules", packageName, "dist/core/index.d.ts")))
  })

  it("runs the embedding guide's \"Install as a library\" program as written, with no variable set, and it prints keys and a payment that completes", { timeout: 60_000 }, async () => {
    const { code, file } = guideProgram("Install as a library")
    writeFileSync(join(app, file), code)
    const result = await run("node", [file], { cwd: app, env: cleanEnv(), timeout: 40_000 }).catch((e: { stdout?: string; stderr?: string }) => {
      assert.fail(`node ${file} in a project made by npm init -y failed:\n${e.stdout ?? ""}\n${e.stderr ?? String(e)}`)
    })
    const out = result.stdout
    const key = /sandbox secret key: (sk_test_\S+)/.exec(out)
    assert.isNotNull(key, out)
    const created = /payment (TXN\S+) pending/.exec(out)
    assert.isNotNull(created, out)
    assert.match(out, new RegExp(`payment ${created![1]} completed`))
  })

  it("typechecks and runs an embedder's TypeScript program by package name", { timeout: 60_000 }, async () => {
    const esm = join(app, "esm")
    mkdirSync(esm, { recursive: true })
    writeFileSync(join(esm, "package.json"), JSON.stringify({ type: "module" }))
    writeFileSync(join(esm, "main.ts"), program)
    writeFileSync(join(esm, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: ["main.ts"] }, null, 2))
    await run(tsc, ["-p", join(esm, "tsconfig.json")], { cwd: esm }).catch((e: { stdout?: string }) => {
      assert.fail(`the embedder's program does not typecheck:\n${e.stdout ?? String(e)}`)
    })
    const { stdout } = await run("node", [join(esm, "out/main.js")], { cwd: esm, env: cleanEnv() })
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
  })

  it("copies examples/ into an ES module project as they are: they typecheck and run by package name", { timeout: 90_000 }, async () => {
    const esm = join(app, "examples")
    mkdirSync(esm, { recursive: true })
    writeFileSync(join(esm, "package.json"), JSON.stringify({ type: "module" }))
    for (const example of ["embed-engine", "webhook-receiver"]) cpSync(join(repo, "examples", example), join(esm, example), { recursive: true })
    writeFileSync(join(esm, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: ["embed-engine/main.ts", "webhook-receiver/main.ts"] }, null, 2))
    await run(tsc, ["-p", join(esm, "tsconfig.json"), "--noEmit"], { cwd: esm }).catch((e: { stdout?: string }) => {
      assert.fail(`the examples do not typecheck outside the repository:\n${e.stdout ?? String(e)}`)
    })

    // embed-engine, as its header says: `npx tsx embed-engine/main.ts`.
    const embed = await run(tsx, ["embed-engine/main.ts"], { cwd: esm, env: cleanEnv(), timeout: 40_000 }).catch((e: { stdout?: string; stderr?: string }) => {
      assert.fail(`examples/embed-engine does not run outside the repository:\n${e.stdout ?? ""}\n${e.stderr ?? String(e)}`)
    })
    assert.match(embed.stdout, /^200 /m, embed.stdout)
    assert.match(embed.stdout, /TXN\S* completed/, embed.stdout)

    // webhook-receiver, as its header says: `WEBHOOK_SECRET=whsec_... PORT=4000 npx tsx webhook-receiver/main.ts`.
    const secret = "whsec_outside"
    const receiver = startUntil(tsx, ["webhook-receiver/main.ts"], esm, cleanEnv({ WEBHOOK_SECRET: secret, PORT: "0" }), /listening on (http:\S+)/)
    try {
      await receiver.seen
      const url = /listening on (http:\S+)/.exec(receiver.output())![1]!
      const body = JSON.stringify({ id: "evt_outside", type: "payment.completed", data: { transactionId: "TXN-1" } })
      const t = Math.floor(Date.now() / 1000)
      const signature = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
      const accepted = await fetch(url, { method: "POST", headers: { "x-service-signature": signature }, body })
      assert.strictEqual(accepted.status, 204)
      const forged = await fetch(url, { method: "POST", headers: { "x-service-signature": signature }, body: body + " " })
      assert.strictEqual(forged.status, 400)
      await new Promise((r) => setTimeout(r, 200))
      assert.match(receiver.output(), /payment\.completed evt_outside/)
    } finally {
      receiver.child.kill("SIGTERM")
    }
  })

  it("a connector in its own package passes the kit with `npx payment-engine-conformance src`, and the host loads it from CONNECTOR_MODULES", { timeout: 180_000 }, async () => {
    const registry = (await npm(["config", "get", "registry"], repo)).stdout.trim()
    const project = join(work, "acme-connector")
    mkdirSync(join(project, "src"), { recursive: true })
    await npm(["init", "-y"], project)
    const initial = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { name: string; version: string }
    const repoPkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
    const devDependencies = { vitest: repoPkg.devDependencies["vitest"]!, "@effect/vitest": repoPkg.devDependencies["@effect/vitest"]! }
    const { dependencies, lockfile } = embedderLock(initial, join(work, packed.filename), registry)
    Object.assign(lockfile.packages, lockClosure(Object.keys(devDependencies), registry))
    Object.assign(lockfile.packages[""] as object, { devDependencies })
    writeFileSync(join(project, "package.json"), JSON.stringify({ ...initial, type: "module", exports: "./dist/index.js", dependencies, devDependencies }, null, 2))
    writeFileSync(join(project, "package-lock.json"), JSON.stringify(lockfile, null, 2))
    await npm(["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], project)
    for (const [file, text] of Object.entries(outsideConnector())) writeFileSync(join(project, "src", file), text)
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        target: "ES2022", lib: ["ES2022", "DOM"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true,
        allowImportingTsExtensions: true, rewriteRelativeImportExtensions: true, verbatimModuleSyntax: true,
        rootDir: "src", outDir: "dist", types: ["node"], typeRoots: [join(repo, "node_modules/@types")]
      },
      include: ["src"]
    }, null, 2))
    await run(tsc, ["-p", join(project, "tsconfig.json")], { cwd: project }).catch((e: { stdout?: string }) => {
      assert.fail(`the outside connector does not compile against the package:\n${e.stdout ?? String(e)}`)
    })

    // The kit, with the one documented command: the package's bin on the project's own vitest.
    const env = cleanEnv()
    for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name]
    const kit = await run(join(project, "node_modules/.bin/payment-engine-conformance"), ["src"], { cwd: project, env, timeout: 150_000 })
      .catch((e: { stdout?: string; stderr?: string }) => assert.fail(`the kit failed outside the repository:\n${e.stdout ?? ""}\n${e.stderr ?? ""}\n${String(e)}`))
    const totals = /^(\d+) passed, (\d+) failed$/m.exec(kit.stdout)
    assert.isNotNull(totals, kit.stdout)
    assert.isAbove(Number(totals![1]), 10, kit.stdout)
    assert.strictEqual(totals![2], "0")

    // A module that does not load, or exports no connector, stops the host at start, naming it.
    const hostMain = join(project, "node_modules", packageName, "dist/host/main.js")
    for (const [modules, said] of [
      ["./dist/missing.js", "CONNECTOR_MODULES: cannot load './dist/missing.js'"],
      ["./dist/Wire.js", "CONNECTOR_MODULES: './dist/Wire.js' exports no connector"]
    ] as const) {
      const refused = await run("node", [hostMain], { cwd: project, env: cleanEnv({ CONNECTOR_MODULES: modules, PORT: "0", DATA_DIR: join(work, "refused") }), timeout: 30_000 })
        .then(() => assert.fail(`the host started with CONNECTOR_MODULES=${modules}`), (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`)
      assert.include(refused, said)
    }

    // The reference host of the installed package, with the connector loaded by configuration:
    // its charge reaches the upstream the instance is configured with.
    const seen: Array<{ method: string; url: string; authorization: string | undefined }> = []
    const upstream = createServer((req, res) => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization })
      req.resume()
      res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: "unavailable", message: "down for the test" }))
    })
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()))
    const port = await freePort()
    const dataDir = mkdtempSync(join(tmpdir(), "poe-acme-host-"))
    // Started as the embedding guide says, by the package's bin.
    const host = startUntil(join(project, "node_modules/.bin/payment-engine"), [], project, cleanEnv({
      CONNECTOR_MODULES: "./dist/index.js",
      CONNECTORS: "acme",
      ACME_ENVIRONMENT: "sandbox",
      ACME_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      ACME_API_KEY: "acme-api-key",
      ACME_CALLBACK_SECRET: "acme-callback-secret",
      ADMIN_TOKEN: "acme-admin",
      SANDBOX_CALLBACK_SECRET: "acme-sandbox-callback-secret",
      DEPOSIT_CALLBACK_SECRET: "acme-deposit-callback-secret",
      DATA_DIR: dataDir,
      // Embedded PGlite in DATA_DIR: a host on PostgreSQL would need JWT_SECRET and SEALING_KEY.
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "Error"
    }), /^$/)
    host.seen.catch(() => undefined)
    try {
      const base = `http://127.0.0.1:${port}`
      const deadline = Date.now() + 60_000
      while (!(await fetch(`${base}/openapi.json`).then((r) => r.ok, () => false))) {
        if (host.child.exitCode !== null || Date.now() > deadline) assert.fail(`the host did not start:\n${host.output()}`)
        await new Promise((r) => setTimeout(r, 100))
      }
      const call = async (path: string, method: string, token: string, body?: unknown) => {
        const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
        return { status: response.status, body: await response.json() as Record<string, any> }
      }
      const merchant = await call("/admin/v1/merchants", "POST", "acme-admin", { name: "Acme Shop", email: "ops@acme.example" })
      assert.strictEqual(merchant.status, 201, JSON.stringify(merchant.body))
      const shopId = merchant.body["shops"][0].id as string
      assert.strictEqual((await call(`/admin/v1/shops/${shopId}/routes/acme`, "PUT", "acme-admin", { environment: "sandbox", priority: 1 })).status, 200)
      assert.strictEqual((await call(`/admin/v1/shops/${shopId}/routes/sandbox`, "PUT", "acme-admin", { environment: "sandbox", priority: 2, enabled: false })).status, 200)
      const payment = await call("/api/v1/payments", "POST", merchant.body["keys"].sandbox.secretKey, {
        amount: 40, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725"
      })
      assert.deepStrictEqual(seen.map((r) => [r.method, r.url, r.authorization]), [["POST", "/v1/charges", "Bearer acme-api-key"]], JSON.stringify(payment.body))
      assert.include(JSON.stringify(payment.body), "acme", "the answer names the provider it tried")
    } finally {
      host.child.kill("SIGTERM")
      upstream.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
