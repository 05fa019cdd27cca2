/**
 * The plumbing every upstream simulator shares, so a simulator file holds only its API's rules:
 * a `node:http` server on `127.0.0.1:<free port>` in a `Scope`, requests recorded in order,
 * answers that may leave later than the work was done (a lost answer, as a real timeout looks),
 * callbacks POSTed with their outcome recorded, and the idempotency memo of POST endpoints.
 * Run standalone (`Standalone.ts`), it listens on the port asked for, answers the control routes
 * under `/_simulator/` and applies the notification faults they set.
 * Test tooling: never imported by a plugin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"
import { type Control, CurrentControl, matchRoute } from "./Standalone.ts"

export interface SimulatorRequest {
  readonly method: string
  /** The path without the query. */
  readonly path: string
  readonly query: URLSearchParams
  /** Lowercase names, repeated headers joined with `,`. */
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: string
}

export interface Answer {
  readonly status: number
  readonly body: unknown
}

/** What a simulator does with one request. */
export interface Handled {
  readonly answer: Answer
  /** Whether the request carried valid credentials (recorded). */
  readonly authorized: boolean
  /** The answer leaves this long after the work was done. Default 0. */
  readonly delayMs?: number | undefined
  /** Recorded with the request (the simulator's idempotency key, say). */
  readonly idempotencyKey?: string | undefined
}

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly authorized: boolean
  /** What was answered (`0` while a late answer is still on its way). */
  status: number
}

export interface SentCallback {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** `dropped` when callbacks are being lost; else the receiver's HTTP status, or `unreachable`. */
  readonly outcome: "dropped" | "unreachable" | number
}

export interface SimulatorServer {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string
  readonly requests: ReadonlyArray<RecordedRequest>
  readonly callbacksSent: ReadonlyArray<SentCallback>
  /** Runs `f` after `ms` unless the server has closed by then. */
  readonly later: (ms: number, f: () => void) => void
  /** POSTs a callback (or records it `dropped`), waiting for the receiver's answer. */
  readonly sendCallback: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    options?: { readonly drop?: boolean | undefined }
  ) => Promise<void>
}

const maxBodyBytes = 1 << 20

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) req.destroy(new Error("body too large"))
      else chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/**
 * Starts the server; `handle` is called with each request (its `baseUrl` is known by then). The
 * server and every pending timer are gone when the scope closes.
 */
export const serve = (
  handle: (request: SimulatorRequest, server: SimulatorServer) => Handled | Promise<Handled>
): Effect.Effect<SimulatorServer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const control = yield* CurrentControl
    const requests: Array<RecordedRequest> = []
    const callbacksSent: Array<SentCallback> = []
    const timers = new Set<NodeJS.Timeout>()
    let self: SimulatorServer | undefined

    const later = (ms: number, f: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        f()
      }, ms)
      timers.add(timer)
    }

    const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
      const body = await readBody(req)
      const url = new URL(req.url ?? "/", "http://simulator")
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v])
      )
      const request: SimulatorRequest = { method: req.method ?? "", path: url.pathname, query: url.searchParams, headers, body }
      if (control !== undefined && request.path.startsWith(controlPrefix)) {
        const answer = await controlAnswer(control, request)
        return void res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body))
      }
      const handled = await handle(request, self!)
      const record: RecordedRequest = {
        method: request.method,
        path: request.path,
        idempotencyKey: handled.idempotencyKey,
        authorized: handled.authorized,
        status: 0
      }
      requests.push(record)
      const respond = () => {
        record.status = handled.answer.status
        res.writeHead(handled.answer.status, { "content-type": "application/json" }).end(JSON.stringify(handled.answer.body))
      }
      if ((handled.delayMs ?? 0) <= 0) respond()
      else later(handled.delayMs!, respond)
    }

    const server = yield* Effect.acquireRelease(
      Effect.callback<ReturnType<typeof createServer>>((resume) => {
        const server = createServer((req, res) => {
          onRequest(req, res).catch(() => {
            if (!res.headersSent) res.writeHead(500).end()
          })
        })
        server.listen(control?.port ?? 0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.callback<void>((resume) => {
          for (const timer of timers) clearTimeout(timer)
          timers.clear()
          server.close(() => resume(Effect.void))
          server.closeAllConnections()
        })
    )

    const post = async (url: string, headers: Readonly<Record<string, string>>, body: string, options?: { readonly drop?: boolean | undefined }) => {
      if (options?.drop === true) return void callbacksSent.push({ url, headers, body, outcome: "dropped" })
      const outcome = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(2_000) }).then(
        async (response) => {
          await response.arrayBuffer().catch(() => undefined)
          return response.status
        },
        () => "unreachable" as const
      )
      callbacksSent.push({ url, headers, body, outcome })
    }
    // Standalone, the control routes' faults apply to every notification: dropped, sent late,
    // sent again. A simulator's own `drop` option still applies.
    const sendCallback: SimulatorServer["sendCallback"] = async (url, headers, body, options) => {
      if (control === undefined) return post(url, headers, body, options)
      const { delayMs, drop, repeat } = control.faults
      const send = () => post(url, headers, body, { drop: drop || options?.drop === true })
      const sendAll = async () => {
        for (let i = 0; i <= repeat; i++) await send()
      }
      if (delayMs <= 0) return sendAll()
      later(delayMs, () => void sendAll())
    }

    self = {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests,
      callbacksSent,
      later,
      sendCallback
    }
    return self
  })

const controlPrefix = "/_simulator"

/** The control routes' answer: a move, a fault setting, or the list of routes. */
const controlAnswer = async (control: Control, request: SimulatorRequest): Promise<Answer> => {
  const faults = control.faults
  let input: unknown
  try {
    input = request.body === "" ? {} : JSON.parse(request.body)
  } catch {
    return { status: 400, body: { error: "the body is not JSON" } }
  }
  const number = (key: string) => {
    const value = (input as Record<string, unknown> | null)?.[key]
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined
  }
  if (request.method === "POST" && request.path === `${controlPrefix}/notifications`) {
    const drop = (input as Record<string, unknown> | null)?.["drop"]
    if (drop !== undefined && typeof drop !== "boolean") return { status: 400, body: { error: "drop must be a boolean" } }
    if (drop !== undefined) faults.drop = drop
    const delayMs = number("delayMs")
    const repeat = number("repeat")
    if (delayMs !== undefined) faults.delayMs = delayMs
    if (repeat !== undefined) faults.repeat = repeat
    return { status: 200, body: { notifications: faults } }
  }
  const route = matchRoute(control, request.method, request.path)
  if (route === undefined) {
    return {
      status: 404,
      body: { error: "no such control route", routes: [`POST ${controlPrefix}/notifications`, ...control.routes.keys()] }
    }
  }
  try {
    return { status: 200, body: (await route.run(route.id, input)) ?? { ok: true } }
  } catch (e) {
    return { status: 404, body: { error: e instanceof Error ? e.message : String(e) } }
  }
}

/**
 * The idempotency memo of an API's POST endpoints: the same key with the same body answers what
 * the first request was answered; with another body, `conflict`. Refusals (4xx/5xx) are not
 * remembered, so a retry after a fix, or after an outage, can succeed.
 */
export const idempotencyMemo = (conflict: Answer) => {
  const seen = new Map<string, { readonly body: string; readonly answer: Answer }>()
  return (scope: string, key: string, body: string, create: () => Answer): Answer => {
    const earlier = seen.get(`${scope} ${key}`)
    if (earlier !== undefined) return earlier.body === body ? earlier.answer : conflict
    const answer = create()
    if (answer.status < 400) seen.set(`${scope} ${key}`, { body, answer })
    return answer
  }
}

export const SimulatorServer = { serve, idempotencyMemo }
