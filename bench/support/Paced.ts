/**
 * An open-loop load at a fixed rate, for latency below saturation. Request `i` is due at
 * `start + i / rate`, whether or not earlier answers came back; it waits for one of the
 * `connections` keep-alive sockets when all are busy, and its latency is counted from when it was
 * due, so a stall shows in every request it delays (no coordinated omission).
 *
 * autocannon's `overallRate` does not do this: each connection sends its quota for the second as
 * fast as it can and then sleeps until the next one, so "70 % of peak" was a burst at full load
 * for 0.7 s of every second, and the latencies were those of saturation.
 */
import { Agent, request } from "node:http"
import { percentile } from "../Row.ts"

export interface PacedRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  /** Fresh headers for each request (an idempotency key, say). */
  readonly headers: () => Record<string, string>
  readonly body?: string | undefined
}

export interface PacedResult {
  readonly sent: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
}

/** Sends `rate` requests a second for `seconds` over `connections` sockets; fails on any non-2xx answer. */
export const paced = async (options: {
  readonly port: number
  readonly rate: number
  readonly seconds: number
  readonly connections: number
  readonly request: PacedRequest
}): Promise<PacedResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const total = Math.max(1, Math.round(options.rate * options.seconds))
  const latencies: Array<number> = []
  const failures: Array<string> = []
  const inFlight: Array<Promise<void>> = []
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const body = options.request.body
      const req = request({
        host: "127.0.0.1",
        port: options.port,
        agent,
        method: options.request.method,
        path: options.request.path,
        headers: { ...options.request.headers(), ...(body === undefined ? {} : { "content-length": Buffer.byteLength(body) }) }
      }, (response) => {
        response.resume()
        response.on("end", () => {
          latencies.push(performance.now() - due)
          if (response.statusCode === undefined || response.statusCode >= 300) failures.push(String(response.statusCode))
          resolve()
        })
      })
      req.on("error", (error) => {
        failures.push(error.message)
        resolve()
      })
      // A server that stops answering fails the run instead of hanging the bench.
      req.setTimeout(30_000, () => req.destroy(new Error("no answer within 30 s")))
      req.end(body)
    })
  const began = performance.now()
  let next = 0
  while (next < total) {
    const now = performance.now()
    // Every request due by now goes out; the loop then yields to the event loop for a millisecond.
    const due = Math.min(total, Math.floor(((now - began) / 1_000) * options.rate) + 1)
    for (; next < due; next++) inFlight.push(send(began + (next / options.rate) * 1_000))
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  await Promise.all(inFlight)
  const elapsed = (performance.now() - began) / 1_000
  agent.destroy()
  if (failures.length > 0) throw new Error(`paced load: ${failures.length} failed requests (first: ${failures[0]})`)
  latencies.sort((a, b) => a - b)
  return { sent: total, perSecond: total / elapsed, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) }
}
