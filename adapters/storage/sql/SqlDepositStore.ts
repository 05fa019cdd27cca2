/** SQL implementation of the deposit-account port; uniqueness lives in the indexes. */
import { Array as Arr, BigDecimal, DateTime, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { DepositAccount, DepositRecord, DepositStats } from "../../../core/deposits/Deposit.ts"
import type { Environment } from "../../../core/Environment.ts"
import * as Money from "../../../core/Money.ts"
import { DepositStore } from "../../../core/ports/DepositStore.ts"
import { date, utc } from "./Rows.ts"


interface AccountRow extends Omit<DepositAccount, "createdAt" | "updatedAt"> {
  readonly createdAt: Date
  readonly updatedAt: Date
}
interface DepositRow extends Omit<DepositRecord, "amount" | "amountUsd" | "receivedAt"> {
  readonly amount: string
  readonly amountUsd: string | null
  readonly receivedAt: Date
}

const toAccount = (r: AccountRow): DepositAccount => ({ ...r, createdAt: utc(r.createdAt), updatedAt: utc(r.updatedAt) })
const toDeposit = (r: DepositRow): DepositRecord => ({
  ...r,
  amount: Money.decimal(r.amount),
  amountUsd: r.amountUsd === null ? null : Money.decimal(r.amountUsd),
  receivedAt: utc(r.receivedAt)
})

export const SqlDepositStore = Layer.effect(
  DepositStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const oneAccount = (rows: ReadonlyArray<AccountRow>) => Option.map(Arr.head(rows), toAccount)
    const findAccountByRef = (environment: Environment, shopId: string, endUserRef: string) =>
      sql<AccountRow>`SELECT * FROM deposit_accounts WHERE environment = ${environment} AND shop_id = ${shopId} AND end_user_ref = ${endUserRef}`
        .pipe(Effect.map(oneAccount), Effect.orDie)
    return DepositStore.of({
      settings: (environment, shopId) =>
        sql<{ readonly environment: Environment; readonly shopId: string; readonly depositMethodIds: ReadonlyArray<string>; readonly requirePhone: boolean }>`
          SELECT * FROM deposit_settings WHERE environment = ${environment} AND shop_id = ${shopId}`.pipe(
          Effect.map(Arr.head),
          Effect.orDie
        ),
      putSettings: (s) =>
        sql`INSERT INTO deposit_settings (environment, shop_id, deposit_method_ids, require_phone)
            VALUES (${s.environment}, ${s.shopId}, ${JSON.stringify(s.depositMethodIds)}, ${s.requirePhone})
            ON CONFLICT (environment, shop_id) DO UPDATE SET deposit_method_ids = EXCLUDED.deposit_method_ids, require_phone = EXCLUDED.require_phone`
          .pipe(Effect.asVoid, Effect.orDie),
      insertAccount: (a) =>
        Effect.gen(function*() {
          const inserted = yield* sql<{ readonly id: string }>`
            INSERT INTO deposit_accounts ${
            sql.insert({ ...a, metadata: JSON.stringify(a.metadata), createdAt: date(a.createdAt), updatedAt: date(a.updatedAt) })
          }
            ON CONFLICT (environment, shop_id, end_user_ref) DO NOTHING RETURNING id`.pipe(
            Effect.map((rows) => rows.length === 1),
            Effect.catchIf(
              (e) => (e.reason as { _tag?: string })._tag === "UniqueViolation",
              () => Effect.succeed("clabe" as const)
            )
          )
          if (inserted === "clabe") return { _tag: "ClabeTaken" as const }
          if (inserted) return { _tag: "Created" as const, account: a }
          const existing = yield* findAccountByRef(a.environment, a.shopId, a.endUserRef)
          return { _tag: "Existing" as const, account: Option.getOrThrow(existing) }
        }).pipe(Effect.catchTag("SqlError", Effect.die)),
      findAccountByRef,
      findAccount: (environment, shopId, id) =>
        sql<AccountRow>`SELECT * FROM deposit_accounts WHERE id = ${id} AND environment = ${environment} AND shop_id = ${shopId}`.pipe(
          Effect.map(oneAccount),
          Effect.orDie
        ),
      findAccountById: (id) => sql<AccountRow>`SELECT * FROM deposit_accounts WHERE id = ${id}`.pipe(Effect.map(oneAccount), Effect.orDie),
      findAccountByClabe: (clabe) => sql<AccountRow>`SELECT * FROM deposit_accounts WHERE clabe = ${clabe}`.pipe(Effect.map(oneAccount), Effect.orDie),
      setAccountStatus: (id, status, at) =>
        sql<{ readonly id: string }>`UPDATE deposit_accounts SET status = ${status}, updated_at = ${date(at)} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        ),
      listAccounts: (environment, shopId, filter, { limit, offset }) => {
        const where = sql.and([
          sql`environment = ${environment}`,
          sql`shop_id = ${shopId}`,
          ...(filter.endUserRef === undefined ? [] : [sql`end_user_ref = ${filter.endUserRef}`])
        ])
        return Effect.all({
          rows: sql<AccountRow>`SELECT * FROM deposit_accounts WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
            .pipe(Effect.map((rows) => rows.map(toAccount))),
          total: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM deposit_accounts WHERE ${where}`.pipe(Effect.map((r) => r[0]?.n ?? 0))
        }).pipe(Effect.orDie)
      },
      insertDeposit: (d) =>
        Effect.gen(function*() {
          const inserted = yield* sql<{ readonly id: string }>`
            INSERT INTO deposits ${
            sql.insert({
              ...d,
              amount: Money.toText(d.amount),
              amountUsd: d.amountUsd === null ? null : Money.toText(d.amountUsd),
              receivedAt: date(d.receivedAt)
            })
          }
            ON CONFLICT (deposit_method_id, tracking_key) DO NOTHING RETURNING id`
          if (inserted.length === 1) return { created: true, deposit: d }
          const existing = yield* sql<DepositRow>`
            SELECT * FROM deposits WHERE deposit_method_id = ${d.depositMethodId} AND tracking_key = ${d.trackingKey}`
          return { created: false, deposit: toDeposit(existing[0]!) }
        }).pipe(Effect.orDie),
      setDepositTransaction: (id, transactionId, amountUsd) =>
        sql`UPDATE deposits SET transaction_id = ${transactionId}, amount_usd = ${Money.toText(amountUsd)} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      listDeposits: (accountId, { limit, offset }) =>
        Effect.all({
          rows: sql<DepositRow>`SELECT * FROM deposits WHERE account_id = ${accountId} ORDER BY received_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
            .pipe(Effect.map((rows) => rows.map(toDeposit))),
          total: sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM deposits WHERE account_id = ${accountId}`.pipe(Effect.map((r) => r[0]?.n ?? 0))
        }).pipe(Effect.orDie),
      depositSummary: (accountIds) =>
        Effect.gen(function*() {
          const out = new Map<string, DepositStats>()
          if (accountIds.length === 0) return out
          const rows = yield* sql<{
            readonly accountId: string
            readonly currency: string | null
            readonly deposits: number
            readonly credited: number
            readonly localTotal: string | null
            readonly totalUsd: string | null
            readonly lastDepositAt: Date | null
          }>`
            SELECT account_id, currency, count(*)::int AS deposits,
                   count(*) FILTER (WHERE status = 'credited')::int AS credited,
                   (sum(amount) FILTER (WHERE status = 'credited'))::text AS local_total,
                   (sum(amount_usd) FILTER (WHERE status = 'credited'))::text AS total_usd,
                   max(received_at) AS last_deposit_at
            FROM deposits WHERE ${sql.in("account_id", accountIds)} GROUP BY account_id, currency`
          for (const id of accountIds) {
            const mine = rows.filter((r) => r.accountId === id)
            out.set(id, {
              deposits: mine.reduce((n, r) => n + r.deposits, 0),
              credited: mine.reduce((n, r) => n + r.credited, 0),
              totalUsd: mine.reduce((s, r) => BigDecimal.sum(s, Money.decimal(r.totalUsd ?? "0")), Money.zero),
              localTotals: mine.filter((r) => r.localTotal !== null).map((r) => ({ currency: r.currency!, amount: Money.decimal(r.localTotal!) })),
              lastDepositAt: mine.reduce<DateTime.Utc | null>((last, r) => {
                if (r.lastDepositAt === null) return last
                const t = utc(r.lastDepositAt)
                return last === null || DateTime.isGreaterThan(t, last) ? t : last
              }, null)
            })
          }
          return out
        }).pipe(Effect.orDie)
    })
  })
)
