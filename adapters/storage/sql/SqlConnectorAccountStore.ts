/** Connector accounts on SQL (`connector_accounts`): versioned JSON documents, the account's id, owner and version in columns. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type ConnectorAccount, ConnectorAccountJson } from "../../../core/connectors/ConnectorAccount.ts"
import { ConnectorAccountStore } from "../../../core/ports/ConnectorAccountStore.ts"
import { jsonDocuments } from "./JsonDocuments.ts"
import { date } from "./Rows.ts"

export const SqlConnectorAccountStore = Layer.effect(
  ConnectorAccountStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = jsonDocuments(sql, "connector_accounts", ConnectorAccountJson)
    const columns = (a: ConnectorAccount) => ({ id: a.id, merchantId: a.merchantId, version: a.version, createdAt: date(a.createdAt) })
    return ConnectorAccountStore.of({
      insert: (account) => accounts.insertIfAbsent(account, columns(account)),
      update: (account) => accounts.update(account, account.id, account.version),
      remove: (id) =>
        sql<{ readonly id: string }>`DELETE FROM connector_accounts WHERE id = ${id} RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      find: (id) => accounts.first(sql`id = ${id}`),
      list: (merchantId) =>
        accounts.select(
          merchantId === undefined ? sql`true` : merchantId === null ? sql`merchant_id IS NULL` : sql`merchant_id = ${merchantId}`,
          sql`ORDER BY created_at, id`
        ),
      versions: sql<{ readonly id: string; readonly version: number }>`SELECT id, version FROM connector_accounts ORDER BY id`.pipe(Effect.orDie)
    })
  })
)
