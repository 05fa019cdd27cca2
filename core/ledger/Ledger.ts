import { BigDecimal, Context, DateTime, Effect, Layer, Result } from "effect"
import type { Environment } from "../Environment.ts"
import * as Metrics from "../Metrics.ts"
import { Ids } from "../Ids.ts"
import { type GuardViolation, LedgerStore } from "../ports/LedgerStore.ts"
import { type BalancedEntry, entry, type JournalEntry, type Transfer } from "./Journal.ts"

/**
 * Sums the postings per currency; an entry balances when every sum is zero. Every entry made by
 * `Journal.entry` does: this checks what a store gives back (the property tests, the simulation).
 */
export const imbalance = (entry: Pick<JournalEntry, "postings">): ReadonlyArray<readonly [string, BigDecimal.BigDecimal]> => {
  const sums = new Map<string, BigDecimal.BigDecimal>()
  for (const p of entry.postings) sums.set(p.currency, BigDecimal.sum(sums.get(p.currency) ?? BigDecimal.fromBigInt(0n), p.amount))
  return [...sums].filter(([, sum]) => !BigDecimal.isZero(sum))
}

export class Ledger extends Context.Service<Ledger, {
  /**
   * Writes an entry (balanced: `Journal.entry` made it); one without postings writes nothing.
   * Fails with `GuardViolation` when a guarded book would go negative; nothing is written then.
   */
  readonly post: (entry: BalancedEntry) => Effect.Effect<void, GuardViolation>
  /**
   * The entry of these transfers, with a fresh journal id and the current time, posted; answers
   * the journal id. A negative transfer is a bug of the caller: it dies, and nothing is written.
   */
  readonly record: (
    account: { readonly environment: Environment; readonly shopId: string },
    kind: string,
    reference: string,
    transfers: ReadonlyArray<Transfer>
  ) => Effect.Effect<string, GuardViolation>
}>()("core/ledger/Ledger") {
  static readonly layer = Layer.effect(
    Ledger,
    Effect.gen(function*() {
      const store = yield* LedgerStore
      const ids = yield* Ids
      const post = Effect.fn("Ledger.post")(function*(entry: BalancedEntry) {
        if (entry.postings.length === 0) return
        yield* store.append(entry)
        yield* Metrics.count(Metrics.ledgerEntries, { kind: entry.kind })
      })
      const record = Effect.fnUntraced(function*(
        account: { readonly environment: Environment; readonly shopId: string },
        kind: string,
        reference: string,
        transfers: ReadonlyArray<Transfer>
      ) {
        const id = yield* ids.next("journal")
        const made = entry({ id, environment: account.environment, shopId: account.shopId, kind, reference, createdAt: yield* DateTime.now }, transfers)
        if (Result.isFailure(made)) return yield* Effect.die(made.failure)
        yield* post(made.success)
        return id
      })
      return Ledger.of({ post, record })
    })
  )
}
