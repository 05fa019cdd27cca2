/**
 * The audit log's retention, on the test clock, on memory and on PGlite: a day's job deletes every
 * chain's entries older than the retention, each chain keeping a signed checkpoint; the chains
 * still verify from it; a checkpoint edited in the database is found; without a retention nothing
 * is deleted.
 */
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { EnvelopeSealing } from "../../adapters/auth/EnvelopeSealing.ts"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { Audit } from "../../core/audit/Audit.ts"
import { Engine, FoundationTest } from "../../core/Engine.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { ProviderReports } from "../../core/ports/ProviderReports.ts"
import { Sealing } from "../../core/ports/Sealing.ts"
import { SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import { ScriptedSender, testEngineConfig } from "../support/Engine.ts"

const sealing = Layer.succeed(Sealing, EnvelopeSealing.processSealing())

const engine = (store: Layer.Layer<any, any, never>, auditRetentionDays: number | undefined) =>
  Engine.services.pipe(
    Layer.provideMerge(Layer.mergeAll(Payouts.noProviders, SettlementPayoutProviders.none, ProviderReports.none, sealing)),
    Layer.provideMerge(FoundationTest),
    Layer.provideMerge(JoseTokenSigner.layer(Redacted.make("a-test-secret-that-is-long-enough"))),
    Layer.provideMerge(ScriptedSender.layer),
    Layer.provideMerge(Layer.succeed(EngineConfig, EngineConfig.of({ ...testEngineConfig, auditRetentionDays }))),
    Layer.provideMerge(store.pipe(Layer.provide(sealing)))
  )

const record = (n: number) =>
  Effect.flatMap(Audit, (audit) => audit.record({ environment: "sandbox", merchantId: "mer_retention", object: { type: "thing", id: `t${n}` }, changes: { n } }))

const chain = "sandbox:mer_retention"

describe("audit retention", () => {
  it.effect("a day's job deletes what is older than the retention; the chain verifies from the signed checkpoint (memory, test clock)", () =>
    Effect.gen(function*() {
      for (const n of [1, 2, 3]) yield* record(n)
      yield* TestClock.adjust("31 days")
      for (const n of [4, 5]) yield* record(n)
      const jobs = yield* Jobs
      yield* jobs.runDue
      yield* jobs.runDue
      const audit = yield* Audit
      const kept = yield* audit.list({ chain }, { limit: 10, offset: 0 })
      assert.deepStrictEqual(kept.rows.map((e) => e.object.id), ["t5", "t4"])
      assert.deepStrictEqual(yield* audit.verify(chain), [{ chain, entries: 2, brokenAt: null }])
    }).pipe(Effect.provide(engine(MemoryStore.layer, 30))))

  it.effect("keeps everything without a retention (memory, test clock)", () =>
    Effect.gen(function*() {
      for (const n of [1, 2]) yield* record(n)
      yield* TestClock.adjust("400 days")
      yield* (yield* Jobs).runDue
      assert.strictEqual((yield* (yield* Audit).list({ chain }, { limit: 10, offset: 0 })).total, 2)
    }).pipe(Effect.provide(engine(MemoryStore.layer, undefined))))

  it.live("on SQL: the older entries go in one transaction with the checkpoint; an edited checkpoint is found", () =>
    Effect.gen(function*() {
      for (const n of [1, 2, 3]) yield* record(n)
      yield* Effect.sleep("5 millis")
      const cut = yield* DateTime.now
      yield* Effect.sleep("5 millis")
      for (const n of [4, 5]) yield* record(n)
      const audit = yield* Audit
      assert.strictEqual(yield* audit.prune(cut), 3)
      assert.deepStrictEqual(yield* audit.verify(chain), [{ chain, entries: 2, brokenAt: null }])
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE audit_checkpoints SET seq = seq - 1 WHERE chain = ${chain}`
      assert.deepStrictEqual(yield* audit.verify(chain), [{ chain, entries: 2, brokenAt: 3 }], "an edited checkpoint is found")
    }).pipe(Effect.provide(engine(SqlStore.pglite(undefined), undefined))), 60_000)
})
