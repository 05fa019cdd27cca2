/** The FX rate store on SQL. */
import { BigDecimal, DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { date, utc } from "./Rows.ts"
import { FxRateStore } from "../../../core/ports/FxRateStore.ts"
import * as Money from "../../../core/Money.ts"

export const SqlFxRateStore = Layer.effect(
  FxRateStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    interface Row {
      readonly currency: string
      readonly perUsd: string
      readonly enabled: boolean
      readonly updatedAt: Date
    }
    const toRate = (r: Row) => ({ currency: r.currency, perUsd: Money.decimal(r.perUsd), enabled: r.enabled, updatedAt: utc(r.updatedAt) })
    const upsert = (r: { currency: string; perUsd: BigDecimal.BigDecimal; enabled: boolean; updatedAt: DateTime.Utc }, replace: boolean) =>
      sql`INSERT INTO fx_rates (currency, per_usd, enabled, updated_at)
          VALUES (${r.currency}, ${Money.toText(r.perUsd)}, ${r.enabled}, ${date(r.updatedAt)})
          ON CONFLICT (currency) DO ${
        replace ? sql`UPDATE SET per_usd = EXCLUDED.per_usd, enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at` : sql`NOTHING`
      }`
    return FxRateStore.of({
      get: (currency) =>
        sql<Row>`SELECT * FROM fx_rates WHERE currency = ${currency}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(toRate(rows[0]!))),
          Effect.orDie
        ),
      list: sql<Row>`SELECT * FROM fx_rates ORDER BY currency`.pipe(Effect.map((rows) => rows.map(toRate)), Effect.orDie),
      put: (rate) => upsert(rate, true).pipe(Effect.asVoid, Effect.orDie),
      seed: (rates) => Effect.forEach(rates, (r) => upsert(r, false), { discard: true }).pipe(Effect.orDie)
    })
  })
)
