/**
 * Two engine replicas on one PostgreSQL database close each shop's settlement period once:
 * - both run their job loops at the same moment over shops whose close came due: one batch per
 *   shop, each funding movement in it once, one `settlement.closed` each;
 * - a close run twice at the same moment (a lapsed lease: the same close job claimed again) sweeps
 *   once: the second waits for the first's lock on the balance, then finds nothing to take.
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal, Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { HttpWebhookSender } from "../../adapters/webhooks/HttpWebhookSender.ts"
import { realNow } from "../../core/clock/RealClock.ts"
import { ShopClocks } from "../../core/clock/ShopClocks.ts"
import { Engine } from "../../core/Engine.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import { Ledger } from "../../core/ledger/Ledger.ts"
import * as Money from "../../core/Money.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { SandboxClockStore } from "../../core/ports/SandboxClockStore.ts"
import { SettlementStore } from "../../core/ports/SettlementStore.ts"
import { JobKinds } from "../../core/settlements/Close.ts"
import { Merchants } from "../../core/tenancy/Merchants.ts"

const url = process.env["DATABASE_URL"]
if (url === undefined) console.log("SKIP settlement replica test: it needs a PostgreSQL server (DATABASE_URL)")

const engine = (schema: string) =>
  ManagedRuntime.make(Engine.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(
      JoseTokenSigner.layer(Redacted.make("a-test-secret-that-is-long-enough")),
      HttpWebhookSender.layer({ allowPrivateTargets: true }),
      Layer.succeed(EngineConfig, EngineConfig.of({
        publicUrl: "http://api.test.local",
        checkoutUrl: "http://pay.test.local",
        fxMarkupPct: Money.decimal("2"),
        depositCallbackSecret: Redacted.make("deposit-secret")
      }))
    )),
    Layer.provideMerge(SqlStore.postgres(url!, { schema, maxConnections: 6 }))
  ))

type Replica = ReturnType<typeof engine>

/** Money made available to a sandbox shop from outside, in `n` movements of 10 USD. */
const fund = (a: Replica, shopId: string, n: number) =>
  Effect.promise(() =>
    a.runPromise(Effect.gen(function*() {
      const ledger = yield* Ledger
      for (let i = 0; i < n; i++) {
        yield* ledger.record({ environment: "sandbox", shopId }, "test.funding", `funding-${i}`, [
          { from: "external", to: "payin_available", currency: "USD", amount: Money.decimal("10") }
        ])
      }
    }))
  )

/** Moves a shop's test clock two days on, past its next daily close, without running anything. */
const pastClose = (a: Replica, shopId: string) =>
  Effect.promise(() => a.runPromise(Effect.flatMap(SandboxClockStore, (s) => Effect.flatMap(realNow, (now) => s.advance(shopId, 2 * 86_400_000, now)))))

/** Runs due jobs on both replicas at the same moment until neither finds any. */
const bothUntilIdle = (a: Replica, b: Replica) =>
  Effect.promise(async () => {
    const loop = async (r: Replica) => {
      for (let idle = 0; idle < 3;) idle = (await r.runPromise(Jobs.use((j) => j.runDue))) === 0 ? idle + 1 : 0
    }
    await Promise.all([loop(a), loop(b)])
  })

const batchesOf = (r: Replica, shopId: string) =>
  Effect.promise(() => r.runPromise(SettlementStore.use((s) => s.list("sandbox", shopId, { limit: 100, offset: 0 }))))

describe.skipIf(url === undefined)("settlement closes on two replicas of one PostgreSQL", () => {
  it.live("both job loops at once: each shop's period closes once, each movement in its batch once", () =>
    Effect.gen(function*() {
      const schema = `t_stl_replicas_${process.pid}_${Date.now().toString(36)}`
      const a = engine(schema)
      const b = engine(schema)
      try {
        const shops: Array<string> = []
        for (let i = 0; i < 4; i++) {
          const { shops: created } = yield* Effect.promise(() => a.runPromise(Merchants.use((m) => m.create({ name: `Shop ${i}`, email: `s${i}@x.test` }))))
          shops.push(created[0]!.id)
        }
        for (const shopId of shops) {
          yield* fund(a, shopId, 12)
          yield* pastClose(a, shopId)
        }
        yield* bothUntilIdle(a, b)
        for (const shopId of shops) {
          const { rows } = yield* batchesOf(b, shopId)
          const closed = rows.filter((r) => r.status !== "open")
          assert.strictEqual(closed.length, 1, `${shopId}: one close`)
          assert.strictEqual(closed[0]!.lineCount, 12)
          assert.strictEqual(Money.toText(closed[0]!.summary!.net), "120")
          assert.strictEqual(closed[0]!.status, "paid")
          const lines = yield* Effect.promise(() => a.runPromise(SettlementStore.use((s) => s.lines(closed[0]!.id))))
          assert.strictEqual(new Set(lines.map((l) => l.reference)).size, 12)
          const events = yield* Effect.promise(() => a.runPromise(OutboxStore.use((o) => o.list("sandbox", shopId))))
          assert.strictEqual(events.filter((e) => e.type === "settlement.closed").length, 1)
          const available = yield* Effect.promise(() => b.runPromise(LedgerStore.use((l) => l.balance("sandbox", shopId, "payin_available", "USD"))))
          assert.isTrue(BigDecimal.isZero(available))
        }
      } finally {
        yield* Effect.promise(() => a.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`))).catch(() => undefined))
        yield* Effect.promise(() => Promise.all([a.dispose(), b.dispose()]))
      }
    }), 120_000)

  it.live("the same close run twice at the same moment (a lapsed lease) sweeps once", () =>
    Effect.gen(function*() {
      const schema = `t_stl_double_${process.pid}_${Date.now().toString(36)}`
      const a = engine(schema)
      const b = engine(schema)
      try {
        const { shops } = yield* Effect.promise(() => a.runPromise(Merchants.use((m) => m.create({ name: "Twice", email: "t@x.test" }))))
        const shopId = shops[0]!.id
        yield* fund(a, shopId, 30)
        const version = Option.getOrThrow(yield* Effect.promise(() => a.runPromise(SettlementStore.use((s) => s.schedule("sandbox", shopId))))).version
        // Two copies of one close job, as a replica that lost its lease and another that took it over would run it.
        const copy = (r: Replica, n: number) =>
          r.runPromise(ShopClocks.use((clocks) =>
            clocks.within("sandbox", shopId, Jobs.use((j) => j.enqueue(JobKinds.close, { environment: "sandbox", shopId, version }, { dedupeKey: `double-${n}` })))
          ))
        yield* Effect.promise(() => Promise.all([copy(a, 1), copy(b, 2)]))
        yield* bothUntilIdle(a, b)
        const { rows } = yield* batchesOf(a, shopId)
        const closed = rows.filter((r) => r.status !== "open")
        assert.strictEqual(closed.length, 1)
        assert.strictEqual(Money.toText(closed[0]!.summary!.net), "300")
        assert.strictEqual(rows.filter((r) => r.status === "open").length, 1)
        const external = yield* Effect.promise(() => b.runPromise(LedgerStore.use((l) => l.balance("sandbox", shopId, "external", "USD"))))
        // 300 came in from outside (-300) and 300 went out paid (+300): nothing paid twice.
        assert.strictEqual(Money.toText(external), "0")
      } finally {
        yield* Effect.promise(() => a.runPromise(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`))).catch(() => undefined))
        yield* Effect.promise(() => Promise.all([a.dispose(), b.dispose()]))
      }
    }), 120_000)
})
