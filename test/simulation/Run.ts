/**
 * One simulated history on a fresh engine: the real core services (`EngineTestWith`, the engine
 * as library tests and embedders assemble it) on a real store (memory, PGlite or PostgreSQL),
 * time on `TestClock`, two fault-injecting upstreams routed in a cascade, a fault-injecting payout
 * upstream (`PayoutDouble.ts`, the shop's payout balance funded in MXN), the shop's webhook
 * endpoint in process (`WebhookReceiver.ts`, subscribed to every event), and the invariants
 * (`Invariants.ts`) checked after every step. The store is wrapped only to observe which record
 * each Idempotency-Key is bound to, or, for the planted-bug tests, to break it on purpose.
 */
import { Clock, DateTime, Effect, Exit, Layer, Random as EffectRandom, Redacted, References } from "effect"
import { TestClock } from "effect/testing"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import type { BalancedEntry, BalancedPostings, Posting } from "../../core/ledger/Journal.ts"
import { realMillis } from "../../core/clock/RealClock.ts"
import { IdempotencyStore } from "../../core/ports/IdempotencyStore.ts"
import { JobStore } from "../../core/ports/JobStore.ts"
import { LedgerStore } from "../../core/ports/LedgerStore.ts"
import { Transactions } from "../../core/ports/Transactions.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { NodeCrypto } from "@effect/platform-node"
import { Mac } from "effect/crypto"
import { atRealTime } from "../../core/clock/ShopClocks.ts"
import { verifySignature } from "../../core/Signatures.ts"
import { Engine } from "../../core/Engine.ts"
import { Ids } from "../../core/Ids.ts"
import * as SecureRandomPool from "../../core/SecureRandomPool.ts"
import { WebhookStore } from "../../core/ports/WebhookStore.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import * as Money from "../../core/Money.ts"
import { ProviderReports } from "../../core/ports/ProviderReports.ts"
import { SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import { Webhooks } from "../../core/webhooks/Webhooks.ts"
import { SandboxProvider } from "../../providers/sandbox/SandboxProvider.ts"
import { newScope, routeShopTo, testEngineConfig } from "../support/Engine.ts"
import { postgresStore, type StoreLayer } from "../support/Stores.ts"
import { SqlStore } from "../../adapters/storage/sql/SqlStore.ts"
import { checkDeliveries, checkInvariants } from "./Invariants.ts"
import { summarize } from "./Summary.ts"
import { describeStep, drain, KeyLifetimes, payoutCurrency, runStep, type Step, type World } from "./Operations.ts"
import { PayoutDouble, type PayoutDoubleOptions } from "./PayoutDouble.ts"
import { receiverUrl, WebhookReceiver } from "./WebhookReceiver.ts"
import { type DoubleOptions, ProviderDouble, Told } from "./ProviderDouble.ts"
import { Random } from "./Random.ts"

export type StoreName = "memory" | "pglite" | "postgres"

export interface RunOptions {
  readonly store?: StoreName
  /** A deliberately broken engine part, to prove the invariants catch it. */
  readonly plant?: Plant
  readonly double?: DoubleOptions
  readonly payoutDouble?: PayoutDoubleOptions
  /** Print each step as it runs. */
  readonly verbose?: boolean
  /**
   * How often a store transaction fails at its end, after its writes and before its commit
   * (rolled back whole, a defect to the engine, as a lost connection is); default 0.
   */
  readonly storeFailures?: number
}

/** The store's fault draws: reseeded per step, counted for the summary. */
interface StoreFaults {
  random: Random
  /** 0 while the shop is set up; the run's rate from the first step on. */
  rate: number
  injected: number
}

/** Bugs planted outside the core, by wrapping a port. */
export type Plant =
  /** The ledger store drops the last posting of the first entry of this kind it is given. */
  | { readonly _tag: "DropPosting"; readonly kind: string }
  /**
   * The key store frees a key when its execution ends without an answer (a crash, an interrupted
   * request) instead of ending its lock: a key released too early, so its retry starts a second
   * record.
   */
  | { readonly _tag: "ReleaseKeyOnCrash" }
  /**
   * The ledger store skips the first entry of this kind it is given, whole (neither postings nor
   * cached balances): `payout.failed` is a failed payout whose debit is never reversed.
   */
  | { readonly _tag: "SkipEntry"; readonly kind: string }

export interface RunResult {
  readonly ok: boolean
  readonly steps: number
  /** Index of the step after which an invariant failed, and what failed. */
  readonly failure?: { readonly step: number; readonly violations: ReadonlyArray<string> }
  readonly log: ReadonlyArray<string>
  readonly millis: number
  /** What the run did (see `Summary.ts`). */
  readonly summary: ReadonlyArray<string>
}

const liveClock = Layer.succeed(Clock.Clock, Clock.Clock.defaultValue())

/** How far time runs on after the history, past the longest timer (a 90-day rolling reserve). */
const settleDays = 100

/**
 * J1 (after the history has settled): every job ran or is dead-lettered with a reason: none is
 * left due, and every kill gave its error.
 */
const checkJobs = (killed: ReadonlyArray<{ readonly id: string; readonly error: string }>) =>
  Effect.gen(function*() {
    const backlog = yield* (yield* JobStore).backlog(yield* DateTime.now)
    return [
      ...backlog.filter((b) => b.due > 0).map((b) => `J1: ${b.due} ${b.kind} job(s) still due after the history settled`),
      ...killed.filter((k) => k.error.trim() === "").map((k) => `J1: job ${k.id} dead-lettered without a reason`)
    ]
  })

const baseStore = (name: StoreName): StoreLayer => {
  switch (name) {
    case "memory":
      return MemoryStore.layer
    // The SQL client's own timers (its pool) run on the real clock: on the virtual one, a jump of
    // days would run each of them through every tick of those days. The store reads no clock.
    case "pglite":
      return (SqlStore.pglite(undefined) as unknown as StoreLayer).pipe(Layer.provide(liveClock))
    case "postgres": {
      const url = process.env["DATABASE_URL"]
      if (url === undefined) throw new Error("--store postgres needs DATABASE_URL")
      return postgresStore(url, "sim").pipe(Layer.provide(liveClock))
    }
  }
}

/** The store, with the key bindings observed and the planted bug, if any. */
const storeLayer = (
  name: StoreName,
  bindings: Map<string, Set<string>>,
  keys: KeyLifetimes,
  plant: Plant | undefined,
  faults: StoreFaults,
  engineProcess: World["process"],
  killed: Array<{ readonly id: string; readonly error: string }>,
  deliveryCrash: World["deliveryCrash"]
): StoreLayer => {
  const failing = Layer.effect(Transactions, Effect.gen(function*() {
    const inner = yield* Transactions
    const failAtEnd = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(effect, (a) =>
        Effect.suspend(() => {
          if (faults.rate === 0 || !faults.random.chance(faults.rate)) return Effect.succeed(a)
          faults.injected++
          return Effect.die(new Error("simulated store failure before commit"))
        }))
    return Transactions.of({ run: (effect) => inner.run(failAtEnd(effect)), batch: (effect) => inner.batch(failAtEnd(effect)) })
  }))
  const observed = Layer.effect(IdempotencyStore, Effect.gen(function*() {
    const inner = yield* IdempotencyStore
    const note = (raw: string, resourceId: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const key = keys.name(raw, now)
        const s = bindings.get(key) ?? new Set<string>()
        s.add(resourceId)
        bindings.set(key, s)
      })
    return IdempotencyStore.of({
      ...inner,
      claim: (claim) => Effect.tap(inner.claim(claim), () => note(claim.key, claim.resourceId)),
      bind: (scope, key, resourceId) => Effect.tap(inner.bind(scope, key, resourceId), () => note(key, resourceId)),
      // A dead process ends, frees and completes nothing: its lease lapses on its own.
      extend: (scope, key, holder, lockedUntil) =>
        Effect.gen(function*() {
          if (engineProcess.dead) return
          // Planted: a lock ended at once (not a heartbeat's extension) frees the key instead.
          const ending = DateTime.toEpochMillis(lockedUntil) <= (yield* realMillis)
          if (plant?._tag === "ReleaseKeyOnCrash" && ending) return yield* inner.release(scope, key, holder)
          yield* inner.extend(scope, key, holder, lockedUntil)
        }),
      release: (...args) => Effect.suspend(() => engineProcess.dead ? Effect.void : inner.release(...args)),
      complete: (...args) => Effect.suspend(() => engineProcess.dead ? Effect.void : inner.complete(...args))
    })
  }))
  // Every job killed, with the reason it was given (J1: dead-lettered with a reason).
  const jobsObserved = Layer.effect(JobStore, Effect.gen(function*() {
    const inner = yield* JobStore
    return JobStore.of({ ...inner, kill: (id, error) => Effect.tap(inner.kill(id, error), () => Effect.sync(() => void killed.push({ id, error }))) })
  }))
  const planted = plant?._tag !== "DropPosting" && plant?._tag !== "SkipEntry" ? Layer.empty : Layer.effect(LedgerStore, Effect.gen(function*() {
    const inner = yield* LedgerStore
    let dropped = false
    return LedgerStore.of({
      ...inner,
      append: (entry: BalancedEntry) => {
        if (dropped || entry.kind !== plant.kind || entry.postings.length < 2) return inner.append(entry)
        dropped = true
        // A store bug below the core: the entry was balanced when the core gave it, so the brand
        // that says so is forged here, the one way to write an unbalanced entry.
        const forged = entry.postings.slice(0, -1) as ReadonlyArray<Posting> as BalancedPostings
        return plant._tag === "SkipEntry" ? Effect.void : inner.append({ ...entry, postings: forged })
      }
    })
  }))
  // The delivery worker dies after its sends, before it records them (a `deliveryCrash` step).
  const deliveries = Layer.effect(WebhookStore, Effect.gen(function*() {
    const inner = yield* WebhookStore
    return WebhookStore.of({
      ...inner,
      recordAttempts: (outcomes) =>
        Effect.suspend(() => {
          if (!deliveryCrash.armed || outcomes.length === 0) return inner.recordAttempts(outcomes)
          deliveryCrash.armed = false
          deliveryCrash.lost += outcomes.length
          return Effect.die(new Error("simulated: the delivery worker died before recording its attempts"))
        })
    })
  }))
  return Layer.mergeAll(observed, jobsObserved, planted, failing, deliveries).pipe(Layer.provideMerge(baseStore(name))) as unknown as StoreLayer
}

/**
 * The engine as `EngineTestWith` assembles it (test/support/Engine.ts), with the payout double
 * registered as the payout provider, webhooks sent to the in-process receiver (the
 * `WebhookSender` port) instead of the scripted sender, and hashing and HMAC on `node:crypto`
 * as the Node host has them (`host/Host.ts`): synchronous, so signing a delivery waits on no real
 * IO, and a history on the memory store replays exactly (WebCrypto's promises would let the
 * virtual clock run on by how long they took).
 */
const simEngine = (payouts: PayoutDouble, receiver: WebhookReceiver, store: StoreLayer) =>
  SandboxProvider.layer({ formBaseUrl: "http://api.test.local", callbackSecret: Redacted.make("sandbox-secret") }).pipe(
    Layer.provideMerge(
      Engine.services.pipe(
        Layer.provideMerge(Layer.mergeAll(Payouts.providers([payouts.provider]), SettlementPayoutProviders.none, ProviderReports.none)),
        Layer.provideMerge(Layer.mergeAll(Ids.layerTest, NodeCrypto.layerDigest, NodeCrypto.layerMac, SecureRandomPool.layer))
      )
    ),
    Layer.provideMerge(JoseTokenSigner.layer(Redacted.make("a-test-secret-that-is-long-enough"))),
    Layer.provideMerge(receiver.layer),
    Layer.provideMerge(Layer.succeed(EngineConfig, testEngineConfig)),
    Layer.provideMerge(store)
  )

/** How much MXN the shop's payout balance is funded with before the first step. */
const initialFunding = "30000"

/** Runs `history`; stops at the first step after which an invariant fails. */
export const runHistory = (history: ReadonlyArray<Step>, options: RunOptions = {}): Promise<RunResult> => {
  const bindings = new Map<string, Set<string>>()
  const store = options.store ?? "memory"
  const faults: StoreFaults = { random: new Random(0), rate: 0, injected: 0 }
  const engineProcess = { dead: false }
  const keys = new KeyLifetimes()
  const killed: Array<{ readonly id: string; readonly error: string }> = []
  const payoutOutbox: World["payoutOutbox"] = []
  const payoutDouble = new PayoutDouble("simpay", payoutOutbox, options.payoutDouble)
  const receiver = new WebhookReceiver()
  const deliveryCrash: World["deliveryCrash"] = { armed: false, lost: 0 }
  const engine = simEngine(payoutDouble, receiver, storeLayer(store, bindings, keys, options.plant, faults, engineProcess, killed, deliveryCrash))
  const program = Effect.gen(function*() {
    const started = performance.now()
    const scope = yield* newScope("sandbox")
    const told = new Told()
    const outbox: World["outbox"] = []
    const doubles = [new ProviderDouble("simA", told, outbox, options.double), new ProviderDouble("simB", told, outbox, options.double)]
    // The shop's sandbox payments cascade simA, then simB; the sandbox provider is not routed.
    yield* routeShopTo(scope, doubles.map((d) => d.provider), { sandboxLast: false })
    // The shop's payout balance, and its webhook endpoint (every event).
    yield* (yield* Payouts).fundSandbox(scope, payoutCurrency, Money.decimal(initialFunding))
    const webhook = yield* (yield* Webhooks).create({ environment: scope.environment, shopId: scope.shop.id }, { url: receiverUrl, events: ["*"] })
    const mac = yield* Mac.Mac
    // The endpoint checks each signature against the real clock, as a merchant's server does.
    receiver.verify = (body, header) => atRealTime(verifySignature(body, header, [webhook.secret])).pipe(Effect.provideService(Mac.Mac, mac))
    const world: World = {
      scope,
      doubles,
      told,
      outbox,
      answers: new Map(),
      known: [],
      bindings,
      keys,
      liveWaitMs: store === "memory" ? 0 : 20,
      log: [],
      process: engineProcess,
      payouts: payoutDouble,
      payoutOutbox,
      payoutAnswers: new Map(),
      receiver,
      webhookId: webhook.id,
      deliveryCrash,
      checkedEvents: new Set()
    }
    faults.rate = options.storeFailures ?? 0
    for (const [i, step] of history.entries()) {
      faults.random = new Random(step.seed ^ 0x5a5a5a)
      const outcome = yield* runStep(world, step)
      const jobs = yield* drain(world)
      const line = `${String(i).padStart(4)}  ${describeStep(step)}  ->  ${outcome}${Exit.isFailure(jobs) ? "  (the job runner failed)" : ""}`
      world.log.push(line)
      if (options.verbose === true) console.log(line)
      const violations = yield* checkInvariants(world)
      if (violations.length > 0) {
        const millis = performance.now() - started
        return { ok: false, steps: i + 1, failure: { step: i, violations }, log: world.log, millis, summary: [...yield* summarize(world), `store failures injected: ${faults.injected}`] } satisfies RunResult
      }
    }
    // The end of the history: time runs on past every timer (the longest, a 90-day reserve), and
    // every job has run or is dead with its reason; then every invariant holds again.
    faults.rate = 0
    // The payout upstream decides what it still holds (its callbacks are never delivered: the
    // engine learns it by its poll, if the poll is still running).
    payoutDouble.setSeed(history.length * 7907)
    for (const p of payoutDouble.payouts.values()) payoutDouble.decide(p)
    for (let day = 0; day < settleDays; day++) {
      receiver.setSeed((history.length + day) * 7919)
      yield* TestClock.adjust("1 day")
      yield* drain(world)
    }
    world.log.push(`${String(history.length).padStart(4)}  settle ${settleDays} days on, every job due run`)
    const settled = [...yield* checkInvariants(world), ...yield* checkJobs(killed), ...yield* checkDeliveries(world)]
    const millis = performance.now() - started
    const summary = [...yield* summarize(world), `store failures injected: ${faults.injected}`]
    if (settled.length > 0) return { ok: false, steps: history.length, failure: { step: history.length, violations: settled }, log: world.log, millis, summary } satisfies RunResult
    return { ok: true, steps: history.length, log: world.log, millis, summary } satisfies RunResult
  })
  return Effect.runPromise(program.pipe(
    Effect.provide(engine),
    Effect.provide(TestClock.layer()),
    Effect.provideService(References.MinimumLogLevel, "None"),
    // The engine's own draws (a webhook retry's jitter) from a seed too: the same history
    // replays the same retries.
    EffectRandom.withSeed(history[0]?.seed ?? 0)
  ))
}
