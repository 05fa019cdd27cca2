/**
 * The protocol between the fan-out bench and its worker processes, over the IPC channel of
 * `child_process.fork`: the worker says `ready` once it polls, answers `cpu` with its
 * `process.cpuUsage()` in microseconds, and on `stop` shuts down and exits.
 */
import { type ChildProcess, fork } from "node:child_process"

export type ToWorker = { readonly type: "cpu" } | { readonly type: "stop" }
export type FromWorker = { readonly type: "ready" } | { readonly type: "cpu"; readonly micros: number }

/** In the worker: reports ready, answers the bench's requests, runs `stop` before exiting. */
export const serveBench = (stop: () => Promise<void>) => {
  const send = (message: FromWorker) => process.send!(message)
  process.on("message", (message: ToWorker) => {
    if (message.type === "cpu") {
      const usage = process.cpuUsage()
      send({ type: "cpu", micros: usage.user + usage.system })
    } else {
      void stop().finally(() => process.exit(0))
    }
  })
  // The bench died: do not outlive it.
  process.on("disconnect", () => void stop().finally(() => process.exit(0)))
  send({ type: "ready" })
}

export interface Worker {
  readonly cpuMicros: () => Promise<number>
  readonly stop: () => Promise<void>
}

const next = (child: ChildProcess, type: FromWorker["type"]) =>
  new Promise<FromWorker>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== type) return
      child.off("message", onMessage)
      child.off("exit", onExit)
      resolve(message)
    }
    const onExit = (code: number | null) => reject(new Error(`bench worker exited with ${code} before '${type}'`))
    child.on("message", onMessage)
    child.once("exit", onExit)
  })

/**
 * In the bench: forks `file` (TypeScript, run through tsx) and waits until it is ready.
 * `BENCH_WORKER_NODE_ARGS` adds Node flags to the workers (e.g. `--cpu-prof --cpu-prof-dir=prof`).
 */
export const startWorker = async (file: string, env: Record<string, string>): Promise<Worker> => {
  const child = fork(file, [], { execArgv: ["--import", "tsx", ...(process.env["BENCH_WORKER_NODE_ARGS"]?.split(" ").filter((a) => a !== "") ?? [])], env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] })
  await next(child, "ready")
  return {
    cpuMicros: async () => {
      const answer = next(child, "cpu")
      child.send({ type: "cpu" } satisfies ToWorker)
      const message = await answer
      return message.type === "cpu" ? message.micros : 0
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.send({ type: "stop" } satisfies ToWorker)
      })
  }
}
