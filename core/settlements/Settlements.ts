/**
 * Settlement batches: a shop's schedule, the close job that sweeps its available USD
 * into a batch (`Close.ts`), the payout of the batch (`Pay.ts`), and what the merchant reads: the
 * batches and their statements.
 *
 * Exactly once per period: a close is a job enqueued with the dedupe key of its shop, schedule
 * version and instant, so two replicas (or a retry) never enqueue it twice, and the close itself
 * runs under the lock of the shop's available balance, binding each entry to one batch. Each close
 * job enqueues the next close first; a schedule change starts a new chain under its new version
 * and the old chain's next job finds its version stale and stops.
 *
 * Sandbox shops get {@link sandboxDefault} at creation and run on their test clock: an advance
 * steps through each close in order (`SandboxClocks`), so a week's advance closes seven daily
 * batches, each with what became available that day.
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf, invalidRequest, notFound } from "../ApiError.ts"
import { realMillis } from "../clock/RealClock.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import type { Environment } from "../Environment.ts"
import { maskedAccount } from "../balances/Withdrawal.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Payments } from "../payments/Payments.ts"
import { reserveShare } from "../payments/Shares.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { SettlementPayoutProviders } from "../ports/SettlementPayoutProvider.ts"
import { SettlementStore } from "../ports/SettlementStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { Audit } from "../audit/Audit.ts"
import { Schema } from "effect"
import { Events } from "../webhooks/Events.ts"
import { JobKinds, makeClose, payerOf } from "./Close.ts"
import { makePay } from "./Pay.ts"
import {
  type DestinationState,
  destinationOf,
  nextCloseOf,
  sandboxChain,
  sandboxDefault,
  type ScheduleInput,
  type SettlementSchedule,
  validate
} from "./Schedule.ts"
import type { SettlementBatch } from "./Settlement.ts"
import { check, type Statement } from "./Statement.ts"
import { statementPaths } from "./SettlementView.ts"
import * as Money from "../Money.ts"

/** A shop as the settlement services address it. */
export interface ShopAccount {
  readonly environment: Environment
  readonly merchantId: string
  readonly shopId: string
}

const decodeClose = Schema.decodeUnknownEffect(Schema.Struct({
  environment: Schema.Literals(["sandbox", "production"]),
  shopId: Schema.String,
  version: Schema.Int
}))
/** Payments read per page while releasing a shop's reserves. */
const reservePage = 200

const decodeBatch = Schema.decodeUnknownEffect(Schema.Struct({ settlementId: Schema.String }))

/** How long this engine keeps what a shop's schedule says about its stablecoins (see `cryptoOf`). */
export const cryptoCacheMs = 1000

export class Settlements extends Context.Service<Settlements, {
  /** The shop's schedule and its next close (none: the shop's money stays available). */
  readonly schedule: (account: ShopAccount) => Effect.Effect<Option.Option<{ readonly schedule: SettlementSchedule; readonly nextCloseAt: DateTime.Utc | null }>>
  /** Sets the shop's schedule (the operator); the open batch closes at the new schedule's next close. */
  readonly setSchedule: (
    account: ShopAccount,
    input: ScheduleInput
  ) => Effect.Effect<
    { readonly schedule: SettlementSchedule; readonly nextCloseAt: DateTime.Utc | null; readonly approval: DestinationState | null },
    ApiErrorOf<"invalid_request" | "settlement_destination_unavailable" | "settlement_destination_refused">
  >
  /**
   * What the schedule's payer says of its destination now, where it pays only to approved ones
   * (Circle Mint's address book: the entry is made if it is missing); null where any is paid.
   */
  readonly destinationState: (schedule: SettlementSchedule) => Effect.Effect<DestinationState | null>
  /** Gives a new sandbox shop the default schedule (in the transaction that creates it). */
  readonly startSandboxDefault: (account: ShopAccount) => Effect.Effect<void>
  /** The shop's batches, newest first (the open one first). */
  readonly list: (account: ShopAccount, page: { readonly limit: number; readonly offset: number }) => Effect.Effect<{ readonly rows: ReadonlyArray<SettlementBatch>; readonly total: number }>
  readonly get: (account: ShopAccount, id: string) => Effect.Effect<SettlementBatch, ApiErrorOf<"not_found">>
  /** The statement of a closed batch, checked (its lines sum to its net); an open batch is 409 `settlement_open`. */
  readonly statement: (account: ShopAccount, id: string) => Effect.Effect<Statement, ApiErrorOf<"not_found" | "settlement_open">>
  /** The stablecoins the shop is paid in (`["USDC"]` with a daily or weekly schedule). */
  readonly crypto: (account: Pick<ShopAccount, "environment" | "shopId">) => Effect.Effect<ReadonlyArray<string>>
  /** A settlement payout provider's notification; answers how many batches it named. */
  readonly callback: (providerId: string, headers: Readonly<Record<string, string | undefined>>, rawBody: string) => Effect.Effect<number, ApiErrorOf<"not_found" | "authentication_failed">>
}>()("core/settlements/Settlements") {
  static readonly layer = Layer.effect(
    Settlements,
    Effect.gen(function*() {
      const store = yield* SettlementStore
      const tenancy = yield* TenancyStore
      const jobs = yield* Jobs
      const tx = yield* Transactions
      const audit = yield* Audit
      const clocks = yield* ShopClocks
      const events = yield* Events
      const providers = yield* SettlementPayoutProviders
      const payments = yield* Payments
      const paymentStore = yield* PaymentStore
      const { close, openBatch } = yield* makeClose
      const { callback } = yield* makePay

      /** Enqueues the close after `after` of this schedule version (once ever per key). Run on the shop's clock. */
      const enqueueNext = Effect.fnUntraced(function*(schedule: SettlementSchedule, after: DateTime.Utc) {
        const at = nextCloseOf(schedule, after)
        if (at === null) return
        yield* jobs.enqueue(JobKinds.close, { environment: schedule.environment, shopId: schedule.shopId, version: schedule.version }, {
          runAt: at,
          dedupeKey: `${JobKinds.close}:${schedule.environment}:${schedule.shopId}:${schedule.version}:${DateTime.formatIso(at)}`
        })
      })

      /**
       * The stablecoins each shop is paid in, read from its schedule at most once per
       * `cryptoCacheMs` by this engine (`GET /me` shows them on every call); a schedule written here
       * applies at once, and within `cryptoCacheMs` on other replicas.
       */
      const cryptoCache = new Map<string, { readonly coins: ReadonlyArray<string>; readonly until: number }>()
      const cryptoOf = (account: Pick<ShopAccount, "environment" | "shopId">) =>
        Effect.flatMap(realMillis, (now) => {
          const id = `${account.environment}:${account.shopId}`
          const hit = cryptoCache.get(id)
          if (hit !== undefined && hit.until > now) return Effect.succeed(hit.coins)
          return Effect.map(store.schedule(account.environment, account.shopId), (s) => {
            const coins = Option.isSome(s) && s.value.frequency !== "manual" ? ["USDC"] : []
            if (cryptoCache.size > 10_000) cryptoCache.clear()
            cryptoCache.set(id, { coins, until: now + cryptoCacheMs })
            return coins
          })
        })

      /** The payer of a USDC schedule that pays only to approved destinations, and the destination. */
      const approverOf = (schedule: SettlementSchedule) => {
        if (schedule.destination.kind !== "usdc") return undefined
        const payer = payerOf(providers, schedule)
        const provider = payer === null ? undefined : providers.byId(payer)
        const ask = provider?.destination
        if (provider === undefined || ask === undefined) return undefined
        const { address, chain } = schedule.destination
        return { provider: provider.id, ask: ask(schedule.environment, { chain, address }) }
      }

      const destinationState = (schedule: SettlementSchedule): Effect.Effect<DestinationState | null> => {
        const approver = approverOf(schedule)
        if (approver === undefined) return Effect.succeed(null)
        return approver.ask.pipe(
          Effect.map((a): DestinationState => ({ provider: approver.provider, ...a })),
          Effect.catch((e) =>
            Effect.succeed<DestinationState>({
              provider: approver.provider,
              status: e._tag === "SettlementPayoutRejected" ? "denied" : "unknown",
              reference: null,
              detail: e.reason
            })
          )
        )
      }

      /** Writes the schedule and makes sure the shop has an open batch ending at its next close. */
      const install = Effect.fnUntraced(function*(account: ShopAccount, schedule: SettlementSchedule) {
        const now = yield* DateTime.now
        yield* store.putSchedule(schedule)
        cryptoCache.delete(`${account.environment}:${account.shopId}`)
        const open = yield* store.open(account.environment, account.shopId)
        if (Option.isNone(open)) yield* openBatch(schedule, account.merchantId, now)
        else {
          const updated: SettlementBatch = {
            ...open.value,
            periodEnd: nextCloseOf(schedule, now) ?? open.value.periodEnd,
            destination: schedule.destination,
            updatedAt: now,
            version: open.value.version + 1
          }
          yield* store.update(updated)
        }
        yield* enqueueNext(schedule, now)
      })

      /**
       * A schedule that does not keep reserves: before the close, every reserve the shop still
       * holds is released (each payment's own release, as its job would on its date), so the batch
       * pays it now; the release jobs that come due later find it released and do nothing.
       */
      const releaseReserves = Effect.fnUntraced(function*(schedule: SettlementSchedule) {
        for (let offset = 0; ; offset += reservePage) {
          const { rows } = yield* paymentStore.list(schedule.environment, schedule.shopId, { statuses: ["completed", "refunded", "chargeback"] }, {
            limit: reservePage,
            offset
          })
          for (const p of rows) {
            if (p.completedAt !== null && p.settlement.reserveReleasedAt === null && BigDecimal.isPositive(reserveShare(p))) {
              yield* payments.releaseReserveNow(p.id)
            }
          }
          if (rows.length < reservePage) return
        }
      })

      yield* jobs.handle(JobKinds.close, Effect.fnUntraced(function*(payload: unknown) {
        const job = yield* decodeClose(payload)
        const found = yield* store.schedule(job.environment, job.shopId)
        if (Option.isNone(found) || found.value.version !== job.version) return
        // The next close first: a chain broken by a failing close would stop the shop's payouts.
        yield* enqueueNext(found.value, yield* DateTime.now)
        if (!found.value.keepReserve) yield* releaseReserves(found.value)
        // A destination the payer has not approved keeps the batch open: nothing moves, nothing
        // is sent. One it could not ask about closes; its send asks again and waits if need be.
        const state = yield* destinationState(found.value)
        yield* close(found.value, state !== null && (state.status === "pending" || state.status === "denied") ? state : undefined)
      }))

      yield* jobs.handle(JobKinds.statement, Effect.fnUntraced(function*(payload: unknown) {
        const { settlementId } = yield* decodeBatch(payload)
        const found = yield* store.findById(settlementId)
        if (Option.isNone(found) || found.value.status === "open" || found.value.statementReadyAt !== null) return
        const b = found.value
        // Built and checked once here, so that the event only announces a statement that renders.
        yield* statementOf(b)
        // The payout may move the batch meanwhile: read again and retry at once on a conflict.
        yield* tx.run(Effect.gen(function*() {
          const current = yield* store.findById(b.id)
          if (Option.isNone(current) || current.value.statementReadyAt !== null) return
          const now = yield* DateTime.now
          if (!(yield* store.update({ ...current.value, statementReadyAt: now, updatedAt: now, version: current.value.version + 1 }))) {
            return yield* new Conflict()
          }
          const paths = statementPaths(b.id)
          yield* events.emit({
            environment: b.environment,
            merchantId: b.merchantId,
            shopId: b.shopId,
            type: "settlement.pdf_ready",
            data: { settlementId: b.id, pdfUrl: paths.pdf, csvUrl: paths.csv, lineCount: b.lineCount, net: Money.toJsonNumber(Money.round(b.summary!.net, "USD")) },
            relatedTxId: null,
            relatedId: b.id
          })
        })).pipe(retryOnConflict("settlement", 5))
      }))

      const statementOf = Effect.fnUntraced(function*(b: SettlementBatch) {
        const merchant = yield* tenancy.findMerchant(b.merchantId)
        const shop = yield* tenancy.findShop(b.shopId)
        const lines = yield* store.lines(b.id)
        const statement: Statement = {
          merchant: { id: b.merchantId, name: Option.match(merchant, { onNone: () => b.merchantId, onSome: (m) => m.name }) },
          shop: { id: b.shopId, name: Option.match(shop, { onNone: () => b.shopId, onSome: (s) => s.name }) },
          batch: {
            id: b.id,
            periodStart: b.periodStart,
            periodEnd: b.periodEnd,
            closedAt: b.closedAt ?? b.periodEnd,
            status: b.status === "open" ? "closed" : b.status,
            destination: b.destination.kind === "usdc"
              ? b.destination
              : { kind: "bank", label: `${b.destination.bankName} ${maskedAccount(b.destination.accountNumber)} (${b.destination.accountHolder})` },
            payoutReference: b.transactionHash ?? b.providerRef
          },
          summary: b.summary!,
          lines
        }
        const checked = check(statement)
        // Lines that do not add up to the net are a bug in the close, never the merchant's input.
        if (checked._tag === "Failure") return yield* Effect.die(checked.failure)
        return checked.success
      })

      const get = Effect.fn("Settlements.get")(function*(account: ShopAccount, id: string) {
        const found = yield* store.find(account.environment, account.shopId, id)
        if (Option.isNone(found)) return yield* notFound("settlement", id)
        return found.value
      })

      const setSchedule = Effect.fn("Settlements.setSchedule")(function*(account: ShopAccount, input: ScheduleInput) {
        const issues = validate(input)
        if (issues.length > 0) return yield* invalidRequest(`Invalid settlement schedule: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues)
        const current = yield* store.schedule(account.environment, account.shopId)
        const draft: SettlementSchedule = {
          environment: account.environment,
          shopId: account.shopId,
          frequency: input.frequency,
          weekday: input.frequency === "weekly" ? input.weekday ?? null : null,
          time: input.time,
          timeZone: input.timeZone ?? "UTC",
          destination: destinationOf(input.destination),
          minimumUsd: input.minimumUsd ?? Money.zero,
          keepReserve: input.keepReserve ?? true,
          updatedAt: yield* clocks.now(account.environment, account.shopId),
          version: Option.match(current, { onNone: () => 1, onSome: (s) => s.version + 1 })
        }
        if (payerOf(providers, draft) === null) {
          const chains = [...(account.environment === "sandbox" ? [sandboxChain] : []), ...providers.chains(account.environment)]
          const chain = draft.destination.kind === "usdc" ? draft.destination.chain : ""
          return yield* apiError("settlement_destination_unavailable", `No settlement payout provider pays on ${chain} in ${account.environment}`, {
            chain,
            chains
          })
        }
        // Where the payer pays only to approved destinations, the destination is entered with it
        // now (its administrator then approves it); one it refuses outright is not saved.
        const approver = approverOf(draft)
        const approval = approver === undefined ? null : yield* approver.ask.pipe(
          Effect.map((a): DestinationState => ({ provider: approver.provider, ...a })),
          Effect.catchTag("SettlementPayoutUnavailable", (e) =>
            Effect.succeed<DestinationState>({ provider: approver.provider, status: "unknown", reference: null, detail: e.reason })),
          Effect.catchTag("SettlementPayoutRejected", (e) =>
            Effect.fail(apiError("settlement_destination_refused", `${approver.provider} refused the destination: ${e.reason}`, {
              provider: approver.provider,
              reason: e.reason
            })))
        )
        const recorded = audit.record({
          environment: account.environment,
          merchantId: account.merchantId,
          object: { type: "settlement_schedule", id: account.shopId },
          changes: {
            set: {
              frequency: draft.frequency,
              weekday: draft.weekday,
              time: draft.time,
              timeZone: draft.timeZone,
              destination: draft.destination,
              minimumUsd: Money.toText(draft.minimumUsd),
              keepReserve: draft.keepReserve
            },
            version: draft.version
          }
        })
        yield* clocks.within(account.environment, account.shopId, tx.run(Effect.andThen(install(account, draft), recorded)))
        return { schedule: draft, nextCloseAt: nextCloseOf(draft, draft.updatedAt), approval }
      })

      return Settlements.of({
        schedule: Effect.fn("Settlements.schedule")(function*(account: ShopAccount) {
          const found = yield* store.schedule(account.environment, account.shopId)
          if (Option.isNone(found)) return Option.none()
          const now = yield* clocks.now(account.environment, account.shopId)
          return Option.some({ schedule: found.value, nextCloseAt: nextCloseOf(found.value, now) })
        }),
        setSchedule,
        destinationState,
        startSandboxDefault: (account) =>
          clocks.within("sandbox", account.shopId, Effect.flatMap(DateTime.now, (now) => install(account, sandboxDefault(account.shopId, now)))),
        list: (account, page) => store.list(account.environment, account.shopId, page),
        get,
        statement: Effect.fn("Settlements.statement")(function*(account: ShopAccount, id: string) {
          const b = yield* get(account, id)
          if (b.status === "open") {
            return yield* apiError("settlement_open", `Settlement ${b.id} is still open: it closes at ${DateTime.formatIso(b.periodEnd)}`, {
              settlementId: b.id,
              closesAt: DateTime.formatIso(b.periodEnd)
            })
          }
          return yield* statementOf(b)
        }),
        crypto: cryptoOf,
        callback
      })
    })
  )
}
