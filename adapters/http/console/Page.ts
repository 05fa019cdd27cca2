/**
 * A console page or action: the session it needs, checked before the handler runs.
 *
 * - No live session: a page answers `303` to the sign-in page (coming back after); an action too.
 * - A merchant session on an operator page, or the reverse: 404, as for a page that does not exist.
 * - An action (POST) must come from this host (`Origin`, and `Sec-Fetch-Site` where the browser
 *   sends it) and carry the session's CSRF token; otherwise 403 and nothing is done. The cookie is
 *   `SameSite=Strict` as well.
 */
import { Data, Effect, Option, Scope, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, Multipart } from "effect/http"
import { SecureRandom } from "effect/crypto"
import { safeEqual } from "../../../core/Secrets.ts"
import { escapeHtml } from "../server/pages/Html.ts"
import type { ApiClient, ApiReply, ApiRequest } from "./ApiClient.ts"
import { render, type Section } from "./Layout.ts"
import { type OpenSession, rotatedKeysPath, type SessionCredential, type Sessions, type ShownOnce, shownOncePath } from "./Sessions.ts"
import { dictionary, type Language, languageOf } from "./Text.ts"

export const sessionCookie = "console_session"

/** The session cookie, emptied and expired. */
export const clearedCookie = `${sessionCookie}=; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age=0`

const words = dictionary((catalog) => catalog.console.shell.page)

/** What a page handler works with. */
export interface Console {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly session: OpenSession
  readonly language: Language
  readonly query: URLSearchParams
  /** The route's path parameters (`:id`), decoded by the router. */
  readonly params: Readonly<Record<string, string | undefined>>
  /** The submitted form of an action (empty for a page): its text fields, multipart or not. */
  readonly form: URLSearchParams
  /** The files of a multipart action (`form: "multipart"`), by field name; empty otherwise. */
  readonly files: ReadonlyMap<string, UploadedFile>
  /** A multipart body that could not be read whole: why (`BodyTooLarge`, `Parse`...), else undefined. */
  readonly formProblem: Multipart.MultipartErrorReason["_tag"] | undefined
  /**
   * An API operation with this session's bearer. A merchant session whose token the API no
   * longer takes (a removed team member, a changed role, revoked keys) fails with `SessionEnded`:
   * the page ends the session and sends to the sign-in.
   */
  readonly api: (request: Omit<ApiRequest, "bearer">) => Effect.Effect<ApiReply, SessionEnded>
  /** A fresh idempotency key for a form about to be shown. */
  readonly newKey: Effect.Effect<string>
  /** Ends this session on the server and answers `response` with the cookie cleared. */
  readonly endSession: (response: HttpServerResponse.HttpServerResponse) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /**
   * After this session rotated its own keys (its token is now revoked): keeps only the new pair,
   * sealed like any credential, and sends the browser to the page that shows it once. A second
   * click on the rotate button lands there too, instead of on a sign-in that would lose the keys.
   */
  /**
   * After an action whose answer holds a secret shown once: keeps `page` sealed in the session and
   * sends the browser to the page that shows it, once (post/redirect/get). A second click replays
   * the API's answer with the secret masked (`replayed`): it does not overwrite the page still to
   * be shown, so the browser lands on the real secret whichever click's answer it keeps.
   */
  readonly showOnce: (page: ShownOnce, replayed: boolean) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** Forgets the page `showOnce` kept, as it is shown. */
  readonly forgetShownOnce: Effect.Effect<void>
  readonly handOverKeys: (keys: { readonly publishableKey: string; readonly secretKey: string }) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** The page shell around `body`, with this session's band and navigation. */
  readonly page: (title: string, body: string, options?: { readonly section?: Section | undefined; readonly status?: number | undefined }) => HttpServerResponse.HttpServerResponse
}

/**
 * Who a route is for: a merchant, the operator, a merchant session that just rotated its keys, or
 * any signed-in merchant or operator.
 */
export type Side = SessionCredential["kind"] | "signedIn"

export interface ConsoleRoute {
  readonly method: "GET" | "POST"
  readonly path: `/console/${string}`
  readonly side: Side
  /**
   * How an action's body is read: urlencoded (the default), or `multipart` for a form with a file
   * input. Either way the CSRF token is a field of the form, and is checked before the handler runs.
   */
  readonly form?: "multipart" | undefined
  readonly handler: (console: Console) => Effect.Effect<HttpServerResponse.HttpServerResponse, SessionEnded>
}

export const redirect = (location: string) => HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })

/** True when a POST comes from a page of this host. */
export const sameOrigin = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const site = request.headers["sec-fetch-site"]
  if (site !== undefined && site !== "same-origin" && site !== "none") return false
  const origin = request.headers["origin"]
  if (origin === undefined) return site !== undefined || request.headers["referer"] === undefined
  if (origin === "null") return false
  try {
    return new URL(origin).host === request.headers["host"]
  } catch {
    return false
  }
}

export const readForm = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(Effect.map((text) => new URLSearchParams(text)), Effect.orElseSucceed(() => new URLSearchParams()))

/** A file of a multipart form, read whole (the body limit of its route bounds it). */
export interface UploadedFile {
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/**
 * A multipart form's text fields and files. Every part is a field or a file by its `filename`
 * alone (a JSON file stays a file). A body that breaks off keeps the fields read before the break
 * (the CSRF token comes first in the console's forms) and tells why.
 */
export const readMultipart = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const form = new URLSearchParams()
    const files = new Map<string, UploadedFile>()
    const problem = yield* Stream.runForEach(request.multipartStream, (part) =>
      Multipart.isField(part)
        ? Effect.sync(() => form.append(part.key, part.value))
        : Multipart.isFile(part)
        ? Effect.map(part.contentEffect, (bytes) => {
          if (!files.has(part.key)) files.set(part.key, { name: part.name, contentType: part.contentType, bytes })
        })
        : Effect.void).pipe(
        Effect.provideService(Multipart.FieldMimeTypes, []),
        Effect.as(undefined),
        Effect.catch((error) => Effect.succeed(error.reason._tag))
      )
    return { form, files, problem }
  })

/** The API no longer takes the session's token: the session is over. */
export class SessionEnded extends Data.TaggedError("SessionEnded")<{}> {}

export const makeRoute = (sessions: Sessions["Service"], api: ApiClient, random: SecureRandom.SecureRandom["Service"]) =>
(route: ConsoleRoute) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const language = languageOf(request)
    const t = words(language)
    const url = new URL(request.url, "http://console.internal")
    const cookie = request.cookies[sessionCookie]
    const session = cookie === undefined ? Option.none<OpenSession>() : yield* sessions.open(cookie)
    if (Option.isNone(session)) {
      const next = route.method === "GET" ? `?next=${encodeURIComponent(url.pathname + url.search)}` : ""
      return redirect(`/console/sign-in${next}`)
    }
    const live = session.value
    const page: Console["page"] = (title, body, options) =>
      render({ title, body, language, session: live, section: options?.section, status: options?.status })
    if (live.credential.kind === "rotated" && route.side !== "rotated") return redirect(rotatedKeysPath)
    const signedIn = route.side === "signedIn" && live.credential.kind !== "rotated"
    if (!signedIn && live.credential.kind !== route.side) {
      return page(t.notFound, `<h1>${escapeHtml(t.notFound)}</h1><p>${escapeHtml(t.notFoundBody)}</p>`, { status: 404 })
    }
    // A secret still to be shown once comes before any other page.
    if (live.credential.kind !== "rotated" && live.credential.shownOnce !== undefined && route.method === "GET" && route.path !== shownOncePath) {
      return redirect(shownOncePath)
    }
    const read = route.method !== "POST"
      ? { form: new URLSearchParams(), files: new Map<string, UploadedFile>(), problem: undefined }
      : route.form === "multipart"
      ? yield* readMultipart(request)
      : { form: yield* readForm(request), files: new Map<string, UploadedFile>(), problem: undefined }
    const form = read.form
    if (route.method === "POST" && (!sameOrigin(request) || !safeEqual(form.get("csrf") ?? "", live.csrfToken))) {
      return page(t.forbidden, `<h1>${escapeHtml(t.forbidden)}</h1><p>${escapeHtml(t.forbiddenBody)}</p>`, { status: 403 })
    }
    const scope = yield* Scope.Scope
    const credential = live.credential
    const bearer = credential.kind === "merchant" ? credential.accessToken : credential.kind === "operator" ? credential.adminToken : undefined
    return yield* route.handler({
      request,
      session: live,
      language,
      query: url.searchParams,
      params: yield* HttpRouter.params,
      form,
      files: read.files,
      formProblem: read.problem,
      api: (call) =>
        api({ ...call, bearer }).pipe(
          Effect.provideService(HttpServerRequest.HttpServerRequest, request),
          Effect.provideService(Scope.Scope, scope),
          Effect.flatMap((reply) =>
            credential.kind === "merchant" && reply.status === 401 && ["token_revoked", "token_expired", "invalid_api_key"].includes(reply.body?.error?.code)
              ? Effect.fail(new SessionEnded())
              : Effect.succeed(reply))
        ),
      newKey: Effect.map(random.ulid, (id) => `console_${id.toLowerCase()}`),
      endSession: (response) =>
        Effect.as(sessions.end(cookie!), HttpServerResponse.setHeader(response, "set-cookie", clearedCookie)),
      showOnce: (shown, replayed) =>
        Effect.gen(function*() {
          if (credential.kind === "rotated") return redirect(rotatedKeysPath)
          if (replayed) {
            // Read again: the first click may have kept its page while this request ran.
            const pending = (yield* sessions.open(cookie!)).pipe(Option.map((s) => s.credential), Option.getOrUndefined)
            if (pending !== undefined && pending.kind !== "rotated" && pending.shownOnce !== undefined) return redirect(shownOncePath)
            return page(shown.title, shown.body, { section: shown.section as Section | undefined })
          }
          yield* sessions.replace(cookie!, { ...credential, shownOnce: shown })
          return redirect(shownOncePath)
        }),
      forgetShownOnce: credential.kind === "rotated"
        ? Effect.void
        : sessions.replace(cookie!, { ...credential, shownOnce: undefined }),
      handOverKeys: (keys) =>
        Effect.gen(function*() {
          const merchantName = credential.kind === "merchant" ? credential.merchantName : ""
          yield* sessions.replace(cookie!, { kind: "rotated", merchantName, ...keys })
          return redirect(rotatedKeysPath)
        }),
      page
    }).pipe(Effect.catchTag("SessionEnded", () =>
      Effect.as(sessions.end(cookie!), HttpServerResponse.setHeader(redirect("/console/sign-in"), "set-cookie", clearedCookie))))
  })
