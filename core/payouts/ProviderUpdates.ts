/**
 * A payout provider's word about a payout: its signed callback
 * (`POST /api/v1/providers/{id}/payout-callbacks`) and the status poll for payouts still
 * `processing` (every 5 minutes for 24 hours, in case a callback was lost). Completion sends the
 * money out; failure reverses the debit (`payout_available` gets it back); both emit their event,
 * in the transaction of the status change. Only the provider that holds the payout may speak
 * about it; a repeated word changes nothing.
 */
import { DateTime, Effect, Option, Result, Schema } from "effect"
import { apiError, type ApiErrorOf, notFound } from "../ApiError.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { type PayoutUpdate, PayoutProviders } from "../ports/PayoutProvider.ts"
import { PayoutStore } from "../ports/PayoutStore.ts"
import { Conflict, retryOnConflict, Transactions } from "../ports/Transactions.ts"
import { type Payout, type PayoutStatus, transitionPayout } from "./Payout.ts"

/** What a provider's callback can fail with: an unknown provider, or a signature that does not verify. */
export type CallbackCode = "not_found" | "authentication_failed"

export const PollKind = "payout.poll"
/** How often, and how many times, a processing payout is asked about. */
export const pollEveryMinutes = 5
export const pollRounds = 288

export const makeProviderUpdates = Effect.fnUntraced(function*(deps: {
  readonly move: (payout: Payout, status: PayoutStatus, failureReason: string | null) => Effect.Effect<Payout, Conflict>
}) {
  const store = yield* PayoutStore
  const providers = yield* PayoutProviders
  const jobs = yield* Jobs
  const tx = yield* Transactions

  /** Applies a provider's word to a payout; answers the payout as it is afterwards. */
  const applyUpdate = (payoutId: string, update: PayoutUpdate) =>
    tx.run(Effect.gen(function*() {
      const found = yield* store.findById(payoutId)
      if (Option.isNone(found)) return Option.none<Payout>()
      let payout = found.value
      if (payout.providerRef === null && payout.status === "processing") {
        // The provider's first word about a payout whose answer was lost: its reference is
        // learnt here (the callback is verified and names our payout id).
        payout = { ...payout, providerRef: update.providerRef, version: payout.version + 1 }
        if (!(yield* store.update(payout))) return yield* new Conflict()
        if (update.status === "processing") yield* schedulePoll(payout.id, 1)
      }
      const next = transitionPayout(payout.status, update.status)
      if (Result.isFailure(next) || next.success === payout.status) return Option.some(payout)
      return Option.some(yield* deps.move(payout, next.success, update.detail ?? `${update.status} by ${payout.provider}`))
    })).pipe(
      retryOnConflict(`payout ${payoutId}`, 5)
    )

  const handleCallback = Effect.fn("Payouts.handleCallback")(function*(
    providerId: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: string
  ): Effect.fn.Return<number, ApiErrorOf<CallbackCode>> {
    const provider = providers.byId(providerId)
    if (provider === undefined) return yield* notFound("payout provider", providerId)
    const updates = yield* provider.verifyCallback(headers, rawBody).pipe(
      Effect.mapError((e) => apiError("authentication_failed", `Callback rejected: ${e.reason}`))
    )
    let applied = 0
    for (const update of updates) {
      if (update.payoutId === undefined) continue
      const found = yield* store.findById(update.payoutId)
      const known = found.pipe(Option.filter((p) => p.provider === providerId && (p.providerRef ?? update.providerRef) === update.providerRef))
      if (Option.isNone(known)) continue
      yield* applyUpdate(update.payoutId, update)
      applied++
    }
    return applied
  })

  /** Schedules round `round` of the poll of a payout that is processing with a provider. */
  const schedulePoll = (payoutId: string, round: number) =>
    Effect.flatMap(DateTime.now, (now) =>
      jobs.enqueue(PollKind, { payoutId, round }, {
        runAt: DateTime.add(now, { minutes: pollEveryMinutes }),
        dedupeKey: `${PollKind}:${payoutId}:${round}`
      }))

  yield* jobs.handle(PollKind, Effect.fnUntraced(function*(payload: unknown) {
    const { payoutId, round } = yield* Schema.decodeUnknownEffect(Schema.Struct({ payoutId: Schema.String, round: Schema.Int }))(payload)
    const found = yield* store.findById(payoutId)
    if (Option.isNone(found) || found.value.status !== "processing" || found.value.providerRef === null) return
    const payout = found.value
    const provider = providers.byId(payout.provider)
    if (provider === undefined) return
    const answer = yield* provider.status(payout.providerRef!, payout.id).pipe(Effect.option)
    const after = Option.isSome(answer) ? yield* applyUpdate(payout.id, answer.value) : Option.some(payout)
    if (Option.isSome(after) && after.value.status === "processing" && round < pollRounds) yield* schedulePoll(payout.id, round + 1)
  }))

  return { applyUpdate, handleCallback, schedulePoll }
})
