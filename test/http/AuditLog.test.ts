/**
 * The audit log over HTTP, on every store: a merchant's changes to its keys and webhook endpoints
 * are on its record (who, from where, which operation, what changed, never a secret), newest
 * first, as JSON and CSV; another merchant sees none of them; the operator's check of the hash
 * chains holds, and finds the row edited directly in the database (SQL stores).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { type AuditRow, toEntry } from "../../adapters/storage/sql/SqlAuditStore.ts"
import { hashed } from "../../core/audit/Audit.ts"
import { storeTargets } from "../support/Stores.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"

for (const target of storeTargets("audit")) {
  describe(`audit log (${target.name})`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("records key and webhook changes with who and what, masks secrets, keeps merchants apart, and its chains verify", () =>
        Effect.gen(function*() {
          const { keys, merchant } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const restricted = (yield* call("POST", "/api/v1/me/restricted-keys", { bearer: sk, body: { name: "reads", permissions: ["payments:read"] } })).body
          const hook = yield* call("POST", "/api/v1/webhooks", {
            bearer: sk,
            body: { url: "https://hooks.example.com/in?token=tok_SECRET123", events: ["payment.completed"] }
          })
          assert.strictEqual(hook.status, 201, JSON.stringify(hook.body))
          const hookId = hook.body.id as string
          assert.strictEqual((yield* call("PATCH", `/api/v1/webhooks/${hookId}`, { bearer: sk, body: { events: ["payment.failed"] } })).status, 200)
          const rotated = yield* call("POST", `/api/v1/webhooks/${hookId}/rotate-secret`, { bearer: sk, body: {} })
          assert.strictEqual(rotated.status, 200, JSON.stringify(rotated.body))
          assert.strictEqual((yield* call("DELETE", `/api/v1/webhooks/${hookId}`, { bearer: sk })).status, 200)
          assert.strictEqual((yield* call("DELETE", `/api/v1/me/restricted-keys/${restricted.id}`, { bearer: sk })).status, 200)

          const log = yield* call("GET", "/api/v1/me/audit-log", { bearer: sk })
          assert.strictEqual(log.status, 200, JSON.stringify(log.body))
          const entries = log.body.data as Array<any>
          assert.deepStrictEqual(entries.map((e) => e.operation), [
            "developers.revokeRestrictedKey", "webhooks.remove", "webhooks.rotateSecret", "webhooks.update", "webhooks.create", "developers.createRestrictedKey"
          ])
          assert.deepStrictEqual(entries.map((e) => e.seq), [6, 5, 4, 3, 2, 1])
          for (const e of entries) {
            assert.deepStrictEqual([e.environment, e.merchantId, e.actor.kind, e.actor.id], ["sandbox", merchant.id, "key", `sk_test_…${sk.slice(-4)}`])
            assert.isString(e.ip)
          }
          assert.deepStrictEqual(entries[3].changes.updated.events, { from: ["payment.completed"], to: ["payment.failed"] })
          assert.deepStrictEqual(entries[4].changes.created.url, "https://hooks.example.com/in")
          assert.deepStrictEqual(entries[5].object, { type: "restricted_key", id: restricted.id })
          const text = JSON.stringify(log.body)
          for (const secret of [restricted.secretKey, "tok_SECRET123", hook.body.secret, rotated.body.secret, sk]) assert.notInclude(text, secret)
          for (const [i, e] of entries.entries()) if (i + 1 < entries.length) assert.strictEqual(e.prevHash, entries[i + 1].hash)
          for (const e of entries) assert.match(e.signature, /^[0-9a-f]{16}\.[0-9a-f]{64}$/)

          const filtered = yield* call("GET", `/api/v1/me/audit-log?objectId=${hookId}`, { bearer: sk })
          assert.strictEqual(filtered.body.pagination.total, 4)
          const csv = yield* call("GET", "/api/v1/me/audit-log.csv", { bearer: sk })
          assert.strictEqual(csv.status, 200)
          const lines = (csv.body as string).trim().split("\n")
          assert.match(lines[0]!, /^id,seq,at,environment,merchant_id,actor_kind/)
          assert.strictEqual(lines.length, 7)

          // Another merchant, and a restricted key, read nothing of it.
          const other = yield* createMerchant()
          assert.deepStrictEqual((yield* call("GET", "/api/v1/me/audit-log", { bearer: other.keys.sandbox.secretKey })).body.data, [])
          const reader = (yield* call("POST", "/api/v1/me/restricted-keys", { bearer: sk, body: { name: "r", permissions: ["events:read"] } })).body
          assert.strictEqual((yield* call("GET", "/api/v1/me/audit-log", { bearer: reader.secretKey })).status, 403)

          // The operator: every chain, the merchant's creation on the host's own chain; the chains hold.
          const operator = yield* call("GET", `/admin/v1/audit-log?chain=operator&objectId=${merchant.id}`, { bearer: adminToken })
          assert.deepStrictEqual(operator.body.data.map((e: any) => [e.operation, e.actor.kind]), [["admin.createMerchant", "admin"]])
          const verified = yield* call("GET", "/admin/v1/audit-log/verify", { bearer: adminToken })
          assert.strictEqual(verified.body.ok, true, JSON.stringify(verified.body))

          // A row edited in the database is found.
          const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
          assert.strictEqual(Option.isSome(sql), target.name !== "memory", "the SQL stores are tampered with")
          if (Option.isSome(sql)) {
            yield* sql.value`UPDATE audit_log SET changes = ${JSON.stringify({ updated: { events: { from: [], to: ["*"] } } })} WHERE chain = ${`sandbox:${merchant.id}`} AND seq = 3`
            const tampered = yield* call("GET", `/admin/v1/audit-log/verify?chain=sandbox:${merchant.id}`, { bearer: adminToken })
            assert.deepStrictEqual(tampered.body, { ok: false, chains: [{ chain: `sandbox:${merchant.id}`, entries: 7, brokenAt: 3 }] })
            yield* sql.value`DELETE FROM audit_log WHERE chain = ${`sandbox:${other.merchant.id}`}`

            // A writer who edits a row and recomputes every hash after it: the chain of hashes holds
            // again, but the signatures (the host's key, not in the database) do not.
            const chain = `sandbox:${merchant.id}`
            const rows = (yield* sql.value<AuditRow>`SELECT * FROM audit_log WHERE chain = ${chain} ORDER BY seq`).map(toEntry)
            let prev = rows[1]!.hash
            for (const row of rows.slice(2)) {
              const { hash: _hash, signature: _signature, ...rest } = row
              const hash = createHash("sha256").update(hashed({ ...rest, prevHash: prev })).digest("hex")
              yield* sql.value`UPDATE audit_log SET prev_hash = ${prev}, hash = ${hash} WHERE chain = ${chain} AND seq = ${row.seq}`
              prev = hash
            }
            const rewritten = yield* call("GET", `/admin/v1/audit-log/verify?chain=${chain}`, { bearer: adminToken })
            assert.deepStrictEqual(rewritten.body.chains, [{ chain, entries: 7, brokenAt: 3 }], "found by its signature")
          }
        }))
    })
  })
}
