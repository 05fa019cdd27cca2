/**
 * The steps of a simulated history, as data (so a history prints, replays and shrinks), how a
 * seed draws them, and how each one runs against the engine's real services. A step names what
 * it acts on by a number taken modulo what exists when it runs (`pick`), so any subsequence of a
 * history is still a valid history; each step carries its own seed for the upstream's fault
 * draws, so dropping a step leaves the others' choices unchanged.
 */
import { BigDecimal, Cause, Clock, Effect, Exit, Fiber, Option } from "effect"
import { TestClock } from "effect/testing"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { SandboxClocks } from "../../core/clock/SandboxClocks.ts"
import { Idempotency, retentionHours } from "../../core/idempotency/Idempotency.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { CreatedView } from "../../core/payments/PaymentView.ts"
import { PayoutJson } from "../../core/payouts/Payout.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { Webhooks } from "../../core/webhooks/Webhooks.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import type { PayoutDouble } from "./PayoutDouble.ts"
import type { Callback, ProviderDouble, Told, UpstreamCharge } from "./ProviderDouble.ts"
import { Random } from "./Random.ts"
import type { WebhookReceiver } from "./WebhookReceiver.ts"

export interface CreateStep {
  readonly kind: "create"
  readonly key: string
  readonly amount: string
  readonly method: string
  readonly seed: number
}
export interface RefundStep {
  readonly kind: "refund"
  readonly pick: number
  readonly fraction: number | null
  readonly seed: number
}
/** A payout sent with a client Idempotency-Key (`POST /me/payout/send`). */
export interface PayoutStep {
  readonly kind: "payout"
  readonly key: string
  readonly amount: string
  readonly method: string
  readonly seed: number
}
/** A create, a refund or a payout whose fiber is interrupted after some scheduler turns. */
export type CrashTarget = CreateStep | RefundStep | PayoutStep

export type Step =
  | CreateStep
  | RefundStep
  /**
   * `hard`: the process dies (the key's lease is neither ended nor freed by the interrupted
   * execution, it lapses after 15 s); otherwise the request is interrupted (a client that hung up:
   * its finalizers run).
   */
  | { readonly kind: "crash"; readonly inner: CrashTarget; readonly yields: number; readonly hard: boolean; readonly seed: number }
  | { readonly kind: "upstream"; readonly pick: number; readonly seed: number }
  | { readonly kind: "deliver"; readonly pick: number; readonly keep: boolean; readonly seed: number }
  | { readonly kind: "unknownCallback"; readonly n: number; readonly seed: number }
  | { readonly kind: "forgedCallback"; readonly pick: number; readonly seed: number }
  | { readonly kind: "chargeback"; readonly pick: number; readonly seed: number }
  | { readonly kind: "advance"; readonly seconds: number; readonly seed: number }
  | PayoutStep
  /** The payout upstream decides a payout it is processing (paid, or rejected after acceptance). */
  | { readonly kind: "payoutUpstream"; readonly pick: number; readonly seed: number }
  | { readonly kind: "payoutCallback"; readonly pick: number; readonly keep: boolean; readonly seed: number }
  /** The shop's payout balance is funded again (sandbox funding, MXN). */
  | { readonly kind: "fund"; readonly amount: string; readonly seed: number }
  /** The merchant's webhook endpoint answers 503 for a while. */
  | { readonly kind: "receiverDown"; readonly minutes: number; readonly seed: number }
  /**
   * Time runs `minutes` on (retries come due) and the delivery worker dies after its sends,
   * before it records them: its leases must lapse, the endpoint sees those events again.
   */
  | { readonly kind: "deliveryCrash"; readonly minutes: number; readonly seed: number }
  /** The shop moves its sandbox test clock forward (`SandboxClocks.advance`): its due work runs. */
  | { readonly kind: "shopClock"; readonly seconds: number; readonly seed: number }

export const describeStep = (s: Step): string => {
  switch (s.kind) {
    case "create":
      return `create key=${s.key} amount=${s.amount} method=${s.method}`
    case "crash":
      return `${s.hard ? "crash" : "interrupt"} after ${s.yields} turns of (${describeStep(s.inner)})`
    case "upstream":
      return `upstream decides #${s.pick}`
    case "deliver":
      return `deliver callback #${s.pick}${s.keep ? " (and deliver it again later)" : ""}`
    case "unknownCallback":
      return `callback for unknown payment TXN-GHOST-${s.n}`
    case "forgedCallback":
      return `forged callback #${s.pick}`
    case "refund":
      return `refund payment #${s.pick} ${s.fraction === null ? "in full" : `${Math.round(s.fraction * 100)}%`}`
    case "chargeback":
      return `chargeback stage on charge #${s.pick}`
    case "advance":
      return `advance ${s.seconds} s`
    case "payout":
      return `payout key=${s.key} amount=${s.amount} method=${s.method}`
    case "payoutUpstream":
      return `payout upstream decides #${s.pick}`
    case "payoutCallback":
      return `payout callback #${s.pick}${s.keep ? " (and deliver it again later)" : ""}`
    case "fund":
      return `fund payout balance ${s.amount} MXN`
    case "receiverDown":
      return `webhook endpoint down ${s.minutes} min`
    case "deliveryCrash":
      return `webhook worker dies before recording its sends, ${s.minutes} min on`
    case "shopClock":
      return `shop test clock advances ${s.seconds} s`
  }
}

const methods = ["sbx_pix", "sbx_spei", "sbx_pse", "sbx_card", "sbx_cash"]
/** Real payout rails (routed to the payout double), MXN: what the shop's payout balance is funded in. */
const payoutMethodIds = ["po_mx_spei"]
export const payoutCurrency = "MXN"
export const payoutRecipient = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }

/** Draws a history of `steps` steps from one seed. */
export const generate = (seed: number, steps: number): ReadonlyArray<Step> => {
  const r = new Random(seed)
  const keys: Array<{ key: string; amount: string; method: string }> = []
  const newCreate = (): CrashTarget => {
    const roll = r.float()
    if (keys.length > 0 && roll < 0.2) {
      const k = r.pick(keys) // a client retry, same key and same body
      return { kind: "create", ...k, seed: r.fork() }
    }
    if (keys.length > 0 && roll < 0.28) {
      const k = r.pick(keys) // the same key with another body: refused
      return { kind: "create", key: k.key, amount: (Number(k.amount) + 1).toFixed(2), method: k.method, seed: r.fork() }
    }
    const k = { key: `k${keys.length + 1}`, amount: (1 + r.float() * 400).toFixed(2), method: r.pick(methods) }
    keys.push(k)
    return { kind: "create", ...k, seed: r.fork() }
  }
  const payoutKeys: Array<{ key: string; amount: string; method: string }> = []
  const newPayout = (): PayoutStep => {
    const roll = r.float()
    if (payoutKeys.length > 0 && roll < 0.2) return { kind: "payout", ...r.pick(payoutKeys), seed: r.fork() }
    if (payoutKeys.length > 0 && roll < 0.28) {
      const k = r.pick(payoutKeys) // the same key with another body: refused
      return { kind: "payout", key: k.key, amount: (Number(k.amount) + 1).toFixed(2), method: k.method, seed: r.fork() }
    }
    const k = { key: `q${payoutKeys.length + 1}`, amount: (20 + r.float() * 4000).toFixed(2), method: r.pick(payoutMethodIds) }
    payoutKeys.push(k)
    return { kind: "payout", ...k, seed: r.fork() }
  }
  const refund = (): CrashTarget => ({ kind: "refund", pick: r.int(1 << 16), fraction: r.chance(0.4) ? null : r.between(5, 80) / 100, seed: r.fork() })
  const history: Array<Step> = []
  for (let i = 0; i < steps; i++) {
    const kind = r.weighted([
      ["create", 26],
      ["crash", 6],
      ["upstream", 16],
      ["deliver", 16],
      ["unknownCallback", 2],
      ["forgedCallback", 2],
      ["refund", 12],
      ["chargeback", 6],
      ["advance", 14],
      ["payout", 10],
      ["payoutUpstream", 6],
      ["payoutCallback", 5],
      ["fund", 1],
      ["receiverDown", 1],
      ["deliveryCrash", 2],
      ["shopClock", 2]
    ] as const)
    switch (kind) {
      case "create":
        history.push(newCreate())
        break
      case "crash":
        history.push({ kind, inner: r.weighted<() => CrashTarget>([[newCreate, 55], [newPayout, 25], [refund, 20]])(), yields: r.int(40), hard: r.chance(0.5), seed: r.fork() })
        break
      case "refund":
        history.push(refund())
        break
      case "deliver":
      case "payoutCallback":
        history.push({ kind, pick: r.int(1 << 16), keep: r.chance(0.15), seed: r.fork() })
        break
      case "payout":
        history.push(newPayout())
        break
      case "fund":
        history.push({ kind, amount: String(r.between(5, 20) * 1000), seed: r.fork() })
        break
      case "shopClock":
        history.push({ kind, seconds: r.weighted([[r.between(60, 3600), 3], [r.between(3600, 86_400), 2], [r.between(86_400, 10 * 86_400), 1]] as const), seed: r.fork() })
        break
      case "deliveryCrash":
        history.push({ kind, minutes: r.between(1, 180), seed: r.fork() })
        break
      case "receiverDown":
        history.push({ kind, minutes: r.weighted([[r.between(1, 60), 3], [r.between(60, 24 * 60), 2], [r.between(24 * 60, 4 * 24 * 60), 1]] as const), seed: r.fork() })
        break
      case "unknownCallback":
        history.push({ kind, n: r.int(1000), seed: r.fork() })
        break
      case "advance": {
        const seconds = r.weighted([[r.between(1, 59), 3], [r.between(60, 900), 4], [r.between(3600, 6 * 3600), 2], [r.between(86_400, 3 * 86_400), 1]] as const)
        history.push({ kind, seconds, seed: r.fork() })
        break
      }
      default:
        history.push({ kind, pick: r.int(1 << 16), seed: r.fork() } as Step)
    }
  }
  return history
}

/**
 * A key is kept 24 hours (`retentionHours`): used again later it is a new key. Keys are named
 * per lifetime (`k1#1`, `k1#2`) wherever the invariants group by key.
 */
export class KeyLifetimes {
  private readonly starts = new Map<string, Array<number>>()
  name(key: string, nowMillis: number): string {
    const starts = this.starts.get(key) ?? []
    if (starts.length === 0 || nowMillis - starts[starts.length - 1]! >= retentionHours * 3_600_000) starts.push(nowMillis)
    this.starts.set(key, starts)
    return `${key}#${starts.length}`
  }
}

/** What the simulation knows besides the store: the upstreams, the clients' view, the key bindings seen. */
export interface World {
  readonly scope: ShopScope
  readonly doubles: ReadonlyArray<ProviderDouble>
  readonly told: Told
  readonly outbox: Array<Callback>
  readonly keys: KeyLifetimes
  /** Per client key (and lifetime): the payment ids its successful answers named. */
  readonly answers: Map<string, Set<string>>
  /** Payments a client has seen (answers), oldest first: what refunds pick from. */
  readonly known: Array<string>
  /** Per client key (and lifetime): the records the store was asked to bind it to (claim or bind). */
  readonly bindings: Map<string, Set<string>>
  /**
   * How long (real milliseconds) an operation that has not finished is waited for before the
   * virtual clock is moved on a second (it waits on IO, or on the virtual clock); 0: no IO to
   * wait for (the memory store), only event-loop turns.
   */
  readonly liveWaitMs: number
  /** Per step, what happened (for the printed history). */
  readonly log: Array<string>
  /** While true, the engine's process is dead: its finalizers reach no store (see `Run.ts`). */
  readonly process: { dead: boolean }
  /** The payout upstream and the callbacks it sent (delivered by `payoutCallback` steps). */
  readonly payouts: PayoutDouble
  readonly payoutOutbox: Array<Callback>
  /** Per payout key (and lifetime): the payout ids its successful answers named. */
  readonly payoutAnswers: Map<string, Set<string>>
  /** The merchant's webhook endpoint, and the shop's subscription to it. */
  readonly receiver: WebhookReceiver
  readonly webhookId: string
  /** Armed: the delivery worker's next record of its attempts dies (see `Run.ts`); how many were lost so. */
  readonly deliveryCrash: { armed: boolean; lost: number }
  /** Events whose fan-out the invariants checked (W2). */
  readonly checkedEvents: Set<string>
}

export const allCharges = (world: World): ReadonlyArray<UpstreamCharge> => world.doubles.flatMap((d) => [...d.charges.values()])

const codeOf = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) return "ok"
  const fail = exit.cause.reasons.find(Cause.isFailReason)
  if (fail !== undefined) return (fail.error as { code?: string; _tag?: string }).code ?? String((fail.error as { _tag?: string })._tag)
  return Cause.hasInterrupts(exit.cause) ? "interrupted" : `defect: ${Cause.pretty(exit.cause).split("\n")[0]}`
}

/**
 * Runs an operation to its end on the virtual clock: it runs until it finishes or waits; a wait
 * on the virtual clock (a lease, a timeout) is let through a second at a time, at most `limit`.
 */
/** `n` turns of the event loop's check phase: everything already queued there runs first. */
const eventLoopTurns = (n: number) =>
  Effect.promise(async () => {
    for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve))
  })

export const drive = <A, E, R>(effect: Effect.Effect<A, E, R>, world: World, limit = 150) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(effect)
    for (let tick = 0; tick <= limit; tick++) {
      for (let turn = 0; turn < 64; turn++) {
        const exit = fiber.pollUnsafe()
        if (exit !== undefined) return exit
        yield* Effect.yieldNow
      }
      // Still running: waiting on IO (SQL stores) or on the virtual clock. On the memory store
      // nothing waits on IO: a few event-loop turns (setImmediate, where Effect's scheduler runs
      // its fibers) let every runnable fiber run, in the same order on every run. A real timer
      // would not: on a loaded machine it can fire before the scheduler's turn, and the clock
      // would move at a point that depends on the load (a seed would not replay its history).
      const done = yield* Effect.raceFirst(
        Effect.map(Fiber.await(fiber), Option.some),
        Effect.as(world.liveWaitMs === 0 ? eventLoopTurns(16) : TestClock.withLive(Effect.sleep(world.liveWaitMs)), Option.none())
      )
      if (Option.isSome(done)) return done.value
      yield* TestClock.adjust("1 second")
    }
    yield* Fiber.interrupt(fiber)
    return Exit.die(new Error(`stuck: did not finish in ${limit} s of virtual time`)) as Exit.Exit<A, E>
  })

/** Runs every due job, then every due webhook delivery, until none is left (bounded). */
export const drain = (world: World) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    const webhooks = yield* Webhooks
    let result: Exit.Exit<number> = Exit.succeed(0)
    for (let i = 0; i < 25; i++) {
      const exit = yield* drive(jobs.runDue, world)
      if (Exit.isFailure(exit) || exit.value === 0) {
        result = exit
        break
      }
    }
    for (let i = 0; i < 25; i++) {
      const exit = yield* drive(webhooks.deliverDue, world)
      if (Exit.isFailure(exit)) return exit
      if (exit.value === 0) break
    }
    return result
  })

const setSeeds = (world: World, seed: number) => {
  world.doubles.forEach((d, i) => d.setSeed(seed * 31 + i))
  world.payouts.setSeed(seed * 37 + 5)
  world.receiver.setSeed(seed * 41 + 7)
}

const createEffect = (world: World, step: CreateStep) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    const idempotency = yield* Idempotency
    const { value: created } = yield* idempotency.run(
      { scope: `sandbox:${world.scope.merchant.id}`, key: step.key, fingerprint: `POST /payments ${step.amount} ${step.method}` },
      CreatedView,
      (key) => payments.createAnswering(world.scope, { id: key.resume, amount: Money.decimal(step.amount), paymentMethodId: step.method }, key),
      { claimInWriteAhead: true }
    )
    const key = world.keys.name(step.key, yield* Clock.currentTimeMillis)
    const seen = world.answers.get(key) ?? new Set<string>()
    seen.add(created.transactionId)
    world.answers.set(key, seen)
    if (!world.known.includes(created.transactionId)) world.known.push(created.transactionId)
    return created.transactionId
  })

const refundEffect = (world: World, step: RefundStep) =>
  Effect.gen(function*() {
    if (world.known.length === 0) return "no payment"
    const id = world.known[step.pick % world.known.length]!
    const payments = yield* Payments
    const p = yield* payments.get(world.scope, id)
    const amount = step.fraction === null ? undefined : Money.round(BigDecimal.multiply(p.amountLocal, Money.decimal(step.fraction.toFixed(2))), p.currencyLocal)
    const claim = yield* (yield* Refunds).refund(world.scope, id, { amount })
    return `${claim.id} on ${id}`
  })

const payoutEffect = (world: World, step: PayoutStep) =>
  Effect.gen(function*() {
    const payouts = yield* Payouts
    const idempotency = yield* Idempotency
    const { value: payout } = yield* idempotency.run(
      { scope: `sandbox:${world.scope.merchant.id}`, key: step.key, fingerprint: `POST /me/payout/send ${step.amount} ${step.method}` },
      PayoutJson,
      (key) => Effect.map(payouts.send(world.scope, { methodId: step.method, amount: Money.decimal(step.amount), recipient: payoutRecipient }, key), (r) => r.payout)
    )
    const key = world.keys.name(step.key, yield* Clock.currentTimeMillis)
    const seen = world.payoutAnswers.get(key) ?? new Set<string>()
    seen.add(payout.id)
    world.payoutAnswers.set(key, seen)
    return `${payout.id} ${payout.status}`
  })

const innerEffect = (world: World, step: CrashTarget) =>
  step.kind === "create" ? createEffect(world, step) : step.kind === "refund" ? refundEffect(world, step) : payoutEffect(world, step)

/** Runs one step; answers a line for the printed history. */
export const runStep = (world: World, step: Step) =>
  Effect.gen(function*() {
    setSeeds(world, step.seed)
    switch (step.kind) {
      case "create":
        return codeOf(yield* drive(createEffect(world, step), world))
      case "refund":
        return codeOf(yield* drive(refundEffect(world, step), world))
      case "crash": {
        setSeeds(world, step.inner.seed)
        const fiber = yield* Effect.forkChild(innerEffect(world, step.inner))
        for (let i = 0; i < step.yields && fiber.pollUnsafe() === undefined; i++) yield* Effect.yieldNow
        const before = fiber.pollUnsafe()
        world.process.dead = step.hard
        yield* Fiber.interrupt(fiber)
        world.process.dead = false
        return before === undefined ? "interrupted" : `finished before the crash: ${codeOf(before)}`
      }
      case "upstream": {
        // The upstream moves: a pending charge is decided, or a pending refund settles.
        const pending = allCharges(world).filter((c) => c.truth === "pending")
        const refunds = world.doubles.flatMap((d) => [...d.refunds.values()].filter((r) => r.status === "pending").map((r) => [d, r] as const))
        const n = pending.length + refunds.length
        if (n === 0) return "nothing pending upstream"
        const i = step.pick % n
        if (i < pending.length) {
          const charge = pending[i]!
          world.doubles.find((d) => d.charges.get(charge.upstreamKey) === charge)!.decide(charge)
          return `${charge.transactionId} is ${charge.truth} upstream`
        }
        const [double, refund] = refunds[i - pending.length]!
        double.settleRefund(refund)
        return `refund ${refund.refundId} ${refund.status} upstream`
      }
      case "chargeback": {
        const open = allCharges(world).filter((c) => c.truth === "completed" || c.truth === "chargeback")
        if (open.length === 0) return "no completed charge"
        const charge = open[step.pick % open.length]!
        world.doubles.find((d) => d.charges.get(charge.upstreamKey) === charge)!.chargeback(charge)
        return `${charge.transactionId} is ${charge.truth} upstream`
      }
      case "deliver": {
        if (world.outbox.length === 0) return "no callback"
        const i = step.pick % world.outbox.length
        const callback = world.outbox[i]!
        if (!step.keep) world.outbox.splice(i, 1)
        const payments = yield* Payments
        const exit = yield* drive(payments.handleCallback(callback.providerId, { "x-sim-signature": callback.signature }, callback.body), world)
        return `${callback.label}: ${Exit.isSuccess(exit) ? `${exit.value} applied` : codeOf(exit)}`
      }
      case "unknownCallback": {
        world.doubles[step.n % world.doubles.length]!.unknownCallback(step.n)
        return "queued"
      }
      case "forgedCallback": {
        const charges = allCharges(world)
        if (charges.length === 0) return "no charge"
        const charge = charges[step.pick % charges.length]!
        world.doubles.find((d) => d.charges.get(charge.upstreamKey) === charge)!.forgedCallback(charge)
        return "queued"
      }
      case "advance": {
        yield* TestClock.adjust(`${step.seconds} seconds`)
        return "ok"
      }
      case "payout": {
        const exit = yield* drive(payoutEffect(world, step), world)
        return Exit.isSuccess(exit) ? exit.value : codeOf(exit)
      }
      case "payoutUpstream": {
        const processing = [...world.payouts.payouts.values()].filter((p) => p.truth === "processing")
        if (processing.length === 0) return "no payout processing upstream"
        const payout = processing[step.pick % processing.length]!
        world.payouts.decide(payout)
        return `${payout.payoutId} is ${payout.truth} upstream`
      }
      case "payoutCallback": {
        if (world.payoutOutbox.length === 0) return "no payout callback"
        const i = step.pick % world.payoutOutbox.length
        const callback = world.payoutOutbox[i]!
        if (!step.keep) world.payoutOutbox.splice(i, 1)
        const payouts = yield* Payouts
        const exit = yield* drive(payouts.handleCallback(callback.providerId, { "x-sim-signature": callback.signature }, callback.body), world)
        return `${callback.label}: ${Exit.isSuccess(exit) ? `${exit.value} applied` : codeOf(exit)}`
      }
      case "fund": {
        const exit = yield* drive((yield* Payouts).fundSandbox(world.scope, payoutCurrency, Money.decimal(step.amount)), world)
        return codeOf(exit)
      }
      case "deliveryCrash": {
        yield* TestClock.adjust(`${step.minutes} minutes`)
        world.deliveryCrash.armed = true
        const lost = world.deliveryCrash.lost
        const exit = yield* drive((yield* Webhooks).deliverDue, world)
        const died = world.deliveryCrash.lost - lost
        world.deliveryCrash.armed = false
        return died > 0 ? `died with ${died} attempt(s) unrecorded` : `nothing due (${codeOf(exit)})`
      }
      case "shopClock":
        return codeOf(yield* drive((yield* SandboxClocks).advance(world.scope, step.seconds), world))
      case "receiverDown": {
        world.receiver.downUntil = (yield* Clock.currentTimeMillis) + step.minutes * 60_000
        return "ok"
      }
    }
  })
