/**
 * The seeded simulation of the whole engine, as CI runs it: a fixed set of seeds on
 * the memory store (and one on PGlite) must hold every invariant after every step; a seed replays
 * the same history; and bugs planted outside the core (a ledger store that drops one posting of the
 * first refund entry; a key store that frees a key when its execution dies; an upstream that charges
 * again for a key it already charged; a ledger that never writes a failed payout's reversal; a
 * payout upstream that pays again for a key it paid) are found within the CI seeds, the first with
 * a shorter failing history. Payouts go through a fault-injecting payout upstream and every event
 * is delivered to an in-process webhook endpoint that fails at random. Each run ends by letting
 * time run 100 days on: every job ran or is dead with a reason, every event was delivered or is
 * dead-lettered with one, and every invariant holds again.
 * A longer run: `npm run simulate -- --seed 1 --seeds 100 --steps 2000` (see `cli.ts`).
 */
import { assert, describe, it } from "@effect/vitest"
import { generate } from "./Operations.ts"
import { runHistory } from "./Run.ts"
import { simulate } from "./Simulate.ts"

const seeds = [1, 2, 3, 4, 5, 6, 7, 8]
const steps = 200

describe("seeded simulation of the engine, memory store", () => {
  for (const seed of seeds) {
    it(`seed ${seed}: ${steps} steps, every invariant after every step`, async () => {
      const lines: Array<string> = []
      const report = await simulate(seed, steps, { out: (l) => lines.push(l) })
      assert.isTrue(report.result.ok, lines.join("\n"))
      assert.strictEqual(report.result.steps, steps)
    }, 30_000)
  }

  it("PGlite: seed 1, 100 steps", async () => {
    const lines: Array<string> = []
    const report = await simulate(1, 100, { store: "pglite", shrink: false, out: (l) => lines.push(l) })
    assert.isTrue(report.result.ok, lines.join("\n"))
  }, 30_000)

  it.skipIf(process.env["DATABASE_URL"] === undefined)("PostgreSQL (DATABASE_URL): seed 1, 100 steps", async () => {
    const lines: Array<string> = []
    const report = await simulate(1, 100, { store: "postgres", shrink: false, out: (l) => lines.push(l) })
    assert.isTrue(report.result.ok, lines.join("\n"))
  }, 30_000)

  it("one seed replays one history", async () => {
    assert.deepStrictEqual(generate(11, 100), generate(11, 100))
    const [a, b] = [await runHistory(generate(11, 100)), await runHistory(generate(11, 100))]
    assert.deepStrictEqual(a.log, b.log)
  }, 30_000)
})

/** The first CI seed whose run breaks an invariant with the broken part `options` plants, if any. */
const firstFailing = async (options: Parameters<typeof simulate>[2]) => {
  for (const seed of seeds) {
    const report = await simulate(seed, steps, options)
    if (!report.result.ok) return report
  }
  return undefined
}

/** The report of a run that broke the invariant `code`. */
const brokeInvariant = (report: Awaited<ReturnType<typeof simulate>> | undefined, code: string, what: string) => {
  assert.isDefined(report, `no CI seed found ${what}`)
  const violations = report!.result.failure!.violations
  assert.isTrue(violations.some((v) => v.startsWith(code)), violations.join("\n"))
  return report!
}

describe("the simulator finds a planted bug", () => {
  it("a ledger store that drops one posting of the first approved refund: found, and shrunk", async () => {
    const plant = { _tag: "DropPosting", kind: "refund.completed" } as const
    const lines: Array<string> = []
    const found = brokeInvariant(
      await firstFailing({ plant, out: (l) => lines.push(l), shrinkBudget: { runs: 200, millis: 10_000 } }),
      "L1",
      "the dropped posting"
    )
    assert.isBelow(found.shortest!.length, found.result.steps, lines.join("\n"))
    // The shortest history still fails on its own.
    const again = await runHistory(found.shortest!, { plant })
    assert.isFalse(again.ok)
  }, 60_000)

  it("a key released when its execution dies (instead of its lock ended): found, a retry bound to a second record", async () => {
    brokeInvariant(await firstFailing({ plant: { _tag: "ReleaseKeyOnCrash" }, shrink: false, out: () => {} }), "E1", "the key released too early")
  }, 60_000)

  it("an upstream that does not deduplicate charges by idempotency key: found when the engine asks again after a crash", async () => {
    const double = { ignoresIdempotencyKey: true }
    brokeInvariant(await firstFailing({ double, out: () => {}, shrinkBudget: { runs: 100, millis: 5_000 } }), "E3", "the second charge")
  }, 60_000)

  it("a failed payout whose reversal entry is never written: found (P3)", async () => {
    const plant = { _tag: "SkipEntry", kind: "payout.failed" } as const
    brokeInvariant(await firstFailing({ plant, shrink: false, out: () => {} }), "P3", "the missing reversal")
  }, 60_000)

  it("a payout upstream that pays again for a key it paid: found (P1)", async () => {
    brokeInvariant(await firstFailing({ payoutDouble: { ignoresIdempotencyKey: true }, shrink: false, out: () => {} }), "P1", "the second payout")
  }, 60_000)
})
