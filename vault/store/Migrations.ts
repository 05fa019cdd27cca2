/**
 * The vault's tables, as ordered migrations run at start (the migrator locks its own table,
 * `vault_migrations`, so replicas starting together apply each once). They live in the vault's
 * schema, apart from the engine's.
 */
import { Effect, Layer } from "effect"
import { Migrator, SqlClient } from "effect/sql"

const statements = (...sql: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const client = yield* SqlClient.SqlClient
    for (const statement of sql) yield* client.unsafe(statement)
  })

export const migrations = {
  "0001_cards_and_audit": statements(
    `CREATE TABLE vault_cards (
      token text PRIMARY KEY,
      merchant_id text NOT NULL,
      brand text NOT NULL,
      bin text NOT NULL,
      last4 text NOT NULL,
      fingerprint text NOT NULL,
      key_id text NOT NULL,
      wrapped_key text NOT NULL,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX vault_cards_by_key ON vault_cards (key_id)`,
    `CREATE INDEX vault_cards_by_fingerprint ON vault_cards (merchant_id, fingerprint)`,
    `CREATE TABLE vault_audit (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL,
      action text NOT NULL CHECK (action IN ('tokenize', 'forward')),
      actor text NOT NULL,
      merchant_id text NOT NULL,
      token text NOT NULL,
      provider_id text,
      host text
    )`,
    `CREATE INDEX vault_audit_by_token ON vault_audit (token, id)`
  )
}

export const migrate = Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: "vault_migrations" })

export const MigrationsLayer = Layer.effectDiscard(migrate)
