/** Connector accounts in memory. */
import { Effect, Layer, Option } from "effect"
import type { ConnectorAccount } from "../../../core/connectors/ConnectorAccount.ts"
import { ConnectorAccountStore } from "../../../core/ports/ConnectorAccountStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

export const MemoryConnectorAccountStore = Layer.effect(
  ConnectorAccountStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const accounts = db.table<ConnectorAccount>("connector_accounts")
    const all = () => Array.from(accounts.values()).sort((a, b) => a.createdAt.epochMilliseconds - b.createdAt.epochMilliseconds || a.id.localeCompare(b.id))
    return ConnectorAccountStore.of({
      insert: (account) =>
        db.run(Effect.sync(() => {
          if (accounts.has(account.id)) return false
          accounts.set(account.id, account)
          return true
        })),
      update: (account) =>
        db.run(Effect.sync(() => {
          if (accounts.get(account.id)?.version !== account.version - 1) return false
          accounts.set(account.id, account)
          return true
        })),
      remove: (id) => db.run(Effect.sync(() => accounts.delete(id))),
      find: (id) => db.run(Effect.sync(() => Option.fromNullishOr(accounts.get(id)))),
      list: (merchantId) => db.run(Effect.sync(() => all().filter((a) => merchantId === undefined || a.merchantId === merchantId))),
      versions: db.run(Effect.sync(() => all().map((a) => ({ id: a.id, version: a.version }))))
    })
  })
)
