/**
 * `npm run bench`: the reference host against a bare baseline doing the same database work
 * (`bench/baseline`), side by side in one run, each in its own process, interleaved round by round
 * (medians), on memory, embedded PGlite, and PostgreSQL when `DATABASE_URL` is set. The load
 * comes from a generator in a process of its own (`bench/support/Load.ts`): `wrk` when it is on
 * the PATH (Debian's package), else autocannon in a child Node process; beside each figure the
 * table gives the generator's CPU in % of a core (gen%), so a saturated generator shows. Prints a
 * table (req/s, p50, p99 in ms, server CPU ms per request, generator CPU, and the ratio project /
 * baseline), the round trips per request on PostgreSQL, the cost after `BENCH_FILL` stored
 * payments, the memory store through the embedding after 2 000 and 30 000 stored
 * (`bench/embed`), the webhook fan-out over two replicas, and the compiled host's start-up time;
 * the last line is the rows as JSON. The rows "at 70% of peak" are an open-loop load at a fixed
 * rate (`bench/support/Paced.ts`, in the child process), latency counted from when each request
 * was due. On PostgreSQL, POST /payments is also measured on the stack's floor (`bench/floor`:
 * the baseline's statements as a plain Effect application), interleaved with the other two, so
 * the project can be read against its framework's best. Telemetry's cost: POST /payments on the
 * host exporting traces (every span), metrics and logs over OTLP to a sink on loopback,
 * interleaved with the same host exporting nothing (first store of the run).
 *
 * Settings: BENCH_STORES (memory,pglite,postgres), BENCH_SECONDS (10), BENCH_ROUNDS (3),
 * BENCH_CONNECTIONS (POST /payments rows; default 16,64 on PostgreSQL, 16 elsewhere),
 * BENCH_LOAD=autocannon (the fallback generator even when wrk is there), BENCH_WRK_THREADS (1),
 * BENCH_ONLY=telemetry|embed|floor (only that part, on the first store / on memory / on PostgreSQL),
 * BENCH_AGAINST=<another checkout> (only this tree's host against that one's, interleaved: before
 * and after a change), BENCH_FILL (100000), BENCH_EMBED_FILLS (2000,30000), BENCH_EMBED_REQUESTS
 * (2000 a round), BENCH_DELIVERIES (20000); BENCH_SHORT=1 for the smoke check (1 round of 2 s,
 * 1 000 stored payments, embedding after 300 and 1 500, 1 000 deliveries).
 */
import { createServer as createHttpServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import pg from "pg"
import { embedded } from "./embed/Measure.ts"
import { type BenchRow, table } from "./Row.ts"
import { closedLoopGenerator } from "./support/Load.ts"
import { interleaved, load, loadAt, settings, short, sideBySide } from "./support/Measure.ts"
import { type Child, start } from "./support/Processes.ts"
import { startup } from "./support/Startup.ts"
import { startWireCounter } from "./support/WireCounter.ts"
import { fanOut } from "./webhooks/FanOut.ts"

const { seconds, rounds, fill, deliveries, warmUp } = settings
const databaseUrl = process.env["DATABASE_URL"]
const stores = (process.env["BENCH_STORES"]?.split(",") ?? ["memory", "pglite", "postgres"])
  .filter((s) => s !== "postgres" || databaseUrl !== undefined)
const runId = `bench_${process.pid}_${Date.now().toString(36)}`
/**
 * `BENCH_ONLY=telemetry`, `embed` or `floor`: only the telemetry on / off comparison, only the
 * embedding, or only POST /payments on PostgreSQL against the baseline and the stack's floor.
 */
const only = process.env["BENCH_AGAINST"] !== undefined ? "against" : process.env["BENCH_ONLY"]
const runs = (part: "main" | "telemetry" | "against" | "embed" | "floor") =>
  part === "against" ? only === "against" : only === undefined || only === part
const floorOnly = only === "floor"

const json = async <A>(response: Promise<Response>): Promise<A> => {
  const r = await response
  if (!r.ok) throw new Error(`${r.url}: HTTP ${r.status} ${await r.text()}`)
  return await r.json() as A
}

/** A merchant on the project host and an access token, plus what the baseline must hold to answer for it. */
const enrol = async (port: number) => {
  const base = `http://127.0.0.1:${port}`
  const created = await json<{ merchant: { id: string; name: string; email: string }; shops: Array<{ id: string; name: string }>; keys: { sandbox: { publishableKey: string; secretKey: string } } }>(
    fetch(`${base}/admin/v1/merchants`, {
      method: "POST",
      headers: { authorization: "Bearer bench-admin", "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench", email: "bench@example.com" })
    })
  )
  const { accessToken } = await json<{ accessToken: string }>(fetch(`${base}/api/v1/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ apiKey: created.keys.sandbox.publishableKey, secretKey: created.keys.sandbox.secretKey })
  }))
  const claims = JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()) as { sub: string; ver: number }
  return {
    token: accessToken,
    seed: {
      credential: { id: claims.sub, merchantId: created.merchant.id, version: claims.ver },
      merchant: { id: created.merchant.id, name: created.merchant.name, email: created.merchant.email ?? "bench@example.com" },
      shop: { id: created.shops[0]?.id ?? "shop_bench", name: created.shops[0]?.name ?? "Bench" }
    }
  }
}

/** POST /payments the host has created, from its own metrics (`payments_created_total`). */
const paymentsCreated = async (port: number) => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: "Bearer bench-admin" } })).text()
  return text.split("\n").filter((l) => l.startsWith("payments_created_total{")).reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0)
}

const withSchema = async <A>(schema: string, f: () => Promise<A>): Promise<A> => {
  try {
    return await f()
  } finally {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    for (const name of [schema, `${schema}_base`, `${schema}_fanout_base`]) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`)
    await client.end()
  }
}

/** Round trips per request on PostgreSQL, counted on the wire, for the project and the baseline. */
const roundTrips = async () => {
  const counter = await startWireCounter({ host: new URL(databaseUrl!).hostname, port: Number(new URL(databaseUrl!).port || 5432) })
  const viaCounter = Object.assign(new URL(databaseUrl!), { host: `127.0.0.1:${counter.port}` }).toString()
  const schema = `${runId}_trips`
  return await withSchema(schema, async () => {
    const project = await start("bench/project/Host.ts", { BENCH_STORE: "postgres", DATABASE_URL: viaCounter, BENCH_SCHEMA: schema, BENCH_WORKER_INTERVAL_MS: "3600000" })
    const { seed, token } = await enrol(project.port)
    const baseline = await start("bench/baseline/Server.ts", { BENCH_STORE: "postgres", BENCH_SEED: JSON.stringify({ ...seed, schema: `${schema}_base`, databaseUrl: viaCounter }) })
    const count = async (child: Child, work: "me" | "payment") => {
      await load({ child, token }, work, 1, 20)
      counter.reset()
      await load({ child, token }, work, 1, 100)
      return counter.trips() / 100
    }
    const trips = {
      me: { project: await count(project, "me"), baseline: await count(baseline, "me") },
      payment: { project: await count(project, "payment"), baseline: await count(baseline, "payment") }
    }
    if (process.env["BENCH_SHOW_SQL"] === "1") {
      counter.reset()
      await load({ child: project, token }, "payment", 1, 1)
      console.log(counter.statements().map((s) => `    ${s.replace(/\s+/g, " ").slice(0, 140)}`).join("\n"))
    }
    await Promise.all([project.stop(), baseline.stop()])
    await counter.close()
    return trips
  })
}

const rows: Array<BenchRow> = []
console.log(`bench: ${stores.join(", ")}; ${rounds} round(s) of ${seconds} s, interleaved; ${fill} stored payments; load from ${closedLoopGenerator}`)

for (const store of runs("main") ? stores : floorOnly ? stores.filter((s) => s === "postgres") : []) {
  const schema = `${runId}_${store}`
  const run = async () => {
    const env = { BENCH_STORE: store, DATABASE_URL: databaseUrl ?? "", BENCH_SCHEMA: schema }
    const projectHost = await start("bench/project/Host.ts", env)
    const { seed, token } = await enrol(projectHost.port)
    const baselineServer = await start("bench/baseline/Server.ts", {
      BENCH_STORE: store,
      BENCH_SEED: JSON.stringify({ ...seed, schema: `${schema}_base`, databaseUrl: databaseUrl ?? "" })
    }).catch(async (error: unknown) => {
      await projectHost.stop()
      throw error
    })
    // On PostgreSQL, the stack's floor too: the baseline's statements as a plain Effect application.
    const floorServer = store === "postgres"
      ? await start("bench/floor/Server.ts", {
        BENCH_SEED: JSON.stringify({ ...seed, schema: `${schema}_base`, databaseUrl: databaseUrl ?? "" })
      }).catch(async (error: unknown) => {
        await Promise.all([projectHost.stop(), baselineServer.stop()])
        throw error
      })
      : undefined
    const project = { child: projectHost, token }
    const baseline = { child: baselineServer, token }
    const floor = floorServer === undefined ? undefined : { child: floorServer, token }
    const [first, ...more] = settings.connections(store)
    try {
      // Warm both up (JIT, prepared statements, pools) before anything is measured.
      for (const target of [project, baseline]) for (const work of ["payment", "me"] as const) await load(target, work, first!, warmUp)
      if (floor !== undefined) await load(floor, "payment", first!, warmUp)
      if (!floorOnly) {
        const me = await sideBySide(project, baseline, "me", first!)
        rows.push({ work: "GET /api/v1/me", store, connections: first!, ...me })
      }
      for (const connections of [first!, ...more]) {
        // The stack's floor, where there is one, is interleaved with the two.
        const [p, b, f] = await interleaved(floor === undefined ? [project, baseline] : [project, baseline, floor], "payment", connections)
        const created = { project: p!, baseline: b! }
        rows.push({ work: "POST /api/v1/payments", store, connections, ...created })
        if (f !== undefined) rows.push({ work: "POST /api/v1/payments, stack floor", store, connections, project: f, baseline: b! })
        if (connections === first && !floorOnly) {
          // Latency below saturation: each side at a fixed 70 % of its own peak, open loop.
          rows.push({
            work: "POST /api/v1/payments at 70% of peak",
            store,
            connections,
            project: await loadAt(project, "payment", connections, created.project.perSecond * 0.7),
            baseline: await loadAt(baseline, "payment", connections, created.baseline.perSecond * 0.7)
          })
        }
      }
      if (!floorOnly) {
        await load(project, "payment", 32, fill)
        const full = await sideBySide(project, baseline, "payment", first!)
        rows.push({ work: `POST /api/v1/payments +${fill} stored`, store, connections: first!, ...full })
      }
      console.log(table(rows.filter((r) => r.store === store)))
    } finally {
      await Promise.all([projectHost.stop(), baselineServer.stop(), floorServer?.stop()])
    }
  }
  if (store === "postgres") await withSchema(schema, run)
  else await run()
}

if (runs("main") && databaseUrl !== undefined && stores.includes("postgres")) {
  const trips = await roundTrips()
  console.log(`round trips per request on PostgreSQL: GET /me ${trips.me.project} (baseline ${trips.me.baseline}), POST /payments ${trips.payment.project} (baseline ${trips.payment.baseline})`)
}

// `BENCH_AGAINST=<checkout of another commit>` (its own `node_modules`, e.g. `git worktree add
// /tmp/before <commit>` and a symlink): this tree's host ("project") against that tree's
// ("baseline"), interleaved round by round on the first store: a change on the request path
// measured before and after in one run, so the machine's drift between runs cancels out.
if (runs("against")) {
  const store = stores[0]!
  const other = join(process.env["BENCH_AGAINST"]!, "bench", "project", "Host.ts")
  const schema = `${runId}_against`
  const measure = async () => {
    const now = await start("bench/project/Host.ts", { BENCH_STORE: store, DATABASE_URL: databaseUrl ?? "", BENCH_SCHEMA: `${schema}_on` })
    const then = await start(other, { BENCH_STORE: store, DATABASE_URL: databaseUrl ?? "", BENCH_SCHEMA: `${schema}_off` })
    try {
      const targets = [{ child: now, token: (await enrol(now.port)).token }, { child: then, token: (await enrol(then.port)).token }]
      for (const work of ["payment", "me"] as const) {
        for (const t of targets) await load(t, work, 16, warmUp)
        const [after, before] = await interleaved(targets, work, 16)
        rows.push({ work: `${work === "me" ? "GET /api/v1/me" : "POST /api/v1/payments"}, this tree / ${process.env["BENCH_AGAINST"]}`, store, connections: 16, project: after!, baseline: before! })
      }
      console.log(table(rows.filter((r) => r.store === store)))
    } finally {
      await Promise.all([now.stop(), then.stop()])
    }
  }
  if (store === "postgres") await withSchema(`${schema}_on`, () => withSchema(`${schema}_off`, measure))
  else await measure()
}

// Telemetry's cost: the same host with traces, metrics and logs exported over OTLP
// (every span sampled) against a sink on loopback, interleaved with one exporting nothing, on
// the first store of the run: "project" is on, "baseline" off.
if (runs("telemetry")) {
  const store = stores[0]!
  // Counts as well as throughput: the bytes and spans exported per create do not move with the
  // machine, where on a noisy one the throughput ratio can (0.91 and 0.74 minutes apart).
  const received = { requests: 0, bytes: 0, traceBytes: 0, spans: 0 }
  const sink = createHttpServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => {
      received.bytes += chunk.length
      if (req.url?.endsWith("/v1/traces")) chunks.push(chunk)
    })
    req.on("end", () => {
      received.requests++
      if (chunks.length > 0) {
        const body = Buffer.concat(chunks).toString("utf8")
        received.traceBytes += body.length
        for (let at = body.indexOf("\"spanId\""); at !== -1; at = body.indexOf("\"spanId\"", at + 8)) received.spans++
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve))
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`
  const schema = `${runId}_telemetry`
  const hostOf = (name: string, extra: Record<string, string>) =>
    start("bench/project/Host.ts", { BENCH_STORE: store, DATABASE_URL: databaseUrl ?? "", BENCH_SCHEMA: `${schema}_${name}`, ...extra })
  const measure = async () => {
    const on = await hostOf("on", { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_BSP_SCHEDULE_DELAY: "1000", OTEL_METRIC_EXPORT_INTERVAL: "5000" })
    const off = await hostOf("off", {})
    try {
      const targets = [{ child: on, token: (await enrol(on.port)).token }, { child: off, token: (await enrol(off.port)).token }]
      for (const t of targets) await load(t, "payment", 16, warmUp)
      const [withTelemetry, without] = await interleaved(targets, "payment", 16)
      rows.push({ work: "POST /api/v1/payments, telemetry on / off", store, connections: 16, project: withTelemetry!, baseline: without! })
      // The spans of the last creates leave with the next batch: wait for it before counting.
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      const created = await paymentsCreated(on.port)
      console.log(`telemetry on (OTLP traces, metrics and logs, every span) / off, POST /payments on ${store}: ` +
        `throughput ${(withTelemetry!.perSecond / without!.perSecond).toFixed(2)}, CPU ms per request ${withTelemetry!.cpuMsPerOp.toFixed(2)} / ${without!.cpuMsPerOp.toFixed(2)}; ` +
        `the sink received ${received.requests} exports, ${(received.bytes / 1e6).toFixed(1)} MB; per create (${created} created): ` +
        `${(received.spans / created).toFixed(1)} spans, ${(received.traceBytes / created / 1024).toFixed(1)} KiB of traces`)
    } finally {
      await Promise.all([on.stop(), off.stop()])
    }
  }
  try {
    if (store === "postgres") await withSchema(`${schema}_on`, () => withSchema(`${schema}_off`, measure))
    else await measure()
  } finally {
    sink.close()
  }
}

// The memory store through the embedding (`examples/embed-engine`, rate limits off): POST /payments
// after each of `BENCH_EMBED_FILLS` stored payments, one embedded server per fill, interleaved.
if (runs("embed") && stores.includes("memory")) {
  const measured = await embedded()
  rows.push(...measured.rows)
  console.log(table(measured.rows))
}

// Webhook fan-out: in process on memory and PGlite; 1 and 2 replicas against the baseline on PostgreSQL.
for (const store of runs("main") ? stores : []) {
  for (const replicas of store === "postgres" ? [1, 2] : [1]) {
    rows.push(await fanOut({ store: store as "memory" | "pglite" | "postgres", databaseUrl, deliveries, replicas }))
  }
}

const startups = !runs("main") ? [] : [
  ["pglite", await startup("pglite", { runId, databaseUrl, short })] as const,
  ...(databaseUrl === undefined || !stores.includes("postgres") ? [] : [["postgres", await startup("postgres", { runId, databaseUrl, short })] as const])
]

console.log("")
console.log(table(rows))
const created = (store: string, connections = settings.connections(store)[0]) =>
  rows.find((r) => r.store === store && r.work === "POST /api/v1/payments" && r.connections === connections)
for (const store of stores) {
  const empty = created(store)
  const full = rows.find((r) => r.store === store && r.work.startsWith("POST /api/v1/payments +"))
  if (empty !== undefined && full !== undefined) {
    console.log(`${store}: POST /payments after ${fill} stored payments / empty = ${(full.project.perSecond / empty.project.perSecond).toFixed(2)}`)
  }
}
const pgliteRow = created("pglite", settings.connections("postgres")[0])
if (pgliteRow !== undefined && created("postgres") !== undefined) {
  console.log(`PGlite / PostgreSQL for POST /payments = ${(pgliteRow.project.perSecond / created("postgres")!.project.perSecond).toFixed(2)}`)
}
for (const floorRow of rows.filter((r) => r.store === "postgres" && r.work.endsWith("stack floor"))) {
  const postgresRow = created("postgres", floorRow.connections ?? undefined)!
  const [project, floor] = [postgresRow.project, floorRow.project]
  console.log(
    `POST /payments on PostgreSQL at ${floorRow.connections} connections, project / stack floor = ${(project.perSecond / floor.perSecond).toFixed(2)} ` +
      `(CPU ms per request ${project.cpuMsPerOp.toFixed(2)} / ${floor.cpuMsPerOp.toFixed(2)} = ${(project.cpuMsPerOp / floor.cpuMsPerOp).toFixed(2)} x; ` +
      `of it in the kernel ${(project.kernelCpuMsPerOp ?? 0).toFixed(2)} / ${(floor.kernelCpuMsPerOp ?? 0).toFixed(2)}; ` +
      `socket writes per request ${(project.writeCallsPerOp ?? 0).toFixed(1)} / ${(floor.writeCallsPerOp ?? 0).toFixed(1)})`
  )
}
const [few, many] = rows.filter((r) => r.work.startsWith("POST /api/v1/payments, embedded"))
if (few !== undefined && many !== undefined) {
  console.log(`memory store through the embedding, POST /payments ${many.work.split(", ").at(-1)} / ${few.work.split(", ").at(-1)}: ` +
    `CPU ms per request ${(many.project.cpuMsPerOp / few.project.cpuMsPerOp).toFixed(2)}x (${many.project.cpuMsPerOp.toFixed(2)} / ${few.project.cpuMsPerOp.toFixed(2)}), ` +
    `throughput ${(many.project.perSecond / few.project.perSecond).toFixed(2)}`)
}
console.log(`load generator: ${closedLoopGenerator === "wrk" ? "wrk (closed loop)" : "autocannon in a child process (closed loop; wrk not found or BENCH_LOAD=autocannon)"}, ` +
  "bench/support/Paced.ts in a child process (70 % rows); gen% = its CPU in % of one core")
for (const [store, ms] of startups) console.log(`start-up of the compiled host (node dist/host/main.js) on an empty ${store} store to its first answer: ${Math.round(ms)} ms`)
console.log(JSON.stringify(rows))
process.exit(0)
