import { Context, type Option, type Redacted } from "effect"

/** What only the HTTP adapter needs to know (the URLs are the engine's: `EngineConfig`). */
export class HttpConfig extends Context.Service<HttpConfig, {
  /** The operator token of the admin API; none turns the admin API off (404). */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /** The sandbox provider's callback secret: its payment form signs the callbacks it sends. */
  readonly sandboxCallbackSecret: Redacted.Redacted<string>
  /** How many proxies in front of the host append to X-Forwarded-For (0: use the socket peer). */
  readonly trustedProxies: number
  /** Requests allowed per credential and per client IP on the auth endpoints; defaults when absent. */
  readonly rateLimits?: {
    readonly productionPerSecond: number
    readonly sandboxPerSecond: number
    readonly authPerMinute: number
  } | undefined
}>()("adapters/http/HttpConfig") {}

export const docsUrl = (publicUrl: string, code: string) => `${publicUrl}/docs/errors#${code}`
