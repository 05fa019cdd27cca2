import { type BigDecimal, Context, type Redacted } from "effect"

/** Where the engine is reachable and the business settings it runs with. */
export class EngineConfig extends Context.Service<EngineConfig, {
  /** The public root of the host, e.g. `https://api.example.com` (no trailing slash). */
  readonly publicUrl: string
  /** Where hosted pages are served: the spec's `{checkout_url}`. */
  readonly checkoutUrl: string
  /** FX markup in percent (1.5 = 1.5 %), applied on every conversion the engine makes. */
  readonly fxMarkupPct: BigDecimal.BigDecimal
  /** HMAC secret of the deposit network's signed transfer notifications. */
  readonly depositCallbackSecret: Redacted.Redacted<string>
}>()("core/EngineConfig") {}

/** The spec's `{base_url}`. */
export const baseUrlOf = (config: EngineConfig["Service"]) => `${config.publicUrl}/api/v1`
