/** The compiled host's start-up, and the build (`dist/`) it and the embedding example run from. */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { get } from "node:http"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"

/** The newest modification time of the files under `dir`. */
const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (latest, entry) => Math.max(latest, entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs),
    statSync(dir).mtimeMs
  )

const built = join("dist", "host", "main.js")

/** `npm run build` when `dist/` is missing or older than a source file. */
export const ensureBuilt = () => {
  if (!existsSync(built) || ["core", "adapters", "host", "providers"].some((d) => newest(d) > statSync(built).mtimeMs)) {
    try {
      execFileSync("npm", ["run", "build"], { stdio: "ignore" })
    } catch {
      // tsc emits despite type errors (a file being edited, say): run what it emitted, and say so.
      console.error("bench: `npm run build` reported errors; dist/ is what it emitted")
    }
  }
}

/** The compiled host (`npm run build`), from spawn to its first answer, on an empty store. */
export const startup = async (store: "pglite" | "postgres", options: { readonly runId: string; readonly databaseUrl: string | undefined; readonly short: boolean }) => {
  const { runId, databaseUrl, short } = options
  ensureBuilt()
  const times: Array<number> = []
  for (let i = 0; i < (short ? 1 : 3); i++) {
    const dataDir = mkdtempSync(join(tmpdir(), "bench-start-"))
    const database = `${runId}_start_${i}`
    let url: string | undefined
    if (store === "postgres") {
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`CREATE DATABASE "${database}"`)
      await admin.end()
      url = Object.assign(new URL(databaseUrl!), { pathname: `/${database}` }).toString()
    }
    // A port the system just handed out: a random one could be taken by one of the loads' connections.
    const port = await freePort()
    const began = performance.now()
    const child = spawn(process.execPath, [built], {
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "Error", DATABASE_URL: url ?? "", JWT_SECRET: "bench-startup-jwt-secret-of-at-least-32-bytes", SEALING_KEY: "62656e63682d737461727475702d7365616c696e672d6b65792d33322d627974" },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the host exited with ${child.exitCode} before it answered: ${stderr.slice(-2_000)}`)
      // node:http, one fresh connection per probe (fetch's pool kept waiting on a refused start).
      const answered = await new Promise<boolean>((resolve) => {
        const req = get(`http://127.0.0.1:${port}/openapi.json`, { agent: false }, (r) => {
          r.resume()
          resolve(r.statusCode === 200)
        })
        req.on("error", () => resolve(false))
        req.setTimeout(2_000, () => req.destroy())
      })
      if (answered) break
      if (performance.now() - began > 60_000) throw new Error(`the host did not answer within 60 s: ${stderr.slice(-2_000)}`)
      await new Promise((r) => setTimeout(r, 10))
    }
    times.push(performance.now() - began)
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
    rmSync(dataDir, { recursive: true, force: true })
    if (url !== undefined) {
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS "${database}"`)
      await admin.end()
    }
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })

