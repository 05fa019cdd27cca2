import { type BigDecimal, Context, type DateTime, type Effect, type Option } from "effect"
import type { DepositAccount, DepositRecord, DepositSettings, DepositStats } from "../deposits/Deposit.ts"
import type { Environment } from "../Environment.ts"

export class DepositStore extends Context.Service<DepositStore, {
  readonly settings: (environment: Environment, shopId: string) => Effect.Effect<Option.Option<DepositSettings>>
  readonly putSettings: (settings: DepositSettings) => Effect.Effect<void>

  /**
   * Inserts the account unless the shop already has one for its `endUserRef` (a unique index, not
   * a check-then-insert) or its CLABE is taken; answers what is stored for that user, and whether
   * this call created it. `clabeTaken` asks the caller to mint another CLABE.
   */
  readonly insertAccount: (account: DepositAccount) => Effect.Effect<
    { readonly _tag: "Created" | "Existing"; readonly account: DepositAccount } | { readonly _tag: "ClabeTaken" }
  >
  readonly findAccountByRef: (environment: Environment, shopId: string, endUserRef: string) => Effect.Effect<Option.Option<DepositAccount>>
  readonly findAccount: (environment: Environment, shopId: string, id: string) => Effect.Effect<Option.Option<DepositAccount>>
  readonly findAccountById: (id: string) => Effect.Effect<Option.Option<DepositAccount>>
  readonly findAccountByClabe: (clabe: string) => Effect.Effect<Option.Option<DepositAccount>>
  readonly setAccountStatus: (id: string, status: DepositAccount["status"], at: DateTime.Utc) => Effect.Effect<boolean>
  /** Newest first. */
  readonly listAccounts: (
    environment: Environment,
    shopId: string,
    filter: { readonly endUserRef?: string | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<DepositAccount>; readonly total: number }>

  /** Records a transfer once per (method, tracking key); answers the stored record and whether it is new. */
  readonly insertDeposit: (deposit: DepositRecord) => Effect.Effect<{ readonly created: boolean; readonly deposit: DepositRecord }>
  readonly setDepositTransaction: (id: string, transactionId: string, amountUsd: BigDecimal.BigDecimal) => Effect.Effect<void>
  /** Newest first. */
  readonly listDeposits: (
    accountId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<DepositRecord>; readonly total: number }>
  /** Per account: counts, totals and the last deposit. */
  readonly depositSummary: (accountIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, DepositStats>>
}>()("core/ports/DepositStore") {}
