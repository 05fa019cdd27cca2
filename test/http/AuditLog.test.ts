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
import { adminToken, call, createMerchant, eventually, testHost } from "../support/Host.ts"

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

      it.effect("records the operator's changes to a merchant's routing, schedule and deposits, FX rates, and its resolutions", () =>
        Effect.gen(function*() {
          const { keys, merchant, shops } = yield* createMerchant()
          const sk = keys.sandbox.secretKey
          const shopId = shops[0]!.id
          const admin = (method: string, path: string, body?: unknown) =>
            Effect.map(call(method, path, { bearer: adminToken, ...(body === undefined ? {} : { body }) }), (r) => {
              assert.isBelow(r.status, 300, `${method} ${path}: ${JSON.stringify(r.body)}`)
              return r.body
            })
          yield* admin("PUT", `/admin/v1/shops/${shopId}/routes/sandbox`, { environment: "sandbox", priority: 1 })
          yield* admin("PUT", `/admin/v1/shops/${shopId}/routing`, { environment: "sandbox", strategy: "static", rules: [], default: { providers: ["sandbox"] } })
          yield* admin("DELETE", `/admin/v1/shops/${shopId}/routes/sandbox?environment=sandbox`)
          yield* admin("PUT", `/admin/v1/shops/${shopId}/settlement-schedule?environment=sandbox`, {
            frequency: "daily", time: "18:00", destination: { kind: "usdc", chain: "SANDBOX", address: "0x1111222233334444555566667777888899990000" }
          })
          yield* admin("PUT", `/admin/v1/shops/${shopId}/deposit-settings`, { environment: "sandbox", depositMethodIds: ["mx_spei_stp"] })
          const paid = yield* call("POST", "/api/v1/payments", {
            bearer: sk,
            headers: { "sandbox-simulate": "paid" },
            body: { amount: 100, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
          })
          assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
          const id = paid.body.transactionId as string
          yield* eventually(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status === "completed")
          const claim = yield* admin("POST", `/admin/v1/payments/${id}/chargebacks`, { reason: "fraudulent" })
          yield* admin("POST", `/admin/v1/claims/${claim.id}/resolve`, { outcome: "won" })

          const log = yield* call("GET", "/api/v1/me/audit-log", { bearer: sk })
          const entries = log.body.data as Array<any>
          assert.deepStrictEqual(entries.map((e) => [e.operation, e.object.type, e.actor.kind]), [
            ["claimAdmin.resolve", "claim", "admin"],
            ["depositAdmin.putSettings", "deposit_settings", "admin"],
            ["settlementAdmin.putSchedule", "settlement_schedule", "admin"],
            ["admin.deleteRoute", "route", "admin"],
            ["routingAdmin.putRouting", "routing", "admin"],
            ["admin.putRoute", "route", "admin"]
          ])
          assert.deepStrictEqual(entries[0].changes, { resolved: "won" })
          assert.deepStrictEqual(entries[5].changes, { set: { priority: 1, methodIds: null, enabled: true } })
          assert.strictEqual(entries[4].changes.version, 1)

          const before = yield* admin("GET", "/admin/v1/fx-rates")
          const brl = (before.rates as Array<any>).find((r) => r.currency === "BRL")
          yield* admin("PUT", "/admin/v1/fx-rates/BRL", { perUsd: 5.5 })
          const fx = yield* call("GET", "/admin/v1/audit-log?chain=operator&objectId=BRL", { bearer: adminToken })
          assert.deepStrictEqual(fx.body.data[0].changes.perUsd.to, "5.5")
          assert.strictEqual(fx.body.data[0].operation, "admin.putFxRate")
          yield* admin("PUT", "/admin/v1/fx-rates/BRL", { perUsd: brl.perUsd })
          // (The first test tampers with other chains of this store.)
          for (const chain of ["operator", `sandbox:${merchant.id}`]) {
            const verified = yield* call("GET", `/admin/v1/audit-log/verify?chain=${chain}`, { bearer: adminToken })
            assert.strictEqual(verified.body.ok, true, JSON.stringify(verified.body))
          }
        }))
    })
  })
}
