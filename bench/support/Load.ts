/**
 * The bench's load generators, each in a process of its own, each reporting the CPU it used so a
 * saturated generator shows beside the figures it produced:
 *
 * - closed loop (each connection sends as soon as it is answered): `wrk` (Debian's package,
 *   written in C) when it is on the PATH, with a Lua script this module writes to a temporary file
 *   (method, path, headers, body, a fresh `Idempotency-Key` per request, a request count to stop
 *   at, and a JSON summary with the process's own CPU read from `/proc/self/stat`); otherwise
 *   autocannon in a child Node process (`LoadChild.ts`, its CPU from `process.cpuUsage()`).
 *   `BENCH_LOAD=autocannon` forces the fallback.
 * - open loop at a fixed rate: `Paced.ts` in the child Node process (wrk2, which paces requests,
 *   is not packaged by Debian).
 *
 * The server's CPU (and of it the kernel's) and its write calls are read from `/proc/<pid>/stat`
 * and `/proc/<pid>/io` right before the generator starts sending and right after it is done.
 */
import { execFileSync, fork, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Measure } from "../Row.ts"
import { counters, type ProcessCounters } from "./Processes.ts"

export interface LoadRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
  /** Sends a fresh `Idempotency-Key` with every request. */
  readonly idempotencyKey?: boolean | undefined
}

/** What `LoadChild.ts` is asked to run. */
export type ChildSpec =
  & { readonly port: number; readonly connections: number; readonly request: LoadRequest }
  & (
    | { readonly kind: "closed"; readonly seconds?: number | undefined; readonly amount?: number | undefined }
    | { readonly kind: "open"; readonly seconds: number; readonly rate: number }
  )

/** What a generator reports; `LoadChild.ts` sends it as its message. */
export interface GeneratorReport {
  readonly requests: number
  readonly seconds: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Non-2xx answers, socket errors and timeouts. */
  readonly failures: number
  /** CPU (user + system) the generator process used while it sent. */
  readonly cpuMs: number
}

const wrkOnPath = (() => {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" })
    return true
  } catch (e) {
    // `wrk --version` prints its usage and exits 1: it is there; only a spawn error means absent.
    return (e as { code?: string }).code !== "ENOENT"
  }
})()

/** The closed-loop generator of this run. */
export const closedLoopGenerator: "wrk" | "autocannon" = process.env["BENCH_LOAD"] === "autocannon" || !wrkOnPath ? "autocannon" : "wrk"

const lua = (value: string) => JSON.stringify(value) // a JSON string is a valid Lua string literal here (no \u escapes in our values)

/** The wrk script: one request per call with a fresh key, a per-thread stop after `limit` answers, and a JSON summary. */
const wrkScript = (request: LoadRequest, limit: number) => `
local method, path, body = ${lua(request.method)}, ${lua(request.path)}, ${request.body === undefined ? "nil" : lua(request.body)}
local headers = { ${Object.entries(request.headers).map(([k, v]) => `[${lua(k)}] = ${lua(v)}`).join(", ")} }
local keyed, prefix, limit = ${request.idempotencyKey === true}, ${lua(randomBytes(6).toString("hex"))}, ${limit}
local threads, sent, answered = {}, 0, 0
failed = 0
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end
function request()
  sent = sent + 1
  if keyed then headers["idempotency-key"] = prefix .. "-" .. id .. "-" .. sent end
  return wrk.format(method, path, headers, body)
end
function response(status, _, _)
  answered = answered + 1
  if status < 200 or status > 299 then failed = failed + 1 end
  if limit > 0 and answered == limit then
    -- wrk's main thread sleeps for the whole duration: the bench wakes it (SIGINT) once every thread said so.
    wrk.thread:stop()
    io.stderr:write("BENCH stopped\\n")
    io.stderr:flush()
  end
end
function done(summary, latency, _)
  local stat = io.open("/proc/self/stat"):read("*l")
  local fields = {}
  for field in stat:sub(stat:find(") ", 1, true) + 2):gmatch("%S+") do table.insert(fields, field) end
  local failures = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  for _, thread in ipairs(threads) do failures = failures + thread:get("failed") end
  io.write(string.format('\\nBENCH {"requests":%d,"seconds":%f,"p50Ms":%f,"p99Ms":%f,"failures":%d,"cpuMs":%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, failures,
    (tonumber(fields[12]) + tonumber(fields[13])) * 10))
end
`

const runWrk = (options: { readonly port: number; readonly connections: number; readonly request: LoadRequest; readonly seconds?: number | undefined; readonly amount?: number | undefined }) =>
  new Promise<GeneratorReport>((resolve, reject) => {
    const threads = Math.max(1, Math.min(options.connections, Number(process.env["BENCH_WRK_THREADS"] ?? 1)))
    const dir = mkdtempSync(join(tmpdir(), "bench-wrk-"))
    const script = join(dir, "load.lua")
    writeFileSync(script, wrkScript(options.request, options.amount === undefined ? 0 : Math.ceil(options.amount / threads)))
    // An amount alone: a long duration that the script's stop ends first.
    const seconds = options.seconds ?? 3_600
    const child = spawn("wrk", [
      "-t", String(threads), "-c", String(options.connections), "-d", `${Math.max(1, Math.round(seconds))}s`,
      "--timeout", "30s", "-s", script, `http://127.0.0.1:${options.port}${options.request.path}`
    ], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let stopped = 0
    child.stdout.on("data", (chunk: Buffer) => void (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      // Each thread that reached its share of the amount says so; then wrk can print its summary.
      stopped += chunk.toString().split("BENCH stopped").length - 1
      if (stopped === threads) child.kill("SIGINT")
    })
    child.once("error", reject)
    child.once("exit", (code) => {
      rmSync(dir, { recursive: true, force: true })
      const line = out.split("\n").find((l) => l.startsWith("BENCH {"))
      if (code !== 0 || line === undefined) return reject(new Error(`wrk exited with ${code}: ${out.slice(-2_000)}`))
      resolve(JSON.parse(line.slice(6)) as GeneratorReport)
    })
  })

const childFile = fileURLToPath(new URL("./LoadChild.ts", import.meta.url))

/** Runs `LoadChild.ts`; `onReady` is called once it is loaded and about to send. */
const runChild = (spec: ChildSpec, onReady: () => void) =>
  new Promise<GeneratorReport>((resolve, reject) => {
    const child = fork(childFile, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] })
    let report: GeneratorReport | undefined
    child.on("message", (message: { readonly ready?: true; readonly report?: GeneratorReport; readonly error?: string }) => {
      if (message.ready === true) {
        onReady()
        child.send(spec)
      } else if (message.report !== undefined) report = message.report
      else if (message.error !== undefined) reject(new Error(message.error))
    })
    child.once("error", reject)
    child.once("exit", (code) => report === undefined ? reject(new Error(`the load generator exited with ${code}`)) : resolve(report))
  })

const measured = (report: GeneratorReport, before: ProcessCounters, after: ProcessCounters, what: string): Measure => {
  if (report.failures > 0) throw new Error(`${what}: ${report.failures} failed requests (non-2xx, errors or timeouts) of ${report.requests}`)
  const requests = Math.max(1, report.requests)
  return {
    perSecond: report.requests / (report.seconds || 1),
    p50Ms: report.p50Ms,
    p99Ms: report.p99Ms,
    cpuMsPerOp: (after.cpuMs - before.cpuMs) / requests,
    kernelCpuMsPerOp: (after.kernelCpuMs - before.kernelCpuMs) / requests,
    writeCallsPerOp: (after.writeCalls - before.writeCalls) / requests,
    generatorCpuMsPerOp: report.cpuMs / requests,
    generatorCpuPct: (report.cpuMs / ((report.seconds || 1) * 1_000)) * 100
  }
}

export interface LoadOptions {
  /** The server's process, whose CPU is counted per request. */
  readonly serverPid: number
  readonly port: number
  readonly connections: number
  readonly request: LoadRequest
}

/**
 * A closed-loop load for `seconds`, or until `amount` answers (wrk: each thread stops at its share;
 * the requests in flight then, at most one per connection, are answered after the count).
 */
export const closedLoop = async (options: LoadOptions & { readonly seconds?: number | undefined; readonly amount?: number | undefined }): Promise<Measure> => {
  let before = counters(options.serverPid)
  const report = closedLoopGenerator === "wrk"
    ? await (before = counters(options.serverPid), runWrk(options))
    : await runChild({ kind: "closed", ...options }, () => (before = counters(options.serverPid)))
  return measured(report, before, counters(options.serverPid), `${options.request.method} ${options.request.path}`)
}

/** An open-loop load at `rate` requests a second for `seconds` (`Paced.ts`, in the child process). */
export const openLoop = async (options: LoadOptions & { readonly seconds: number; readonly rate: number }): Promise<Measure> => {
  let before = counters(options.serverPid)
  const report = await runChild({ kind: "open", ...options }, () => (before = counters(options.serverPid)))
  return measured(report, before, counters(options.serverPid), `${options.request.method} ${options.request.path} at ${Math.round(options.rate)}/s`)
}
