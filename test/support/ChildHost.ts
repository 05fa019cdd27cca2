/**
 * The reference host as a child process (`host/main.ts` through tsx), for tests that must kill
 * it for real (`kill -9`) and start it again on the same database.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { freePort } from "./Host.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))

export { freePort }

export interface ChildHost {
  readonly url: string
  readonly process: ChildProcess
  /** Output so far (for failure messages). */
  readonly output: () => string
}

/** The keys a host on PostgreSQL must be given (`keysRequired`), fixed so restarts read what they sealed. */
export const childHostKeys = {
  JWT_SECRET: "child-host-jwt-secret-of-at-least-32-bytes",
  SEALING_KEY: "6368696c642d686f73742d7365616c696e672d6b65792d6f662d33322d627974"
}

/** Starts the host with `env` on `port` and waits until it answers. */
export const startChildHost = (port: number, env: Record<string, string>) =>
  Effect.promise(async (): Promise<ChildHost> => {
    const child = spawn(process.execPath, ["--import", "tsx", "host/main.ts"], {
      cwd: root,
      // Keys and callback secrets of its own: a host with ADMIN_TOKEN refuses the public development secrets.
      env: {
        SANDBOX_CALLBACK_SECRET: "child-host-sandbox-callback-secret",
        DEPOSIT_CALLBACK_SECRET: "child-host-deposit-callback-secret",
        ...process.env,
        ...childHostKeys,
        ...env,
        PORT: String(port),
        HOST: "127.0.0.1"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout!.on("data", (chunk) => void (output += chunk))
    child.stderr!.on("data", (chunk) => void (output += chunk))
    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`host exited with ${child.exitCode}:\n${output}`)
      const up = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)
      if (up) return { url, process: child, output: () => output }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    child.kill("SIGKILL")
    throw new Error(`host did not answer within 60 s:\n${output}`)
  })

/** `kill -9`: no shutdown, no cleanup, exactly like a crash. */
export const killHard = (host: ChildHost) =>
  Effect.promise(() =>
    new Promise<void>((resolve) => {
      if (host.process.exitCode !== null || host.process.signalCode !== null) return resolve()
      host.process.once("exit", () => resolve())
      host.process.kill("SIGKILL")
    })
  )

/** `kill -TERM`: the host's graceful shutdown; answers its exit code (or the signal that ended it). */
export const terminate = (host: ChildHost) =>
  Effect.promise(() =>
    new Promise<number | string>((resolve) => {
      if (host.process.exitCode !== null || host.process.signalCode !== null) return resolve(host.process.exitCode ?? host.process.signalCode!)
      host.process.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"))
      host.process.kill("SIGTERM")
    })
  )
