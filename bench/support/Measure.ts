/** The bench's settings and its measurements of a server: loads, interleaved rounds, medians. */
import { type Measure, medianOf } from "../Row.ts"
import { closedLoop, type LoadRequest, openLoop } from "./Load.ts"
import type { Child } from "./Processes.ts"

export const short = process.env["BENCH_SHORT"] === "1" || process.argv.includes("--short")
const number = (name: string, full: number, quick: number) => Number(process.env[name] ?? (short ? quick : full))
const numbers = (name: string, full: ReadonlyArray<number>, quick: ReadonlyArray<number>) =>
  process.env[name]?.split(",").map(Number) ?? (short ? quick : full)

export const settings = {
  seconds: number("BENCH_SECONDS", 10, 2),
  rounds: number("BENCH_ROUNDS", 3, 1),
  fill: number("BENCH_FILL", 100_000, 1_000),
  deliveries: number("BENCH_DELIVERIES", 20_000, 1_000),
  /** Warm-up requests per server and work before anything is measured. */
  warmUp: short ? 500 : 3_000,
  /**
   * Connections of the POST /payments rows: `BENCH_CONNECTIONS` (e.g. `16,64`) on every store;
   * without it 16 and 64 on PostgreSQL, 16 elsewhere (16 only in the smoke version). The first
   * is also that of GET /me, the 70 % row and the fill.
   */
  connections: (store: string): ReadonlyArray<number> =>
    process.env["BENCH_CONNECTIONS"] !== undefined
      ? numbers("BENCH_CONNECTIONS", [], [])
      : store === "postgres" && !short
      ? [16, 64]
      : [16],
  /** The memory store through the embedding: POST /payments after each of these many stored. */
  embedFills: numbers("BENCH_EMBED_FILLS", [2_000, 30_000], [300, 1_500]),
  /** Requests per measured round on the embedding (a count, so the store grows by a known amount). */
  embedRequests: number("BENCH_EMBED_REQUESTS", 2_000, 300)
}

export interface Target {
  readonly child: Child
  readonly token: string
}

export type Work = "me" | "payment"

export const paymentBody = JSON.stringify({ amount: 25, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" })

export const requestOf = (target: Target, work: Work): LoadRequest =>
  work === "me"
    ? { method: "GET", path: "/api/v1/me", headers: { authorization: `Bearer ${target.token}` } }
    : {
      method: "POST",
      path: "/api/v1/payments",
      body: paymentBody,
      headers: { authorization: `Bearer ${target.token}`, "content-type": "application/json" },
      idempotencyKey: true
    }

/** A closed-loop load (each connection sends as soon as it is answered) for `BENCH_SECONDS`, or `amount` requests. */
export const load = (target: Target, work: Work, connections: number, amount?: number): Promise<Measure> =>
  closedLoop({
    serverPid: target.child.process.pid!,
    port: target.child.port,
    connections,
    request: requestOf(target, work),
    ...(amount === undefined ? { seconds: settings.seconds } : { amount })
  })

/** An open-loop load at a fixed rate (`bench/support/Paced.ts`): latency below saturation. */
export const loadAt = (target: Target, work: Work, connections: number, rate: number): Promise<Measure> =>
  openLoop({ serverPid: target.child.process.pid!, port: target.child.port, connections, request: requestOf(target, work), seconds: settings.seconds, rate })

/** Each target in turn, round after round (`amount` requests each, or `BENCH_SECONDS`): the median of each over the rounds. */
export const interleaved = async (targets: ReadonlyArray<Target>, work: Work, connections: number, amount?: number) => {
  const measured = targets.map((): Array<Measure> => [])
  for (let i = 0; i < settings.rounds; i++) {
    for (const [j, target] of targets.entries()) measured[j]!.push(await load(target, work, connections, amount))
  }
  return measured.map(medianOf)
}

/** Project, baseline, project, baseline...: the median of each over the rounds. */
export const sideBySide = async (project: Target, baseline: Target, work: Work, connections: number) => {
  const [p, b] = await interleaved([project, baseline], work, connections)
  return { project: p!, baseline: b! }
}
