/** Fixed deposit accounts (CLABE) and the transfers they receive (spec 2.13, 3.5, 4.10). */
import type { BigDecimal, DateTime } from "effect"
import type { Environment } from "../Environment.ts"

/**
 * A deposit method: a receiving institution's range of CLABEs. `bankCode` and `branchCode` fix
 * the first six digits of every account minted under it.
 */
export interface DepositMethod {
  readonly depositMethodId: string
  readonly method: string
  readonly name: string
  /** ISO-2. */
  readonly country: string
  readonly currency: string
  readonly bankCode: string
  readonly branchCode: string
}

/** The receiving institutions shipped with the engine (Mexico, SPEI). */
export const depositMethods: ReadonlyArray<DepositMethod> = [
  { depositMethodId: "mx_spei_stp", method: "spei", name: "SPEI (STP)", country: "MX", currency: "MXN", bankCode: "646", branchCode: "180" },
  { depositMethodId: "mx_spei_arcus", method: "spei", name: "SPEI (Arcus)", country: "MX", currency: "MXN", bankCode: "706", branchCode: "180" }
]

export const findDepositMethod = (id: string) => depositMethods.find((m) => m.depositMethodId === id)

/** What the admin API configures per shop and environment. */
export interface DepositSettings {
  readonly environment: Environment
  readonly shopId: string
  readonly depositMethodIds: ReadonlyArray<string>
  /** Creating an account requires the end user's phone on this shop. */
  readonly requirePhone: boolean
}

export interface DepositAccount {
  readonly id: string
  readonly environment: Environment
  readonly merchantId: string
  readonly shopId: string
  readonly endUserRef: string
  readonly depositMethodId: string
  readonly clabe: string
  /** Only when the network states the institution; never inferred from the CLABE prefix. */
  readonly bank: string | null
  readonly currency: string
  readonly country: string
  readonly methodName: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly documentType: string | null
  readonly documentId: string | null
  readonly customerCountry: string | null
  readonly metadata: Readonly<Record<string, string>>
  readonly status: "active" | "disabled"
  readonly createdAt: DateTime.Utc
  readonly updatedAt: DateTime.Utc
}

export interface DepositRecord {
  readonly id: string
  readonly environment: Environment
  readonly shopId: string
  readonly accountId: string
  readonly depositMethodId: string
  /** The network's unique reference of the transfer (SPEI clave de rastreo). */
  readonly trackingKey: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly payerName: string
  readonly payerBank: string | null
  readonly payerAccount: string | null
  /** `credited` became a pay-in; `rejected` was received on a disabled account and not credited. */
  readonly status: "credited" | "rejected"
  readonly rejectionReason: string | null
  readonly transactionId: string | null
  /** The USD headline of the pay-in it became. */
  readonly amountUsd: BigDecimal.BigDecimal | null
  readonly receivedAt: DateTime.Utc
}

export interface DepositStats {
  readonly deposits: number
  readonly credited: number
  readonly totalUsd: BigDecimal.BigDecimal
  readonly localTotals: ReadonlyArray<{ readonly currency: string; readonly amount: BigDecimal.BigDecimal }>
  readonly lastDepositAt: DateTime.Utc | null
}
