/**
 * The operator's Prometheus side: the alert rules and the example scrape config load in
 * `promtool`, the rules' unit tests pass (ops/prometheus/alerts.test.yml), a real Prometheus server
 * (Debian's package) scrapes the host's `/metrics` with the admin token and sees payments move, and
 * a provider outage on an upstream simulator opens a circuit that `/metrics` shows.
 *
 * Without the `prometheus` and `promtool` binaries these tests skip and say why; under CI they fail
 * instead (.ci/run installs Debian's prometheus package).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { ReferenceHttpProvider } from "../../providers/reference-http/ReferenceHttpProvider.ts"
import { UpstreamSimulator } from "../../providers/reference-http/UpstreamSimulator.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, freePort, testHost } from "../support/Host.ts"

const opsDir = resolve(import.meta.dirname, "../../ops/prometheus")
const job = "payment-engine"

const missing = ["prometheus", "promtool"].filter((tool) => {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" })
    return false
  } catch {
    return true
  }
})
const underCi = !["", "0", "false"].includes((process.env["CI"] ?? "").toLowerCase())
const why = `no ${missing.join(", ")} on PATH (install Debian's prometheus package; .ci/run does)`
if (missing.length > 0) {
  if (underCi) {
    describe("Prometheus binaries", () => {
      it("are installed under CI", () => {
        throw new Error(`CI is set but there is ${why}`)
      })
    })
  } else {
    console.log(`SKIP Prometheus tests: ${why}`)
  }
}

/** Runs promtool and answers its exit status with everything it printed. */
const promtool = (args: ReadonlyArray<string>, cwd = opsDir) => {
  const run = spawnSync("promtool", args, { cwd, encoding: "utf8" })
  return { status: run.status, output: `promtool ${args.join(" ")}:\n${run.stdout}${run.stderr}${run.error?.message ?? ""}` }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The sum of the samples in the Prometheus text whose name and labels include these. */
const sample = (text: string, name: string, labels: Record<string, string>) =>
  text.split("\n")
    .filter((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0)

const scrape = Effect.gen(function*() {
  const url = `${yield* baseUrl}/metrics`
  return yield* Effect.promise(async () => {
    const r = await fetch(url, { headers: { authorization: `Bearer ${adminToken}` } })
    if (r.status !== 200) throw new Error(`GET /metrics: ${r.status}`)
    return r.text()
  })
})

interface PrometheusServer {
  readonly url: string
  readonly process: ChildProcess
  readonly log: () => string
}

/**
 * A Prometheus server on a free loopback port scraping `target` every second with the admin token
 * from a file, loading ops/prometheus/alerts.yml; killed and its storage removed with the scope.
 */
const startPrometheus = (target: string) =>
  Effect.gen(function*() {
    const dir = mkdtempSync(join(tmpdir(), "engine-prometheus-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    const port = yield* Effect.promise(freePort)
    writeFileSync(join(dir, "admin-token"), adminToken)
    const config = [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "rule_files:",
      `  - ${JSON.stringify(join(opsDir, "alerts.yml"))}`,
      "scrape_configs:",
      `  - job_name: ${job}`,
      "    metrics_path: /metrics",
      "    authorization:",
      "      type: Bearer",
      `      credentials_file: ${JSON.stringify(join(dir, "admin-token"))}`,
      "    static_configs:",
      `      - targets: [${JSON.stringify(target)}]`
    ].join("\n")
    writeFileSync(join(dir, "prometheus.yml"), config)
    const checked = promtool(["check", "config", join(dir, "prometheus.yml")], dir)
    assert.strictEqual(checked.status, 0, checked.output)

    let log = ""
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn("prometheus", [
          `--config.file=${join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
          "--log.level=warn"
        ], { stdio: ["ignore", "ignore", "pipe"] })
      ),
      (child) =>
        Effect.promise(async () => {
          if (child.exitCode !== null || child.signalCode !== null) return
          const exited = new Promise((r) => child.once("exit", r))
          child.kill("SIGTERM")
          if (await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)])) return
          child.kill("SIGKILL")
          await exited
        })
    )
    child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()))
    const url = `http://127.0.0.1:${port}`
    // Ready once the TSDB is open and the config (rules included) loaded.
    yield* Effect.promise(async () => {
      const until = Date.now() + 15_000
      while (Date.now() < until) {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}:\n${log}`)
        const ready = await fetch(`${url}/-/ready`).then((r) => r.status === 200, () => false)
        if (ready) return
        await sleep(100)
      }
      throw new Error(`prometheus not ready after 15 s:\n${log}`)
    })
    return { url, process: child, log: () => log } satisfies PrometheusServer
  })

/** An instant query's samples: labels and value. */
const query = (prometheus: PrometheusServer, promql: string) =>
  Effect.promise(async () => {
    const r = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`)
    const body = await r.json() as { status: string; error?: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }
    if (body.status !== "success") throw new Error(`query ${promql}: ${body.error}`)
    return body.data.result.map((s) => ({ metric: s.metric, value: Number(s.value[1]) }))
  })

/** Queries every 250 ms (for at most 15 s) until `done` holds; answers the last samples. */
const queryUntil = (prometheus: PrometheusServer, promql: string, done: (samples: ReadonlyArray<{ value: number }>) => boolean) =>
  Effect.gen(function*() {
    const until = Date.now() + 15_000
    let samples = yield* query(prometheus, promql)
    while (!done(samples) && Date.now() < until) {
      yield* Effect.promise(() => sleep(250))
      samples = yield* query(prometheus, promql)
    }
    return samples
  })

/** The metrics the host exports (adapters/http/server/Metrics.ts, core/Metrics.ts, reconciliation), as PromQL sees them. */
const exported = new Set([
  "http_requests_total",
  "payments_created_total",
  "payments_finalized_total",
  "provider_attempts_total",
  "routing_circuit_open",
  "ledger_entries_total",
  "jobs_run_total",
  "webhook_deliveries_total",
  "idempotency_requests_total",
  "rate_limit_refusals_total",
  "reconciliation_report_lines_total",
  "jobs_due",
  "job_lag_seconds",
  "jobs_dead",
  "webhook_deliveries_due",
  "webhook_oldest_due_age_seconds",
  "webhook_dead_letters",
  ...["http_request_duration_seconds", "provider_attempt_duration_seconds"].flatMap((h) => ["_bucket", "_sum", "_count"].map((s) => h + s))
])

const keywords = new Set(["and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left", "group_right"])

/** The metric names a PromQL expression selects. */
const metricsOf = (expr: string) =>
  expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "")
    .match(/[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g)
    ?.filter((name) => !keywords.has(name) && !/^\d/.test(name)) ?? []

const dashboard = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../ops/grafana/engine-dashboard.json"), "utf8")) as {
  schemaVersion: number
  __inputs: Array<{ name: string; type: string; pluginId: string }>
  templating: { list: Array<{ name: string; datasource?: { uid: string } }> }
  panels: Array<{ type: string; title: string; datasource?: { type: string; uid: string }; targets?: Array<{ expr: string; datasource?: { uid: string } }> }>
}
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })))
/** A dashboard expression as Prometheus runs it once Grafana fills in its variables. */
const asGrafanaSends = (expr: string) => expr.replaceAll("$__rate_interval", "1m").replaceAll("$__range", "1h").replaceAll("$job", job)

describe("the Grafana dashboard (ops/grafana/engine-dashboard.json)", () => {
  it("is an importable dashboard: schemaVersion 39, the Prometheus data source as the DS_PROMETHEUS input", () => {
    assert.strictEqual(dashboard.schemaVersion, 39)
    assert.isTrue(dashboard.__inputs.some((i) => i.name === "DS_PROMETHEUS" && i.type === "datasource" && i.pluginId === "prometheus"), JSON.stringify(dashboard.__inputs))
    const panels = dashboard.panels.filter((p) => p.type !== "row")
    assert.isAtLeast(panels.length, 12)
    for (const p of panels) {
      assert.deepStrictEqual(p.datasource, { type: "prometheus", uid: "${DS_PROMETHEUS}" }, p.title)
      assert.isNotEmpty(p.targets, p.title)
      for (const t of p.targets!) assert.strictEqual(t.datasource?.uid, "${DS_PROMETHEUS}", p.title)
    }
    for (const v of dashboard.templating.list) if (v.datasource !== undefined) assert.strictEqual(v.datasource.uid, "${DS_PROMETHEUS}", v.name)
  })

  it("every panel queries only metrics the host exports, and covers each of them", () => {
    // The reader of metric names itself: functions, labels, grouping, ranges and keywords are not metrics.
    assert.deepStrictEqual(
      metricsOf(`histogram_quantile(0.95, sum by (le, route) (rate(a_bucket{job=~"$job",x="y{z}"}[5m]))) / on (route) b_total and max without (c) (up) > 0.01`),
      ["a_bucket", "b_total", "up"]
    )
    const used = new Set<string>()
    for (const { panel, expr } of dashboardExprs) {
      const names = metricsOf(expr)
      assert.isNotEmpty(names, `${panel}: ${expr}`)
      for (const name of names) {
        assert.isTrue(exported.has(name), `${panel} queries ${name}, which the host does not export: ${expr}`)
        used.add(name)
      }
    }
    for (const name of exported) if (!/_(sum|count)$/.test(name)) assert.isTrue(used.has(name), `no panel shows ${name}`)
  })

  it("the alert rules use only metrics the host exports (and Prometheus's own up)", () => {
    const exprs = [...readFileSync(join(opsDir, "alerts.yml"), "utf8").matchAll(/^\s+expr: (?:\|\n((?:\s{10,}.*\n)+)|(.*)\n)/gm)]
      .map((m) => (m[1] ?? m[2]!).trim())
    assert.isAtLeast(exprs.length, 8)
    for (const expr of exprs) {
      for (const name of metricsOf(expr)) assert.isTrue(exported.has(name) || name === "up", `an alert queries ${name}: ${expr}`)
    }
  })
})

describe.skipIf(missing.length > 0)("Prometheus alert rules and config (promtool)", () => {
  it("alerts.yml passes promtool check rules", () => {
    const checked = promtool(["check", "rules", "alerts.yml"])
    assert.strictEqual(checked.status, 0, checked.output)
    assert.match(checked.output, /SUCCESS: \d+ rules found/)
  })

  it("the example prometheus.yml passes promtool check config, with its token file present", () => {
    const dir = mkdtempSync(join(tmpdir(), "engine-prometheus-config-"))
    try {
      const example = readFileSync(join(opsDir, "prometheus.yml"), "utf8")
      const tokenPath = "/etc/prometheus/payment-engine-admin-token"
      assert.include(example, `credentials_file: ${tokenPath}`)
      writeFileSync(join(dir, "admin-token"), "an-admin-token")
      writeFileSync(join(dir, "prometheus.yml"), example.replace(tokenPath, join(dir, "admin-token")))
      writeFileSync(join(dir, "alerts.yml"), readFileSync(join(opsDir, "alerts.yml")))
      const checked = promtool(["check", "config", "prometheus.yml"], dir)
      assert.strictEqual(checked.status, 0, checked.output)
      assert.match(checked.output, /SUCCESS: 1 rule files found/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("the rules' unit tests pass (promtool test rules alerts.test.yml)", () => {
    const tested = promtool(["test", "rules", "alerts.test.yml"])
    assert.strictEqual(tested.status, 0, tested.output)
    assert.include(tested.output, "SUCCESS")
    // The unit tests cover at least the circuit-open and 5xx alerts, firing and not.
    const tests = readFileSync(join(opsDir, "alerts.test.yml"), "utf8")
    for (const alert of ["RoutingCircuitOpen", "EngineHigh5xxRate"]) {
      assert.match(tests, new RegExp(`alertname: ${alert}\\n\\s+exp_alerts: \\[\\]`), `${alert} is tested quiet`)
      assert.match(tests, new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels:`), `${alert} is tested firing`)
    }
  })
})

describe.skipIf(missing.length > 0)("a real Prometheus scrapes the host", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("up is 1 with the admin token, the rules load, and payments_created_total moves as payments are made", () =>
      Effect.gen(function*() {
        const target = (yield* baseUrl).replace(/^http:\/\//, "")
        const prometheus = yield* startPrometheus(target)

        const up = yield* queryUntil(prometheus, `up{job="${job}"}`, (s) => s.length === 1 && s[0]!.value === 1)
        assert.deepStrictEqual(up.map((s) => s.value), [1], `up{job="${job}"}\n${prometheus.log()}`)

        // The alert rules loaded in the server, every one evaluated without error.
        const rules = yield* Effect.promise(async () => {
          const until = Date.now() + 10_000
          for (;;) {
            const body = await (await fetch(`${prometheus.url}/api/v1/rules`)).json() as {
              data: { groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }> }
            }
            const all = body.data.groups.flatMap((g) => g.rules)
            if (all.every((r) => r.health === "ok") || Date.now() > until) return all
            await sleep(250)
          }
        })
        const names = rules.map((r) => r.name)
        for (const alert of ["EngineHigh5xxRate", "ProviderConversionDrop", "RoutingCircuitOpen", "WebhookDeliveriesDeadLettered", "JobsDead"]) {
          assert.include(names, alert)
        }
        assert.deepStrictEqual(rules.filter((r) => r.health !== "ok").map((r) => `${r.name}: ${r.health} ${r.lastError ?? ""}`), [])

        const before = sample(yield* scrape, "payments_created_total", { rail: "sbx_pix" })
        const merchant = yield* createMerchant()
        const sk = merchant.keys.sandbox.secretKey
        for (let i = 0; i < 3; i++) {
          const paid = yield* call("POST", "/api/v1/payments", {
            bearer: sk,
            body: { amount: 10 + i, paymentMethodId: "sbx_pix", userName: "Ana Souza", documentId: "52998224725" }
          })
          assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
        }
        const created = `sum(payments_created_total{job="${job}",rail="sbx_pix"})`
        const after = yield* queryUntil(prometheus, created, (s) => s.length === 1 && s[0]!.value >= before + 3)
        assert.deepStrictEqual(after.map((s) => s.value), [before + 3], `${created}\n${prometheus.log()}`)
        // Every dashboard query runs on the real server as Grafana sends it.
        for (const { panel, expr } of dashboardExprs) {
          const r = yield* Effect.promise(() => fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(asGrafanaSends(expr))}`).then((r) => r.json()))
          assert.strictEqual((r as { status: string }).status, "success", `${panel}: ${expr}: ${JSON.stringify(r)}`)
        }
        // The HTTP request counters arrive with their bounded labels.
        const posts = yield* query(prometheus, `sum(http_requests_total{job="${job}",route="/api/v1/payments",method="POST",status="201"})`)
        assert.isAtLeast(posts[0]?.value ?? 0, 3)
      }).pipe(Effect.scoped), { timeout: 40_000 })
  })
})

class Upstreams extends Context.Service<Upstreams, { readonly down: UpstreamSimulator; readonly up: UpstreamSimulator }>()("test/OpsUpstreams") {}

const credentials = { apiKey: "ops-upstream-key", callbackSecret: "ops-upstream-secret" }

const HostWithUpstreams = Layer.unwrap(Effect.gen(function*() {
  const down = yield* UpstreamSimulator.start(credentials)
  const up = yield* UpstreamSimulator.start(credentials)
  const provider = (id: string, sim: UpstreamSimulator) =>
    connectorInstance(ReferenceHttpProvider.connector, { id, environment: "sandbox", baseUrl: sim.baseUrl }, {
      API_KEY: credentials.apiKey,
      CALLBACK_SECRET: credentials.callbackSecret
    })
  return Layer.merge(
    testHost(MemoryStore.layer, { connectors: [provider("outage-a", down), provider("outage-b", up)] }),
    Layer.succeed(Upstreams, { down, up })
  )
}))

describe("a provider outage in the metrics", () => {
  layer(HostWithUpstreams, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("an unavailable upstream's failures open its circuit: routing_circuit_open is 1 for it, 0 for the healthy one", () =>
      Effect.gen(function*() {
        const { down, up } = yield* Upstreams
        yield* down.setMode("unavailable")
        yield* up.setMode("ok")
        const merchant = yield* createMerchant()
        const shopId = merchant.shops[0]!.id
        const route = (providerId: string, priority: number, enabled = true) =>
          call("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })
        assert.strictEqual((yield* route("outage-a", 1)).status, 200)
        assert.strictEqual((yield* route("outage-b", 2)).status, 200)
        assert.strictEqual((yield* route("sandbox", 99, false)).status, 200)
        const pay = call("POST", "/api/v1/payments", {
          bearer: merchant.keys.sandbox.secretKey,
          body: { amount: 20, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        })

        const before = yield* scrape
        // core/routing/Health.ts defaultBreakerPolicy: 3 consecutive failures open the circuit.
        for (let i = 0; i < 3; i++) assert.strictEqual((yield* pay).status, 201)
        // Routing records what it sees when it plans: the next payment finds the circuit open.
        const skipped = yield* pay
        assert.strictEqual(skipped.status, 201)
        const after = yield* scrape
        const moved = (labels: Record<string, string>) =>
          sample(after, "provider_attempts_total", labels) - sample(before, "provider_attempts_total", labels)
        assert.strictEqual(moved({ provider: "outage-a", outcome: "failed" }), 3)
        assert.strictEqual(moved({ provider: "outage-b", outcome: "accepted" }), 4)
        const circuit = (provider: string) => after.split("\n").filter((l) => l.startsWith("routing_circuit_open{") && l.includes(`provider="${provider}"`))
        assert.isNotEmpty(circuit("outage-a"), after)
        assert.strictEqual(sample(after, "routing_circuit_open", { provider: "outage-a" }), 1, circuit("outage-a").join("\n"))
        assert.strictEqual(sample(after, "routing_circuit_open", { provider: "outage-b" }), 0, circuit("outage-b").join("\n"))
      }))
  })
})
