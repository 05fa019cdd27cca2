import { Context, type Option, type Redacted } from "effect"

/** What the HTTP adapter needs to know about where it is served. */
export class HttpConfig extends Context.Service<HttpConfig, {
  /** The public root of the host, e.g. `https://api.example.com` (no trailing slash). */
  readonly publicUrl: string
  /** `{publicUrl}/api/v1`: the spec's `{base_url}`. */
  readonly baseUrl: string
  /** Where hosted pages are served: the spec's `{checkout_url}`. */
  readonly checkoutUrl: string
  /** The operator token of the admin API; none turns the admin API off (404). */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
}>()("adapters/http/HttpConfig") {}

export const docsUrl = (publicUrl: string, code: string) => `${publicUrl}/docs/errors#${code}`
