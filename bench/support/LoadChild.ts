/**
 * A load generator in a process of its own (`Load.ts` forks it): autocannon for a closed loop,
 * `Paced.ts` for an open loop at a fixed rate. It says it is ready, receives what to run, and sends
 * back what it measured with the CPU this process used while it sent (`process.cpuUsage()`, the
 * start-up of the process left out).
 */
import autocannon from "autocannon"
import type { ChildSpec, GeneratorReport, LoadRequest } from "./Load.ts"
import { paced } from "./Paced.ts"

const headersOf = (request: LoadRequest) => () => ({
  ...request.headers,
  ...(request.idempotencyKey === true ? { "idempotency-key": crypto.randomUUID() } : {})
})

const closed = async (spec: Extract<ChildSpec, { kind: "closed" }>): Promise<Omit<GeneratorReport, "cpuMs">> => {
  const headers = headersOf(spec.request)
  const began = performance.now()
  const result = await autocannon({
    url: `http://127.0.0.1:${spec.port}`,
    connections: spec.connections,
    ...(spec.amount === undefined ? { duration: spec.seconds ?? 10 } : { amount: spec.amount }),
    requests: [{
      method: spec.request.method,
      path: spec.request.path,
      ...(spec.request.body === undefined ? {} : { body: spec.request.body }),
      setupRequest: (r: any) => ({ ...r, headers: headers() })
    }]
  })
  return {
    requests: result.requests.total,
    // The wall clock: autocannon's own duration is in whole seconds after an amount.
    seconds: (performance.now() - began) / 1_000,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors
  }
}

const open = async (spec: Extract<ChildSpec, { kind: "open" }>): Promise<Omit<GeneratorReport, "cpuMs">> => {
  const { sent, perSecond, p50Ms, p99Ms } = await paced({
    port: spec.port,
    rate: spec.rate,
    seconds: spec.seconds,
    connections: spec.connections,
    request: { method: spec.request.method, path: spec.request.path, body: spec.request.body, headers: headersOf(spec.request) }
  })
  // Paced throws on any failed request, so every request sent was answered with a 2xx.
  return { requests: sent, seconds: sent / perSecond, p50Ms, p99Ms, failures: 0 }
}

process.once("message", (spec: ChildSpec) => {
  const began = process.cpuUsage()
  ;(spec.kind === "closed" ? closed(spec) : open(spec)).then(
    (result) => {
      const used = process.cpuUsage(began)
      const report: GeneratorReport = { ...result, cpuMs: (used.user + used.system) / 1_000 }
      process.send!({ report }, () => process.exit(0))
    },
    (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(1))
  )
})
process.send!({ ready: true })
