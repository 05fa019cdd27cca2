import { type BigDecimal, Context, type DateTime, type Effect, type Option } from "effect"

/** A mid rate: units of `currency` per 1 USD. A disabled rate is as good as none (fx_unavailable). */
export interface FxRate {
  readonly currency: string
  readonly perUsd: BigDecimal.BigDecimal
  readonly enabled: boolean
  readonly updatedAt: DateTime.Utc
}

export class FxRateStore extends Context.Service<FxRateStore, {
  readonly get: (currency: string) => Effect.Effect<Option.Option<FxRate>>
  readonly list: Effect.Effect<ReadonlyArray<FxRate>>
  readonly put: (rate: FxRate) => Effect.Effect<void>
  /** Inserts the rates whose currency has none yet (defaults at start-up). */
  readonly seed: (rates: ReadonlyArray<FxRate>) => Effect.Effect<void>
}>()("core/ports/FxRateStore") {}
