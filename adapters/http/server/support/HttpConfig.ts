import { Context, type Option, type Redacted } from "effect"
import type { TrustedProxies } from "./ClientIp.ts"

/** What only the HTTP adapter needs to know (the URLs are the engine's: `EngineConfig`). */
export class HttpConfig extends Context.Service<HttpConfig, {
  /** The operator token of the admin API; none turns the admin API off (404). */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /** The sandbox provider's callback secret: its payment form signs the callbacks it sends. */
  readonly sandboxCallbackSecret: Redacted.Redacted<string>
  /**
   * The proxies whose forwarding headers are believed: addresses and CIDR ranges, or (as before)
   * how many append to X-Forwarded-For, believed from loopback and private peers only; 0 or
   * none: the socket's peer is the client (`ClientIp.ts`).
   */
  readonly trustedProxies: TrustedProxies
  /** Requests allowed per credential and per client IP on the auth endpoints; defaults when absent. */
  readonly rateLimits?: {
    readonly productionPerSecond: number
    readonly sandboxPerSecond: number
    readonly authPerMinute: number
  } | undefined
  /** The card vault's URL and the secret card sessions are signed with; none: POST /card-sessions answers 503. */
  readonly cardSessions?: { readonly vaultUrl: string; readonly sessionSecret: Redacted.Redacted<string> } | undefined
}>()("adapters/http/HttpConfig") {}

export const docsUrl = (publicUrl: string, code: string) => `${publicUrl}/docs/errors#${code}`
