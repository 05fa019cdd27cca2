/**
 * The schema, as ordered migrations (in `migrations/`). They run at start-up on PostgreSQL and on
 * embedded PGlite alike (one SQL dialect); the migrator locks its table, so replicas starting
 * together apply each migration once, and a restart applies nothing twice.
 */
import { Layer } from "effect"
import { Migrator } from "effect/sql"
import { foundation } from "./migrations/Foundation.ts"
import { operations } from "./migrations/Operations.ts"

export const migrations = { ...foundation, ...operations }

const run = Migrator.make({})

/** Applies every pending migration; idempotent. */
export const migrate = run({ loader: Migrator.fromRecord(migrations) })

export const MigrationsLayer = Layer.effectDiscard(migrate)
