/**
 * Sends webhooks over HTTP(S) with `node:http`: the exact body bytes, one timeout, no redirects
 * (a 3xx is an answer like any other non-2xx: a failed attempt), and, unless private targets are
 * allowed, the address the connection uses is the one that was checked: the DNS answer is
 * classified (`TargetAddress.ts`) inside the socket's own lookup, so a name that resolves to an
 * internal address (DNS rebinding included) is never connected to. A refused target is
 * `target refused` in the delivery log the merchant reads; what the name resolved to, and why it
 * was refused, is for the operator alone: a warning in the host's log.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import { Agent as HttpAgent, request as httpRequest } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import { Duration, Effect, Layer } from "effect"
import { WebhookSender } from "../../core/ports/WebhookSender.ts"
import { forbiddenAddress, forbiddenHost } from "./TargetAddress.ts"

/** `Retry-After` as seconds (delta-seconds or an HTTP date). */
export const retryAfterSeconds = (value: string | undefined, nowMs: number): number | null => {
  if (value === undefined) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000))
}

export interface Options {
  /** Deliver to loopback and private addresses too (local development and tests only). */
  readonly allowPrivateTargets: boolean
}

/** What the merchant's delivery log says of a target refused: nothing of what it resolved to. */
export const targetRefused = "target refused"

const refusedPrefix = "refused target: "

/** A refused target: the detail to the operator's log, `target refused` to the delivery log. */
const refusal = (detail: string) =>
  Effect.logWarning("webhook target refused").pipe(
    Effect.annotateLogs({ reason: detail }),
    Effect.andThen(Effect.fail(targetRefused))
  )

/** A DNS lookup that refuses every answer outside public unicast space. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: Array<LookupAddress>) => {
    if (error !== null) return callback(error, "", 0)
    const refused = addresses.map((a) => forbiddenAddress(a.address)).find((reason) => reason !== undefined)
    const first = addresses[0]
    if (refused !== undefined || first === undefined) {
      return callback(Object.assign(new Error(`${refusedPrefix}${hostname} resolves to an internal address (${refused ?? "none"})`), { code: "EREFUSED" }), "", 0)
    }
    if (options.all === true) return (callback as unknown as (e: null, a: Array<LookupAddress>) => void)(null, addresses)
    callback(null, first.address, first.family)
  })
}

/**
 * Connections are kept alive between deliveries (a batch to one receiver reuses its sockets),
 * at most `socketsPerHost` to one host at once. A kept connection goes to the address its own
 * lookup checked when it opened. An idle one is closed after `idleSocketMs` (or the receiver's
 * `Keep-Alive: timeout` hint, if shorter), before a receiver with Node's default 5 s closes it
 * under a request.
 */
const socketsPerHost = 64
const idleSocketMs = 4_000
const agents = () => ({
  http: new HttpAgent({ keepAlive: true, maxSockets: socketsPerHost, scheduling: "lifo", timeout: idleSocketMs }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: socketsPerHost, scheduling: "lifo", timeout: idleSocketMs })
})
type Agents = ReturnType<typeof agents>

/** How much of an answer's body the delivery log keeps. */
export const excerptBytes = 1024

const post = (
  agents: Agents,
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
  lookup: LookupFunction | undefined
) =>
  Effect.callback<{ readonly status: number; readonly retryAfter: string | undefined; readonly excerpt: string }, string>((resume) => {
    const https = url.protocol === "https:"
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: "POST",
      agent: https ? agents.https : agents.http,
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      timeout: timeoutMs,
      ...(lookup === undefined ? {} : { lookup })
    }, (res) => {
      // The first bytes of the answer are kept for the delivery log; the rest is read and dropped.
      const kept: Array<Buffer> = []
      let keptBytes = 0
      res.on("data", (chunk: Buffer) => {
        if (keptBytes < excerptBytes) {
          kept.push(chunk.subarray(0, excerptBytes - keptBytes))
          keptBytes += Math.min(chunk.length, excerptBytes - keptBytes)
        }
      })
      res.on("end", () => {
        const retryAfter = res.headers["retry-after"]
        const excerpt = Buffer.concat(kept).toString("utf8").replace(/\uFFFD$/, "").slice(0, excerptBytes)
        resume(Effect.succeed({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, excerpt }))
      })
      res.on("error", (e) => resume(Effect.fail(`network error: ${e.message}`)))
    })
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)))
    req.on("error", (e) =>
      resume(
        e.message.startsWith(refusedPrefix)
          ? refusal(e.message.slice(refusedPrefix.length))
          : Effect.fail(e.message.startsWith("timeout") ? e.message : `network error: ${e.message}`)
      ))
    req.end(body)
    return Effect.sync(() => req.destroy())
  })

export const layer = (options: Options) =>
  Layer.effect(
    WebhookSender,
    Effect.gen(function*() {
      const pool = yield* Effect.acquireRelease(Effect.sync(agents), (a) => Effect.sync(() => {
        a.http.destroy()
        a.https.destroy()
      }))
      return WebhookSender.of({
        checkTarget: (url) => Effect.sync(() => options.allowPrivateTargets ? undefined : forbiddenHost(url)),
        send: (url, headers, body, timeoutMs) =>
          Effect.gen(function*() {
            const target = new URL(url)
            if (!options.allowPrivateTargets) {
              const refused = forbiddenHost(url)
              if (refused !== undefined) return yield* refusal(`${target.hostname}: ${refused}`)
            }
            // One deadline for the whole attempt (a receiver trickling bytes cannot hold it longer).
            const answer = yield* post(pool, target, headers, body, timeoutMs, options.allowPrivateTargets ? undefined : guardedLookup).pipe(
              Effect.timeoutOrElse({ duration: Duration.millis(timeoutMs), orElse: () => Effect.fail(`timeout after ${timeoutMs} ms`) })
            )
            return {
              status: answer.status,
              retryAfterSeconds: retryAfterSeconds(answer.retryAfter, Date.now()),
              bodyExcerpt: answer.excerpt.replaceAll("\u0000", "")
            }
          })
      })
    })
  )

export const HttpWebhookSender = { layer }
