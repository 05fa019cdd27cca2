/**
 * The SQL store: every storage port on a `SqlClient`, after the migrations ran. Pick the client
 * with `SqlStore.postgres(url)` (a PostgreSQL server) or `SqlStore.pglite(dataDir)` (embedded
 * PGlite spoken to over an in-process stream), or provide your own `PgClient`. One file per
 * store, named after it. Database failures are defects: the ports promise no SQL errors, and a
 * broken connection is not something a caller can handle.
 */
import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Cause, Effect, Layer, Redacted, String } from "effect"
import { SqlClient } from "effect/sql"
import { MigrationsLayer } from "./Migrations.ts"
import { pgliteStream } from "./PgliteStream.ts"
import { SqlAccessStore } from "./SqlAccessStore.ts"
import { SqlCheckoutSessionStore } from "./SqlCheckoutSessionStore.ts"
import { SqlRefundStore } from "./SqlRefundStore.ts"
import { SqlAuditStore } from "./SqlAuditStore.ts"
import { SqlTeamStore } from "./SqlTeamStore.ts"
import { SqlConnectorAccountStore } from "./SqlConnectorAccountStore.ts"
import { SqlRequestLogStore } from "./SqlRequestLogStore.ts"
import { SqlCredentialStore } from "./SqlCredentialStore.ts"
import { SqlDepositStore } from "./SqlDepositStore.ts"
import { SqlFxRateStore } from "./SqlFxRateStore.ts"
import { SqlIdempotencyStore } from "./SqlIdempotencyStore.ts"
import { SqlJobStore } from "./SqlJobStore.ts"
import { SqlLedgerStore } from "./SqlLedgerStore.ts"
import { SqlOutboxStore } from "./SqlOutboxStore.ts"
import { SqlPaymentStore } from "./SqlPaymentStore.ts"
import { SqlPayoutStore } from "./SqlPayoutStore.ts"
import { SqlProviderRouteStore } from "./SqlProviderRouteStore.ts"
import { SqlRoutingStore } from "./SqlRoutingStore.ts"
import { SqlSandboxClockStore } from "./SqlSandboxClockStore.ts"
import { SqlConsoleSessionStore } from "./SqlConsoleSessionStore.ts"
import { SqlSettingsStore } from "./SqlSettingsStore.ts"
import { SqlTenancyStore } from "./SqlTenancyStore.ts"
import { SqlTransactions } from "./SqlTransactions.ts"
import { SqlWebhookStore } from "./SqlWebhookStore.ts"
import { SqlWithdrawalStore } from "./SqlWithdrawalStore.ts"
import { SqlReconciliationStore } from "./SqlReconciliationStore.ts"
import { SqlSettlementStore } from "./SqlSettlementStore.ts"
import { StoreHealth, StoreUnavailable } from "../../../core/ports/StoreHealth.ts"

/**
 * A name transform that remembers its answers: statements name the same few columns on every
 * request, and the transforms run once per column of every row.
 */
const remembered = (transform: (name: string) => string) => {
  const known = new Map<string, string>()
  return (name: string) => {
    let answer = known.get(name)
    if (answer === undefined) {
      answer = transform(name)
      // Names come from the code and the schema, so this stays small; a bound all the same.
      if (known.size < 10_000) known.set(name, answer)
    }
    return answer
  }
}

// Column names are camelCase in TypeScript and snake_case in SQL; JSON values (metadata, provider
// payment data) are kept exactly as stored.
const names = {
  transformQueryNames: remembered(String.camelToSnake),
  transformResultNames: remembered(String.snakeToCamel),
  transformJson: false
} as const

/** `SELECT 1` on a connection of the pool: an error or a broken connection is `StoreUnavailable`. */
const SqlStoreHealth = Layer.effect(
  StoreHealth,
  Effect.map(SqlClient.SqlClient, (sql) =>
    StoreHealth.of({
      ping: sql`SELECT 1`.pipe(
        Effect.asVoid,
        Effect.catchCause((cause) => Effect.fail(new StoreUnavailable({ message: Cause.pretty(cause).split("\n")[0] ?? "store unavailable" })))
      )
    }))
)

/** Every storage port, on the `SqlClient` in context, migrated first. */
export const layerFromClient = Layer.mergeAll(
  SqlTransactions,
  SqlTenancyStore,
  SqlCredentialStore,
  SqlAuditStore,
  SqlTeamStore,
  SqlConnectorAccountStore,
  SqlRequestLogStore,
  SqlAccessStore,
  SqlSettingsStore,
  SqlConsoleSessionStore,
  SqlIdempotencyStore,
  SqlJobStore,
  SqlSandboxClockStore,
  SqlRoutingStore,
  SqlFxRateStore,
  SqlLedgerStore,
  SqlPaymentStore,
  SqlOutboxStore,
  SqlProviderRouteStore,
  SqlCheckoutSessionStore,
  SqlRefundStore,
  SqlPayoutStore,
  SqlWithdrawalStore,
  SqlSettlementStore,
  SqlReconciliationStore,
  SqlWebhookStore,
  SqlDepositStore,
  SqlStoreHealth
).pipe(Layer.provideMerge(MigrationsLayer))

/**
 * A PostgreSQL server. With `schema`, every connection works in that schema (created if absent),
 * which lets test suites share one database without seeing each other.
 */
export const postgresClient = (url: string, options: { readonly schema?: string; readonly maxConnections?: number } = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    if (options.schema === undefined) return
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${options.schema.replaceAll("\"", "")}"`)
  })).pipe(
    Layer.provideMerge(PgClient.layer({
      url: Redacted.make(url),
      maxConnections: options.maxConnections ?? 10,
      ...(options.schema === undefined ? {} : { startupParameters: { search_path: options.schema } }),
      ...names
    }))
  )

/**
 * Embedded PGlite (in memory when `dataDir` is undefined), spoken to over an in-process stream
 * (`PgliteStream.ts`) so the same `PgClient`, SQL and migrations run against it. PGlite is a
 * single connection database: the client holds one connection, so transactions run one at a time.
 */
export const pgliteClient = (dataDir: string | undefined) =>
  Layer.unwrap(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => PGlite.create(dataDir === undefined ? {} : { dataDir })),
      (db) => Effect.promise(() => db.close())
    )
    return PgClient.layerFrom(PgClient.makeClient({ stream: () => pgliteStream(db), username: "postgres", database: "postgres", ...names }))
  }))

export const SqlStore = {
  layerFromClient,
  postgres: (url: string, options?: { readonly schema?: string; readonly maxConnections?: number }) =>
    layerFromClient.pipe(Layer.provideMerge(postgresClient(url, options))),
  pglite: (dataDir: string | undefined) => layerFromClient.pipe(Layer.provideMerge(pgliteClient(dataDir)))
}
