/**
 * Sending a payout, exactly once: checks, then one transaction writes the debit, the payout
 * (`processing`) and the binding of the client's `Idempotency-Key`; then the driver carries it out
 * with the payout id as its idempotency key. A retry of the key, or the recovery job, continues
 * a payout an interrupted execution left behind (`resume`).
 */
import { BigDecimal, DateTime, Effect, Option, Result, Schema } from "effect"
import { apiError, type ApiErrorOf, invalidRequest } from "../ApiError.ts"
import type { Environment } from "../Environment.ts"
import { baseUrlOf, EngineConfig } from "../EngineConfig.ts"
import { Fx } from "../fx/Fx.ts"
import type { KeyHandle } from "../idempotency/Idempotency.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Ledger } from "../ledger/Ledger.ts"
import * as Money from "../Money.ts"
import { LedgerStore } from "../ports/LedgerStore.ts"
import { PayoutProviders, PayoutRejected } from "../ports/PayoutProvider.ts"
import { PayoutStore } from "../ports/PayoutStore.ts"
import { Conflict, Transactions } from "../ports/Transactions.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { type Driver, driverFor, driverName, noPayoutProviderReason, simulatedDriver } from "./Drivers.ts"
import type { Payout, PayoutStatus } from "./Payout.ts"
import type { PayoutMethodDef } from "./PayoutMethod.ts"
import { payoutMethods } from "./payoutMethods.ts"
import { validateRecipient } from "./Recipients.ts"

type ShopRef = Pick<ShopScope, "environment" | "shop" | "merchant">

export const JobKinds = { recover: "payout.recover" } as const

/** How many times (5 minutes apart) a payout whose provider could not be asked is asked again. */
export const maxRecoverAttempts = 288

export const makeSend = Effect.fnUntraced(function*(deps: {
  readonly methods: (environment: Environment) => ReadonlyArray<PayoutMethodDef>
  /** Moves a payout to its next status with the money that goes with it. */
  readonly move: (payout: Payout, status: PayoutStatus, failureReason: string | null) => Effect.Effect<Payout, Conflict>
  readonly insufficient: (currency: string, requested: BigDecimal.BigDecimal, available: BigDecimal.BigDecimal) => Effect.Effect<never, ApiErrorOf<"balance_insufficient">>
  /** Starts the status poll of a payout a provider is still processing. */
  readonly schedulePoll: (payoutId: string, round: number) => Effect.Effect<boolean>
}) {
  const store = yield* PayoutStore
  const ledgerStore = yield* LedgerStore
  const ledger = yield* Ledger
  const fx = yield* Fx
  const ids = yield* Ids
  const tx = yield* Transactions
  const providers = yield* PayoutProviders
  const jobs = yield* Jobs
  const config = yield* EngineConfig
  const { insufficient, methods, move } = deps
  const shopOf = (scope: ShopRef) => ({ environment: scope.environment, shopId: scope.shop.id })

  /**
   * Carries out a payout written ahead: the simulated driver or the provider, asked with the
   * payout id as its idempotency key (the same on every retry). A refusal reverses the debit
   * (the payout ends `failed`) and answers 422 `payout_dispatch_failed`. A provider that could
   * not be asked (outage, timeout: the payout may well exist upstream) is not a refusal: the
   * payout stays `processing` and debited, and a retry of the client's key or the recovery job
   * asks again with the same key.
   */
  const dispatch = Effect.fnUntraced(function*(payout: Payout, method: PayoutMethodDef, driver: Driver) {
    if (!payout.debited || driver._tag === "SandboxRail" || driver._tag === "None") return { payout, method }
    const dispatched = driver._tag === "Simulated"
      ? (/reject/i.test(payout.recipient["name"] ?? "")
        ? Result.fail(new PayoutRejected({ failureReason: "simulated driver: the beneficiary was rejected" }))
        : Result.succeed({ providerRef: `sim_${payout.id}`, status: "completed" as const }))
      : yield* driver.provider.send({
        payoutId: payout.id,
        idempotencyKey: payout.id,
        method,
        amount: Money.toText(payout.amount),
        currency: payout.currency,
        recipient: payout.recipient,
        callbackUrl: `${baseUrlOf(config)}/providers/${encodeURIComponent(driver.provider.id)}/payout-callbacks`
      }).pipe(Effect.result)
    if (Result.isFailure(dispatched)) {
      const failure = dispatched.failure
      if (failure._tag === "PayoutProviderUnavailable") {
        yield* Effect.logWarning("payout provider unavailable: the payout stays processing").pipe(
          Effect.annotateLogs({ payoutId: payout.id, provider: payout.provider, reason: failure.reason })
        )
        return { payout, method }
      }
      yield* tx.run(move(payout, "failed", failure.failureReason)).pipe(Effect.orDie)
      return yield* apiError("payout_dispatch_failed", `The provider rejected the payout: ${failure.failureReason}`, {
        failureReason: failure.failureReason,
        payoutId: payout.id,
        debitReversed: true
      })
    }
    const final = yield* tx.run(Effect.gen(function*() {
      const stored: Payout = { ...payout, providerRef: dispatched.success.providerRef, version: payout.version + 1 }
      if (!(yield* store.update(stored))) return yield* new Conflict()
      if (dispatched.success.status === "completed") return yield* move(stored, "completed", null)
      yield* deps.schedulePoll(stored.id, 1)
      return stored
    })).pipe(Effect.orDie)
    return { payout: final, method }
  })

  /**
   * Continues a payout an interrupted execution wrote ahead (a retry of its key, or the
   * recovery job): dispatched again with the same key while no provider reference is known.
   */
  const resume = Effect.fnUntraced(function*(payout: Payout) {
    const method = payoutMethods.find((m) => m.id === payout.methodId)!
    if (payout.status === "failed") {
      return yield* apiError("payout_dispatch_failed", `The payout failed: ${payout.failureReason ?? "refused"}`, {
        failureReason: payout.failureReason,
        payoutId: payout.id,
        debitReversed: payout.debited
      })
    }
    if (payout.status !== "processing" || payout.providerRef !== null) return { payout, method }
    const provider = providers.forMethod(payout.environment, method).find((p) => p.id === payout.provider)
    const driver: Driver = payout.provider === simulatedDriver
      ? { _tag: "Simulated" }
      : provider === undefined
      ? { _tag: "None" }
      : { _tag: "Provider", provider }
    return yield* dispatch(payout, method, driver)
  })

  const send = Effect.fn("Payouts.send")(function*(scope: ShopRef, input: {
    readonly methodId: string
    readonly amount: BigDecimal.BigDecimal
    readonly recipient: unknown
  }, key?: KeyHandle | undefined) {
    if (key?.resume !== undefined) {
      const existing = yield* store.find(scope.environment, scope.shop.id, key.resume)
      if (Option.isSome(existing)) return yield* resume(existing.value)
    }
    const method = methods(scope.environment).find((m) => m.id === input.methodId) ?? undefined
    if (method === undefined) {
      return yield* apiError("payout_method_unavailable", `No payout method '${input.methodId}': take ids from GET /me/payout/methods`, {
        methodId: input.methodId
      })
    }
    const driver = driverFor(scope.environment, method, providers.forMethod(scope.environment, method))
    if (driver._tag === "None") {
      return yield* apiError("payout_method_unavailable", `No payout provider is configured for ${method.name} in production: nothing was debited`, {
        methodId: method.id,
        reason: noPayoutProviderReason
      })
    }
    if (!BigDecimal.isPositive(input.amount) || !Money.fitsExponent(input.amount, method.currency)) {
      return yield* apiError("amount_invalid", `amount must be a positive ${method.currency} amount with at most ${Money.exponent(method.currency)} decimals`, {
        amount: Money.toJsonNumber(input.amount),
        currency: method.currency
      })
    }
    const checked = validateRecipient(method, input.recipient)
    if (checked.issues.length > 0) {
      return yield* invalidRequest(`Invalid recipient: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, checked.issues)
    }
    const usd = (yield* fx.toUsd(input.amount, method.currency)).converted
    if (BigDecimal.isLessThan(usd, Money.decimal(method.minUsd)) || BigDecimal.isGreaterThan(usd, Money.decimal(method.maxUsd))) {
      return yield* apiError("amount_invalid", `${method.name} pays out ${method.minUsd} to ${method.maxUsd} USD; this is ${Money.toText(usd)} USD`, {
        amountUsd: Money.toJsonNumber(usd),
        minUsd: Number(method.minUsd),
        maxUsd: Number(method.maxUsd)
      })
    }
    const at = yield* DateTime.now
    const payout: Payout = {
      id: yield* ids.next("payout"),
      environment: scope.environment,
      merchantId: scope.merchant.id,
      shopId: scope.shop.id,
      methodId: method.id,
      methodName: method.name,
      rail: method.rail,
      country: method.country,
      currency: method.currency,
      amount: input.amount,
      status: "processing",
      provider: driverName(driver),
      providerRef: null,
      debited: !method.sandboxOnly,
      recipient: checked.recipient,
      failureReason: null,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      version: 1
    }
    // Write ahead: the debit, the payout and the client's key commit before any provider is
    // called; the recovery job finishes a dispatch an interrupted execution left behind.
    yield* tx.run(Effect.gen(function*() {
      if (payout.debited) {
        const available = yield* ledgerStore.balances(scope.environment, scope.shop.id)
        if (!available.some((b) => b.book === "payout_available" && b.currency === method.currency)) {
          return yield* apiError("currency_not_funded", `The payout balance holds no ${method.currency}: transfer and swap, or fund it first`, {
            currency: method.currency
          })
        }
        yield* ledger.record(shopOf(scope), "payout.debit", payout.id, [
          { from: "payout_available", to: "payouts_in_flight", currency: method.currency, amount: input.amount }
        ]).pipe(Effect.catchTag("GuardViolation", (e) => insufficient(method.currency, input.amount, Money.decimal(e.available))))
        yield* jobs.enqueue(JobKinds.recover, { payoutId: payout.id }, {
          runAt: DateTime.add(at, { minutes: 5 }),
          dedupeKey: `${JobKinds.recover}:${payout.id}`
        })
      }
      yield* store.insert(payout)
      // The run claimed the key before executing: binding it cannot find it taken.
      if (key !== undefined) yield* Effect.orDie(key.bind(payout.id))
    }))
    return yield* dispatch(payout, method, driver)
  })

  yield* jobs.handle(JobKinds.recover, Effect.fnUntraced(function*(payload: unknown) {
    const { attempt = 1, payoutId } = yield* Schema.decodeUnknownEffect(
      Schema.Struct({ payoutId: Schema.String, attempt: Schema.optionalKey(Schema.Int) })
    )(payload)
    const found = yield* store.findById(payoutId)
    if (Option.isNone(found) || found.value.status !== "processing" || found.value.providerRef !== null) return
    // A refusal is an answer too: the payout ends failed with its debit reversed.
    yield* resume(found.value).pipe(Effect.catchTag("ApiError", () => Effect.void))
    const after = yield* store.findById(payoutId)
    if (Option.isNone(after) || after.value.status !== "processing" || after.value.providerRef !== null) return
    // The provider could not be asked: again in 5 minutes, for a day; then it is the operator's.
    if (attempt >= maxRecoverAttempts) {
      return yield* Effect.logError("payout provider unreachable for a day: the payout needs the operator").pipe(
        Effect.annotateLogs({ payoutId, provider: after.value.provider })
      )
    }
    yield* jobs.enqueue(JobKinds.recover, { payoutId, attempt: attempt + 1 }, {
      runAt: DateTime.add(yield* DateTime.now, { minutes: 5 }),
      dedupeKey: `${JobKinds.recover}:${payoutId}:${attempt + 1}`
    })
  }))

  return { send }
})
