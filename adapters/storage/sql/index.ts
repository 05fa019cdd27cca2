/**
 * `payment-orchestration-engine/store/sql`: every storage port on PostgreSQL
 * (`SqlStore.postgres(url)`) or embedded PGlite (`SqlStore.pglite(dataDir)`, in memory when
 * `dataDir` is undefined), migrated on start. `SqlStore.layerFromClient` runs on a `SqlClient`
 * you provide.
 */
export { SqlStore } from "./SqlStore.ts"
export { migrations } from "./Migrations.ts"
