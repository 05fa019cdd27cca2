/**
 * The merchant's webhook endpoint, in process, behind the engine's `WebhookSender` port (the seam
 * every delivery to a non-managed subscription goes through). It keeps its own truth: which
 * deliveries it answered 2xx (and so may count as delivered), which it received but whose answer
 * was lost (a timeout: the engine must try again, the receiver sees a duplicate). Faults, drawn
 * from `random` (reseeded per step, and per day while the history settles): 500, 503 and 429 with
 * a `Retry-After`, a network error, a timeout after the engine's whole 15 s (the virtual clock
 * runs on meanwhile), and outages (a step: every attempt answers 503 until a given time).
 */
import { Clock, Effect, Layer } from "effect"
import { type SendResult, WebhookSender } from "../../core/ports/WebhookSender.ts"
import type { VerifyResult } from "../../core/Signatures.ts"
import { Random } from "./Random.ts"

export interface ReceiverFaults {
  readonly serverError: number
  readonly throttled: number
  readonly networkError: number
  readonly timeout: number
}

export const defaultReceiverFaults: ReceiverFaults = { serverError: 0.1, throttled: 0.05, networkError: 0.05, timeout: 0.04 }

export const receiverUrl = "https://merchant.sim.test/webhooks"

export class WebhookReceiver {
  random = new Random(1)
  /** Delivery ids answered 2xx, with how many times. */
  readonly acknowledged = new Map<string, number>()
  /** Event ids received (answered or not), with how many times: a duplicate is allowed. */
  readonly received = new Map<string, number>()
  readonly injected = new Map<string, number>()
  /** Delivery ids sent since the invariants last looked (they take them). */
  readonly attempted: Array<string> = []
  /** Until then (virtual epoch millis), every attempt answers 503. */
  downUntil = 0
  /** Problems the receiver itself saw (a body that is not an event, a signature that does not verify). */
  readonly violations: Array<string> = []
  /**
   * Verifies a delivery's `X-Service-Signature` against the subscription's secret, as a
   * merchant's server does (`verifyWebhook`); set once the subscription exists (`Run.ts`).
   */
  verify: (body: string, header: string | undefined) => Effect.Effect<VerifyResult> = () => Effect.succeed("valid")

  constructor(readonly faults: ReceiverFaults = defaultReceiverFaults) {}

  setSeed(seed: number) {
    this.random = new Random(seed)
  }

  private count(fault: string) {
    this.injected.set(fault, (this.injected.get(fault) ?? 0) + 1)
  }

  private receive(headers: Readonly<Record<string, string>>, body: string) {
    let eventId: string
    try {
      eventId = String((JSON.parse(body) as { id: unknown }).id)
    } catch {
      this.violations.push(`delivery ${headers["x-service-delivery"]} carried a body that is not JSON`)
      return
    }
    this.received.set(eventId, (this.received.get(eventId) ?? 0) + 1)
  }

  private send(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number): Effect.Effect<SendResult, string> {
    const self = this
    return Effect.gen(function*() {
      if (url !== receiverUrl) return yield* Effect.fail(`getaddrinfo ENOTFOUND ${url}`)
      self.attempted.push(headers["x-service-delivery"] ?? "?")
      const now = yield* Clock.currentTimeMillis
      if (now < self.downUntil) {
        self.count("endpoint down: 503")
        return { status: 503, retryAfterSeconds: null, bodyExcerpt: "down for maintenance" }
      }
      const verdict = yield* self.verify(body, headers["x-service-signature"])
      if (verdict !== "valid") {
        self.violations.push(`delivery ${headers["x-service-delivery"]} carried a signature that is ${verdict}`)
        return { status: 401, retryAfterSeconds: null, bodyExcerpt: `signature ${verdict}` }
      }
      const fault = self.random.weighted([
        ["500", self.faults.serverError],
        ["429", self.faults.throttled],
        ["network", self.faults.networkError],
        ["timeout", self.faults.timeout],
        ["ok", 1 - self.faults.serverError - self.faults.throttled - self.faults.networkError - self.faults.timeout]
      ] as const)
      self.count(`webhook ${fault}`)
      switch (fault) {
        case "500":
          return { status: 500, retryAfterSeconds: null, bodyExcerpt: "internal error" }
        case "429":
          return { status: 429, retryAfterSeconds: self.random.between(1, 600), bodyExcerpt: null }
        case "network":
          return yield* Effect.fail("ECONNRESET")
        case "timeout":
          // The receiver got it and is slow to answer: the engine gives up after its timeout.
          self.receive(headers, body)
          yield* Effect.sleep(timeoutMs)
          return yield* Effect.fail(`timeout after ${timeoutMs} ms`)
        case "ok": {
          self.receive(headers, body)
          const id = headers["x-service-delivery"] ?? "?"
          self.acknowledged.set(id, (self.acknowledged.get(id) ?? 0) + 1)
          return { status: 200, retryAfterSeconds: null, bodyExcerpt: "ok" }
        }
      }
    })
  }

  /** The engine's `WebhookSender`, with this receiver at `receiverUrl`. */
  get layer() {
    return Layer.succeed(WebhookSender, WebhookSender.of({
      checkTarget: () => Effect.succeed(undefined),
      send: (url, headers, body, timeoutMs) => this.send(url, headers, body, timeoutMs)
    }))
  }
}
