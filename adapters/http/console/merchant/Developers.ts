/**
 * Developers: the key pair in use (publishable key, secret masked) and its rotation, the shop's
 * last API requests, and in sandbox the test clock.
 *
 * Rotating revokes the pair this session's access token was minted from, so the session cannot
 * act any more: it keeps only the new pair (`Console.handOverKeys`), and the next page shows it
 * once, ends the session on the server, clears its cookie, and asks to sign in again with the new
 * keys. A second click on the rotate button reaches that page too, so the new keys are never lost.
 */
import { Effect } from "effect"
import { escapeHtml } from "../../server/pages/Html.ts"
import { formFields, render } from "../Layout.ts"
import { type Console, type ConsoleRoute, redirect } from "../Page.ts"
import { rotatedKeysPath, type SessionCredential } from "../Sessions.ts"
import { dictionary, formatDateTime } from "../Text.ts"
import { facts, field, link, notice, problem, status, table } from "../View.ts"
import { formErrors } from "./Webhooks.ts"

const words = dictionary({
  en: {
    title: "Developers", keys: "API keys", publishable: "Publishable key", secret: "Secret key", version: "Version", created: "Issued",
    rotate: "Rotate keys", rotateHint: "Revokes this environment's key pair and every token minted from it, and issues a new pair. Every integration using the old keys stops working at once, and you will have to sign in again with the new keys.",
    rotateButton: "Rotate this environment's keys", rotatedTitle: "Keys rotated", newKeys: "Your new keys",
    rotatedOnce: "Copy the secret key now: it is shown only once. The old keys no longer work, and this console session has ended.",
    signInAgain: "Sign in with the new keys", requests: "Recent requests", method: "Method", path: "Path", statusCode: "Status", requestId: "Request id",
    time: "Time", duration: "ms", noRequests: "No API requests yet.", requestsHint: "The last 100 API requests of this shop in this environment, as this server replica saw them.",
    events: "Events", eventsLink: "Browse the events", clock: "Sandbox test clock", now: "Shop time now", offset: "Ahead of real time",
    advance: "Advance", seconds: "How far", advanceButton: "Advance the clock", advanced: "The sandbox clock moved forward; everything due ran.",
    hour: "1 hour", day: "1 day", week: "7 days", month: "30 days", clockHint: "Moves this shop's sandbox time forward and runs what came due (expiry, settlement, retries). Time never goes back."
  },
  pt: {
    title: "Desenvolvedores", keys: "Chaves de API", publishable: "Chave publicável", secret: "Chave secreta", version: "Versão", created: "Emitida",
    rotate: "Trocar as chaves", rotateHint: "Revoga o par de chaves deste ambiente e todo token emitido com ele, e emite um novo par. Toda integração com as chaves antigas para na hora, e você terá que entrar de novo com as novas chaves.",
    rotateButton: "Trocar as chaves deste ambiente", rotatedTitle: "Chaves trocadas", newKeys: "Suas novas chaves",
    rotatedOnce: "Copie a chave secreta agora: ela é mostrada uma única vez. As chaves antigas não funcionam mais, e esta sessão do console terminou.",
    signInAgain: "Entrar com as novas chaves", requests: "Requisições recentes", method: "Método", path: "Caminho", statusCode: "Status", requestId: "Id da requisição",
    time: "Hora", duration: "ms", noRequests: "Nenhuma requisição à API ainda.", requestsHint: "As últimas 100 requisições à API desta loja neste ambiente, como esta réplica do servidor as viu.",
    events: "Eventos", eventsLink: "Ver os eventos", clock: "Relógio de teste do sandbox", now: "Hora da loja agora", offset: "Adiantado em relação ao tempo real",
    advance: "Avançar", seconds: "Quanto", advanceButton: "Avançar o relógio", advanced: "O relógio do sandbox avançou; tudo o que venceu foi executado.",
    hour: "1 hora", day: "1 dia", week: "7 dias", month: "30 dias", clockHint: "Avança a hora do sandbox desta loja e executa o que venceu (expiração, liquidação, novas tentativas). O tempo nunca volta."
  },
  es: {
    title: "Desarrolladores", keys: "Llaves de API", publishable: "Llave publicable", secret: "Llave secreta", version: "Versión", created: "Emitida",
    rotate: "Rotar las llaves", rotateHint: "Revoca el par de llaves de este ambiente y todo token emitido con él, y emite un par nuevo. Toda integración con las llaves anteriores deja de funcionar al instante, y tendrá que iniciar sesión otra vez con las nuevas.",
    rotateButton: "Rotar las llaves de este ambiente", rotatedTitle: "Llaves rotadas", newKeys: "Sus llaves nuevas",
    rotatedOnce: "Copie la llave secreta ahora: se muestra una sola vez. Las llaves anteriores ya no funcionan y esta sesión de la consola terminó.",
    signInAgain: "Iniciar sesión con las llaves nuevas", requests: "Solicitudes recientes", method: "Método", path: "Ruta", statusCode: "Estado", requestId: "Id de solicitud",
    time: "Hora", duration: "ms", noRequests: "Aún no hay solicitudes a la API.", requestsHint: "Las últimas 100 solicitudes a la API de esta tienda en este ambiente, como las vio esta réplica del servidor.",
    events: "Eventos", eventsLink: "Ver los eventos", clock: "Reloj de prueba del sandbox", now: "Hora de la tienda ahora", offset: "Adelantado respecto del tiempo real",
    advance: "Avanzar", seconds: "Cuánto", advanceButton: "Avanzar el reloj", advanced: "El reloj del sandbox avanzó; se ejecutó todo lo vencido.",
    hour: "1 hora", day: "1 día", week: "7 días", month: "30 días", clockHint: "Avanza la hora del sandbox de esta tienda y ejecuta lo vencido (vencimientos, liquidación, reintentos). El tiempo nunca retrocede."
  }
})

const developersPage = (c: Console, options: { readonly top?: string; readonly clockErrors?: ReadonlyMap<string, string>; readonly status?: number } = {}) =>
  Effect.gen(function*() {
    const t = words(c.language)
    const keys = yield* c.api({ method: "GET", path: "/api/v1/me/keys" })
    const requests = yield* c.api({ method: "GET", path: "/api/v1/me/requests" })
    const k = keys.body
    const keyCard = keys.status !== 200 ? problem(keys) : facts([
      [t.publishable, `<code data-testid="publishable-key">${escapeHtml(k.publishableKey)}</code>`],
      [t.secret, `<code data-testid="secret-key">${escapeHtml(k.secretKey)}</code>`],
      [t.version, escapeHtml(String(k.version))],
      [t.created, escapeHtml(formatDateTime(k.createdAt, c.language))]
    ])
    const log = requests.status !== 200 ? problem(requests) : table(t.requests, [
      { label: t.time }, { label: t.method }, { label: t.path }, { label: t.statusCode }, { label: t.duration, numeric: true }, { label: t.requestId }
    ], (requests.body.data as ReadonlyArray<any>).map((r) => [
      escapeHtml(new Date(r.at).toISOString().replace("T", " ").slice(0, 19)),
      escapeHtml(r.method),
      `<code>${escapeHtml(r.path)}</code>`,
      status(String(r.status), r.status < 300 ? "good" : r.status < 500 ? "wait" : "bad"),
      escapeHtml(String(r.durationMs)),
      `<code>${escapeHtml(r.requestId)}</code>`
    ]), t.noRequests)
    let clock = ""
    if (c.session.environment === "sandbox") {
      const reading = yield* c.api({ method: "GET", path: "/api/v1/sandbox/clock" })
      const errors = options.clockErrors ?? new Map<string, string>()
      clock = `<section aria-labelledby="clock-heading"><h2 id="clock-heading">${escapeHtml(t.clock)}</h2>${
        reading.status !== 200 ? problem(reading) : facts([
          [t.now, `<span data-testid="clock-now">${escapeHtml(reading.body.now)}</span>`],
          [t.offset, `<span data-testid="clock-offset">${escapeHtml(String(reading.body.offsetSeconds))}</span> s`]
        ])
      }<form method="post" action="/console/developers/clock" class="stack">${formFields(c.session, yield* c.newKey)}<p class="muted">${escapeHtml(t.clockHint)}</p>
${field("seconds", t.seconds, { options: [["3600", t.hour], ["86400", t.day], ["604800", t.week], ["2592000", t.month]], value: "86400", error: errors.get("seconds") })}
<div><button type="submit">${escapeHtml(t.advanceButton)}</button></div></form></section>`
    }
    const body = `<h1>${escapeHtml(t.title)}</h1>${c.query.get("done") === "advanced" ? notice(t.advanced) : ""}${options.top ?? ""}
<section aria-labelledby="keys-heading"><h2 id="keys-heading">${escapeHtml(t.keys)}</h2>${keyCard}
<form method="post" action="/console/developers/rotate-keys" class="stack">${formFields(c.session, yield* c.newKey)}
<p class="muted">${escapeHtml(t.rotateHint)}</p><div><button type="submit" class="danger">${escapeHtml(t.rotateButton)}</button></div></form></section>
${clock}
<section id="requests"><h2 id="requests-heading">${escapeHtml(t.requests)}</h2><p class="muted">${escapeHtml(t.requestsHint)}</p>${log}</section>
<section aria-labelledby="events-heading"><h2 id="events-heading">${escapeHtml(t.events)}</h2><p>${link("/console/developers/events", t.eventsLink)}</p></section>`
    return c.page(t.title, body, { section: "developers", ...(options.status === undefined ? {} : { status: options.status }) })
  })

export const developerRoutes: ReadonlyArray<ConsoleRoute> = [
  { method: "GET", path: "/console/developers", side: "merchant", handler: (c) => developersPage(c) },
  {
    method: "POST",
    path: "/console/developers/rotate-keys",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const reply = yield* c.api({ method: "POST", path: "/api/v1/me/keys/rotate", idempotencyKey: c.form.get("idempotencyKey") ?? undefined })
        if (reply.status !== 200) return yield* developersPage(c, { top: problem(reply), status: reply.status >= 500 ? 502 : reply.status })
        // The session's token is revoked now: it keeps only the new pair, shown once by the next page.
        return yield* c.handOverKeys({ publishableKey: reply.body.keys.publishableKey, secretKey: reply.body.keys.secretKey })
      })
  },
  {
    method: "GET",
    path: rotatedKeysPath,
    side: "rotated",
    handler: (c) => {
      const t = words(c.language)
      const keys = c.session.credential as Extract<SessionCredential, { readonly kind: "rotated" }>
      const environment = c.session.environment ?? "sandbox"
      return c.endSession(render({
        title: t.rotatedTitle,
        language: c.language,
        session: undefined,
        body: `<h1>${escapeHtml(t.rotatedTitle)}</h1><p class="notice" role="status">${escapeHtml(t.rotatedOnce)}</p>
<section class="card" aria-labelledby="new-keys-heading"><h2 id="new-keys-heading">${escapeHtml(t.newKeys)} (${escapeHtml(environment)})</h2>
<p>${escapeHtml(t.publishable)}</p><p class="secret" data-testid="new-publishable-key">${escapeHtml(keys.publishableKey)}</p>
<p>${escapeHtml(t.secret)}</p><p class="secret" data-testid="new-secret-key">${escapeHtml(keys.secretKey)}</p></section>
<p><a class="button" href="/console/sign-in?next=${encodeURIComponent("/console/developers")}">${escapeHtml(t.signInAgain)}</a></p>`
      }))
    }
  },
  {
    method: "POST",
    path: "/console/developers/clock",
    side: "merchant",
    handler: (c) =>
      Effect.gen(function*() {
        const seconds = Number(c.form.get("seconds") ?? "")
        const reply = yield* c.api({ method: "POST", path: "/api/v1/sandbox/clock/advance", body: { seconds }, idempotencyKey: c.form.get("idempotencyKey") ?? undefined })
        if (reply.status === 200) return redirect("/console/developers?done=advanced")
        return yield* developersPage(c, { top: problem(reply), clockErrors: formErrors(reply), status: reply.status >= 500 ? 502 : reply.status })
      })
  }
]
