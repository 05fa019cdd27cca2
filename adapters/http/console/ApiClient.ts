/**
 * The console's only way to read or change anything: the same API operations a script calls,
 * dispatched in-process through the host's own router (request lifecycle, authentication, rate
 * limits, idempotency and error envelope included), with the session's bearer. The client's
 * address and forwarding headers are kept, so per-address limits count the person, not the console.
 */
import { Effect } from "effect"
import { HttpEffect, type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

export interface ApiRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** From the host's root, with the query: `/api/v1/payments?limit=20`. */
  readonly path: string
  readonly bearer?: string | undefined
  readonly body?: unknown
  /** Bytes sent as they are, with their Content-Type, instead of a JSON `body` (an uploaded file). */
  readonly raw?: { readonly bytes: Uint8Array; readonly contentType: string } | undefined
  readonly idempotencyKey?: string | undefined
}

export interface ApiReply {
  readonly status: number
  /** The parsed JSON answer (an error envelope for 4xx and 5xx), or undefined for another type. */
  readonly body: any
  /** The answer as the API gave it, to pass on unchanged (statement downloads). */
  readonly response: HttpServerResponse.HttpServerResponse
}

const forwarded = ["x-forwarded-for", "x-real-ip", "user-agent", "accept-language"] as const

/**
 * Why a request cannot be sent as asked, or undefined. A path the URL parser would change is
 * refused: an id placed in it that is a dot segment (`..`, `.`; `encodeURIComponent` leaves them)
 * would otherwise take the call to another API route, with the session's bearer. A bearer or
 * idempotency key no header can carry (CR, LF, other controls) is refused too, instead of failing
 * the console's answer.
 */
const unsendable = (request: ApiRequest): string | undefined => {
  const asked = request.path.split(/[?#]/, 1)[0] ?? ""
  if (!asked.startsWith("/") || new URL(request.path, "http://console.internal").pathname !== asked) return "path"
  const control = /[\u0000-\u001f\u007f]/
  if (request.bearer !== undefined && control.test(request.bearer)) return "bearer"
  if (request.idempotencyKey !== undefined && control.test(request.idempotencyKey)) return "idempotencyKey"
  return undefined
}

/** The API's 404 (an unsendable path names nothing) or 400 envelope, without a call. */
const refusal = (what: string): ApiReply => {
  const body = what === "path"
    ? { error: { code: "not_found", message: "No such resource", requestId: "" } }
    : { error: { code: "invalid_request", message: `The ${what} cannot be sent`, requestId: "", details: { issues: [{ path: [what], message: "Control characters are not allowed" }] } } }
  const status = what === "path" ? 404 : 400
  return { status, body, response: HttpServerResponse.jsonUnsafe(body, { status }) }
}

export const makeApiClient = (router: HttpRouter.HttpRouter) => {
  // Taken at the first call: by then every route and global middleware is registered.
  let app: ReturnType<HttpRouter.HttpRouter["asHttpEffect"]> | undefined
  return Effect.fnUntraced(function*(request: ApiRequest) {
    const refused = unsendable(request)
    if (refused !== undefined) return refusal(refused)
    const outer = yield* HttpServerRequest.HttpServerRequest
    app ??= router.asHttpEffect()
    const sent = new Headers({ accept: "application/json" })
    for (const name of forwarded) {
      const value = outer.headers[name]
      if (value !== undefined) sent.set(name, value)
    }
    if (request.bearer !== undefined) sent.set("authorization", `Bearer ${request.bearer}`)
    if (request.idempotencyKey !== undefined) sent.set("idempotency-key", request.idempotencyKey)
    const body: BodyInit | undefined = request.raw !== undefined
      ? new Blob([request.raw.bytes as Uint8Array<ArrayBuffer>])
      : request.body === undefined
      ? undefined
      : JSON.stringify(request.body)
    if (request.raw !== undefined) sent.set("content-type", request.raw.contentType)
    else if (body !== undefined) sent.set("content-type", "application/json")
    const inner = HttpServerRequest.fromWeb(
      new Request(new URL(request.path, "http://console.internal"), { method: request.method, headers: sent, ...(body === undefined ? {} : { body }) })
    ).modify({ remoteAddress: outer.remoteAddress, peerAddress: outer.peerAddress })
    // Its own request frame (scope, pre-response handlers such as `Idempotent-Replayed`), as the
    // server gives every request: the answer is read whole before that frame closes.
    let answer: { readonly response: HttpServerResponse.HttpServerResponse; readonly bytes: Uint8Array } | undefined
    yield* HttpEffect.toHandled(app, (_request, response) =>
      Effect.promise(async () => {
        answer = { response, bytes: new Uint8Array(await HttpServerResponse.toWeb(response).arrayBuffer()) }
      })).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, inner))
    if (answer === undefined) return yield* Effect.die(new Error(`No answer from ${request.method} ${request.path}`))
    const { bytes } = answer
    const status = answer.response.status
    const headers = answer.response.headers
    const response = HttpServerResponse.uint8Array(bytes, { status, headers: { ...headers }, contentType: headers["content-type"] ?? "application/octet-stream" })
    if (!(headers["content-type"] ?? "").includes("json")) return { status, body: undefined, response } satisfies ApiReply
    const text = new TextDecoder().decode(bytes)
    return { status, body: text === "" ? undefined : JSON.parse(text), response } satisfies ApiReply
  })
}

export type ApiClient = ReturnType<typeof makeApiClient>

/** The field errors of a 400 envelope, by field path (`amount`, `url`, `rules.0.weight`). */
export const fieldErrors = (reply: ApiReply): ReadonlyMap<string, string> => {
  const issues: ReadonlyArray<{ path?: unknown; message?: unknown }> = reply.body?.error?.details?.issues ?? []
  const errors = new Map<string, string>()
  for (const issue of issues) {
    const path = Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? "")
    if (!errors.has(path)) errors.set(path, String(issue.message ?? ""))
  }
  return errors
}

/** The envelope's message and request id, for a failed action. */
export const errorOf = (reply: ApiReply): { readonly code: string; readonly message: string; readonly requestId: string } => ({
  code: String(reply.body?.error?.code ?? "error"),
  message: String(reply.body?.error?.message ?? `The API answered ${reply.status}`),
  requestId: String(reply.body?.error?.requestId ?? "")
})

/** The API answered a retry of an idempotent request with its first result (`Idempotent-Replayed`). */
export const replayed = (reply: ApiReply): boolean => reply.response.headers["idempotent-replayed"] === "true"
