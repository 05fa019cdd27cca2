/** Child processes of the bench: started with tsx, ready when they print their port, measured from /proc. */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createInterface } from "node:readline"

export interface Child {
  readonly process: ChildProcess
  readonly port: number
  /** The whole line the process printed when it was ready (`port` and whatever else it said). */
  readonly ready: Readonly<Record<string, unknown>>
  readonly stop: () => Promise<void>
}

/** `BENCH_CPU_PROF=<dir>`: every server the bench starts writes a V8 CPU profile there when it stops. */
const profiling = process.env["BENCH_CPU_PROF"] === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${process.env["BENCH_CPU_PROF"]}`]

/** Starts `node --import tsx <file>` (or `node <file>` for `.js`) and waits for the `{"port":n, ...}` line it prints. */
export const start = (file: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Child> =>
  new Promise((resolve, reject) => {
    const args = [...profiling, ...(file.endsWith(".js") ? ["--enable-source-maps", file] : ["--import", "tsx", file])]
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${file} did not start within ${timeoutMs} ms`))
    }, timeoutMs)
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code} before it was ready`)))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("{\"port\"")) return
      clearTimeout(timer)
      child.removeAllListeners("exit")
      const ready = JSON.parse(line) as { readonly port: number }
      resolve({
        process: child,
        port: ready.port,
        ready,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once("exit", () => done())
            child.kill("SIGTERM")
            setTimeout(() => child.kill("SIGKILL"), 10_000).unref()
          })
      })
    })
  })

/** What the kernel counts for a process so far: CPU (user + system, and system alone) and write calls. */
export interface ProcessCounters {
  readonly cpuMs: number
  /** CPU in the kernel: socket and pipe writes, the TCP stack, page faults. */
  readonly kernelCpuMs: number
  /** write(2), writev(2) and the like: one per socket write (`syscw` of /proc/<pid>/io). */
  readonly writeCalls: number
}

/** A process's counters from /proc (Linux); zeros elsewhere. */
export const counters = (pid: number): ProcessCounters => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
    const user = Number(fields[11]) * 10
    const system = Number(fields[12]) * 10
    const writes = /syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, "utf8"))
    return { cpuMs: user + system, kernelCpuMs: system, writeCalls: writes === null ? 0 : Number(writes[1]) }
  } catch {
    return { cpuMs: 0, kernelCpuMs: 0, writeCalls: 0 }
  }
}
