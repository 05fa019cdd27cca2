/**
 * `npm run simulator -- circle [--port N] [--webhook-url URL]`: Circle's transfer API in miniature
 * (`CircleSimulator.ts`) on its own, with fixed test credentials (see `providers/kit/Standalone.ts`).
 * It prints the environment of a `circle` connector instance in sandbox against it: the API key,
 * the wallet the transfers are paid from, and `CIRCLE_SNS_CERT_URL_PREFIX`, which makes the
 * connector trust the simulator's own SNS certificate (never set it in production).
 *
 * Circle moves no pay-ins, so there are no payment moves; its control routes move transfers:
 *
 * - `POST /_simulator/transfers/:id/complete` `{ "transactionHash"?: "0x..." }`,
 *   `POST /_simulator/transfers/:id/fail` `{ "errorCode"?: "transfer_failed" }` (`:id` is
 *   Circle's transfer id, the batch's `providerRef`);
 * - `POST /_simulator/transfers/auto-complete` `{ "ms": 2000 | null }`: transfers complete that
 *   long after creation, or stay pending until moved;
 * - `POST /_simulator/mode` `{ "mode": "ok" | "unavailable" | "slow" }`;
 * - `POST /_simulator/subscribe` `{ "url": "..." }`: SNS subscribes that URL (a signed
 *   `SubscriptionConfirmation`), then sends it every transfer created, completed or failed as a
 *   signed SNS `Notification`. `--webhook-url` subscribes that URL at start (the confirmation is
 *   lost if the host is not up yet; the notifications that follow are not).
 */
import { Effect } from "effect"
import { CurrentControl, hostEnvironment, type StandaloneSimulator } from "../kit/Standalone.ts"
import { CircleSimulator, type Mode } from "./CircleSimulator.ts"

/** The simulator's fixed test credentials. */
export const credentials = { apiKey: "SAND_API_KEY:simulator:0f4b2c9e7a1d", walletId: "1000066041" }

const field = (body: unknown, name: string): unknown => (typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined)

const refuse = (message: string) => Effect.fail(new Error(message))

/** `Effect.promise` rejections are defects; the runner answers a failure's message (404), so make them failures. */
const attempt = <A>(effect: Effect.Effect<A>) => Effect.catchDefect(effect, (e) => refuse(e instanceof Error ? e.message : String(e)))

const standalone: StandaloneSimulator = {
  kind: "circle",
  start: Effect.gen(function*() {
    const sim = yield* CircleSimulator.start(credentials)
    const webhookUrl = (yield* CurrentControl)?.webhookUrl
    if (webhookUrl !== undefined) yield* sim.subscribe(webhookUrl)
    return {
      baseUrl: sim.baseUrl,
      environment: hostEnvironment("circle", sim.baseUrl, {
        API_KEY: credentials.apiKey,
        WALLET_ID: credentials.walletId,
        SNS_CERT_URL_PREFIX: sim.certUrlPrefix
      }),
      routes: {
        "POST /_simulator/transfers/:id/complete": (id, body) => {
          const hash = field(body, "transactionHash")
          if (hash !== undefined && typeof hash !== "string") return refuse("transactionHash must be a string")
          return attempt(Effect.as(sim.complete(id!, hash), { id, status: "complete" }))
        },
        "POST /_simulator/transfers/:id/fail": (id, body) => {
          const code = field(body, "errorCode") ?? "transfer_failed"
          if (typeof code !== "string") return refuse("errorCode must be a string")
          return attempt(Effect.as(sim.fail(id!, code), { id, status: "failed", errorCode: code }))
        },
        "POST /_simulator/transfers/auto-complete": (_id, body) => {
          const ms = field(body, "ms")
          if (ms !== null && !(typeof ms === "number" && Number.isInteger(ms) && ms >= 0)) return refuse("body: { \"ms\": <milliseconds> | null }")
          return Effect.as(sim.setAutoComplete(ms ?? undefined), { autoCompleteMs: ms })
        },
        "POST /_simulator/mode": (_id, body) => {
          const mode = field(body, "mode")
          if (mode !== "ok" && mode !== "unavailable" && mode !== "slow") return refuse("body: { \"mode\": \"ok\" | \"unavailable\" | \"slow\" }")
          return Effect.as(sim.setMode(mode satisfies Mode), { mode })
        },
        // The account's administrator in the Mint console: `:id` is the address book entry's id
        // (the schedule's `destinationApproval.reference`).
        "POST /_simulator/addresses/:id/approve": (id) => attempt(Effect.as(sim.approveAddress(id!), { id, status: "active" })),
        "POST /_simulator/addresses/:id/deny": (id) => attempt(Effect.as(sim.denyAddress(id!), { id, status: "denied" })),
        "POST /_simulator/addresses/auto-approve": (_id, body) => {
          const auto = field(body, "auto")
          if (typeof auto !== "boolean") return refuse("body: { \"auto\": true | false }")
          return Effect.as(sim.setAutoApprove(auto), { autoApprove: auto })
        },
        "POST /_simulator/subscribe": (_id, body) => {
          const url = field(body, "url")
          if (typeof url !== "string" || !URL.canParse(url)) return refuse("body: { \"url\": \"<the host's notification URL>\" }")
          return Effect.as(sim.subscribe(url), { subscribed: url })
        }
      }
    }
  })
}

export default standalone
