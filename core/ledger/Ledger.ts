import { BigDecimal, Context, DateTime, Effect, Layer } from "effect"
import type { Environment } from "../Environment.ts"
import * as Metrics from "../Metrics.ts"
import { Ids } from "../Ids.ts"
import { type GuardViolation, LedgerStore } from "../ports/LedgerStore.ts"
import type { JournalEntry, Posting } from "./Journal.ts"

/** Sums the postings per currency; an entry balances when every sum is zero. */
export const imbalance = (entry: Pick<JournalEntry, "postings">): ReadonlyArray<readonly [string, BigDecimal.BigDecimal]> => {
  const sums = new Map<string, BigDecimal.BigDecimal>()
  for (const p of entry.postings) sums.set(p.currency, BigDecimal.sum(sums.get(p.currency) ?? BigDecimal.fromBigInt(0n), p.amount))
  return [...sums].filter(([, sum]) => !BigDecimal.isZero(sum))
}

export class Ledger extends Context.Service<Ledger, {
  /**
   * Posts a balanced entry (an unbalanced one is a bug: it dies). Zero postings are dropped.
   * Fails with `GuardViolation` when a guarded book would go negative; nothing is written then.
   */
  readonly post: (entry: JournalEntry) => Effect.Effect<void, GuardViolation>
  /** `post` with a fresh journal id and the current time; answers the journal id. */
  readonly record: (
    account: { readonly environment: Environment; readonly shopId: string },
    kind: string,
    reference: string,
    postings: ReadonlyArray<Posting>
  ) => Effect.Effect<string, GuardViolation>
}>()("core/ledger/Ledger") {
  static readonly layer = Layer.effect(
    Ledger,
    Effect.gen(function*() {
      const store = yield* LedgerStore
      const ids = yield* Ids
      const post = Effect.fn("Ledger.post")(function*(entry: JournalEntry) {
        const unbalanced = imbalance(entry)
        if (unbalanced.length > 0) {
          return yield* Effect.die(new Error(`unbalanced journal entry ${entry.kind} ${entry.reference}: ${
            unbalanced.map(([c, s]) => `${c} ${BigDecimal.format(s)}`).join(", ")
          }`))
        }
        const postings = entry.postings.filter((p) => !BigDecimal.isZero(p.amount))
        if (postings.length === 0) return
        yield* store.append({ ...entry, postings })
        yield* Metrics.count(Metrics.ledgerEntries, { kind: entry.kind })
      })
      const record = Effect.fnUntraced(function*(
        account: { readonly environment: Environment; readonly shopId: string },
        kind: string,
        reference: string,
        postings: ReadonlyArray<Posting>
      ) {
        const id = yield* ids.next("journal")
        yield* post({ id, environment: account.environment, shopId: account.shopId, kind, reference, createdAt: yield* DateTime.now, postings })
        return id
      })
      return Ledger.of({ post, record })
    })
  )
}
