/**
 * Fixed deposit accounts (spec 2.13, 3.5, 4.10): get-or-create one CLABE per end user and shop,
 * and credit the transfers they receive as ordinary completed pay-ins.
 *
 * - Get-or-create is keyed by `endUserRef`: the store's unique index decides concurrent creates,
 *   so 50 simultaneous calls yield one account. An existing account is returned (`created: false`)
 *   even without the fields a creation needs.
 * - CLABEs are minted in the deposit method's bank/branch range with a valid check digit; a
 *   collision (unique index) mints another.
 * - A transfer is recorded once per (method, tracking key): a repeated notification credits
 *   nothing more. On a disabled account it is recorded as `rejected` and not credited. Otherwise it
 *   becomes a completed pay-in (its `userEmail` is the account holder's), with the ledger entries
 *   and `payment.completed`, plus `deposit.credited`, all in one transaction.
 * - Only support staff (admin API) change an account's status.
 */
import { BigDecimal, Context, DateTime, Effect, Layer, Option, Random, Redacted } from "effect"
import { Mac } from "effect/crypto"
import { apiError, type ApiErrorOf, invalidRequest, notFound } from "../ApiError.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { ShopClocks } from "../clock/ShopClocks.ts"
import * as Country from "../Country.ts"
import { EngineConfig, isDevelopmentSecret } from "../EngineConfig.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import * as Money from "../Money.ts"
import { DepositStore } from "../ports/DepositStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import { Audit } from "../audit/Audit.ts"
import { type BuyerText, revealed } from "../payments/BuyerData.ts"
import { Payments } from "../payments/Payments.ts"
import { verifySignature } from "../Signatures.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import { Events } from "../webhooks/Events.ts"
import { makeClabe } from "./Clabe.ts"
import {
  type DepositAccount,
  type DepositMethod,
  depositMethods as shippedMethods,
  type DepositRecord,
  type DepositSettings,
  type DepositStats,
  findDepositMethod
} from "./Deposit.ts"

/** An account to create; the end user's data `Redacted` as the API decoded it, revealed only into the stored account. */
export interface CreateAccount {
  readonly endUserRef: string
  readonly name: BuyerText
  readonly email?: BuyerText | undefined
  readonly phone?: BuyerText | undefined
  readonly documentType?: string | undefined
  readonly documentId?: BuyerText | undefined
  readonly country?: string | undefined
  readonly metadata?: Readonly<Record<string, string>> | undefined
  readonly depositMethodId?: string | undefined
}

export interface IncomingTransfer {
  readonly depositMethodId: string
  readonly clabe: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly trackingKey: string
  readonly payerName: string
  readonly payerBank?: string | undefined
  readonly payerAccount?: string | undefined
}

type ShopRef = Pick<ShopScope, "environment" | "shop">

export interface Received {
  /** False for a repeated notification of a transfer already recorded. */
  readonly created: boolean
  readonly deposit: DepositRecord
  readonly account: DepositAccount
}

/** What crediting a transfer to its account can fail with: its amount, or pricing the payment it records. */
export type CreditCode = "invalid_request" | "amount_out_of_limits" | "fx_unavailable"

export class Deposits extends Context.Service<Deposits, {
  readonly methods: (scope: ShopRef) => Effect.Effect<ReadonlyArray<DepositMethod>>
  readonly getOrCreate: (scope: ShopScope, input: CreateAccount) => Effect.Effect<
    { readonly created: boolean; readonly account: DepositAccount },
    ApiErrorOf<"invalid_request" | "deposit_accounts_unavailable" | "deposit_method_required" | "deposit_method_unavailable">
  >
  readonly get: (scope: ShopRef, id: string) => Effect.Effect<DepositAccount, ApiErrorOf<"not_found">>
  readonly list: (
    scope: ShopRef,
    filter: { readonly endUserRef?: string | undefined },
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<DepositAccount>; readonly total: number }>
  readonly stats: (accountIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, DepositStats>>
  readonly deposits: (scope: ShopRef, id: string, page: { readonly limit: number; readonly offset: number }) => Effect.Effect<{
    readonly account: DepositAccount
    readonly rows: ReadonlyArray<DepositRecord>
    readonly total: number
  }, ApiErrorOf<"not_found">>
  /** A transfer the network reports (already verified). */
  readonly receive: (transfer: IncomingTransfer) => Effect.Effect<Received, ApiErrorOf<"not_found" | "authentication_failed" | CreditCode>>
  /** The network's signed notification: HMAC-SHA256 `t=...,v1=...` of the raw body (401 otherwise). */
  readonly verifyNotification: (header: string | undefined, rawBody: string) => Effect.Effect<void, ApiErrorOf<"authentication_failed">>
  /** Sandbox: a transfer to the account, as if the network had reported it. */
  readonly simulate: (
    scope: ShopRef,
    id: string,
    input: { readonly amount: BigDecimal.BigDecimal; readonly payerName?: string | undefined; readonly trackingKey?: string | undefined }
  ) => Effect.Effect<Received, ApiErrorOf<"simulate_sandbox_only" | "not_found" | CreditCode>>
  readonly configure: (settings: DepositSettings) => Effect.Effect<DepositSettings, ApiErrorOf<"invalid_request" | "not_found">>
  readonly settings: (environment: Environment, shopId: string) => Effect.Effect<DepositSettings>
  readonly setStatus: (id: string, status: DepositAccount["status"]) => Effect.Effect<DepositAccount, ApiErrorOf<"not_found">>
}>()("core/deposits/Deposits") {
  static readonly layer = Layer.effect(
    Deposits,
    Effect.gen(function*() {
      const store = yield* DepositStore
      const tenancy = yield* TenancyStore
      const payments = yield* Payments
      const catalog = yield* Catalog
      const events = yield* Events
      const ids = yield* Ids
      const tx = yield* Transactions
      const audit = yield* Audit
      const clocks = yield* ShopClocks
      const config = yield* EngineConfig
      const mac = yield* Mac.Mac

      // Until an operator chooses, a sandbox shop can open Mexican deposit accounts (so a merchant
      // tries the capability with the keys it was given); production needs the operator.
      const settings = (environment: Environment, shopId: string) =>
        Effect.map(store.settings(environment, shopId), Option.getOrElse((): DepositSettings => ({
          environment,
          shopId,
          depositMethodIds: environment === "sandbox" ? sandboxDefaultDepositMethodIds : [],
          requirePhone: false
        })))

      const methods = (scope: ShopRef) =>
        Effect.map(settings(scope.environment, scope.shop.id), (s) => shippedMethods.filter((m) => s.depositMethodIds.includes(m.depositMethodId)))

      const mint = (method: DepositMethod) =>
        Effect.map(
          Effect.forEach(Array.from({ length: 11 }), () => Effect.map(Random.next, (x) => Math.min(9, Math.floor(x * 10)))),
          (digits) => makeClabe(method.bankCode, method.branchCode, digits.join(""))
        )

      const getOrCreate = Effect.fn("Deposits.getOrCreate")(function*(scope: ShopScope, input: CreateAccount) {
        const shopSettings = yield* settings(scope.environment, scope.shop.id)
        const enabled = shippedMethods.filter((m) => shopSettings.depositMethodIds.includes(m.depositMethodId))
        if (enabled.length === 0) {
          return yield* apiError("deposit_accounts_unavailable", "Deposit accounts are not enabled for this shop", {})
        }
        const existing = yield* store.findAccountByRef(scope.environment, scope.shop.id, input.endUserRef)
        if (Option.isSome(existing)) return { created: false, account: existing.value }

        const required = [
          ...(input.email === undefined ? ["email"] : []),
          ...(shopSettings.requirePhone && input.phone === undefined ? ["phone"] : [])
        ]
        if (required.length > 0) {
          return yield* apiError("invalid_request", `Creating a deposit account needs ${required.join(" and ")}`, {
            required,
            missingFields: required,
            issues: required.map((path) => ({ path, message: "Missing key" }))
          })
        }
        // Checked here, kept as the buyer wrote it (upper-cased) for the account's customer.
        yield* Country.requestedCountry(input.country)
        const country = input.country === undefined ? null : input.country.trim().toUpperCase()
        const listed = enabled.map((m) => ({ depositMethodId: m.depositMethodId, name: m.name }))
        let method: DepositMethod
        if (input.depositMethodId !== undefined) {
          const chosen = enabled.find((m) => m.depositMethodId === input.depositMethodId)
          if (chosen === undefined) {
            return yield* apiError("deposit_method_unavailable", `Deposit method '${input.depositMethodId}' is not enabled for this shop`, {
              depositMethodId: input.depositMethodId,
              depositMethods: listed
            })
          }
          method = chosen
        } else if (enabled.length > 1) {
          return yield* apiError("deposit_method_required", "This shop has several deposit methods: choose one with depositMethodId", {
            depositMethods: listed
          })
        } else {
          method = enabled[0]!
        }

        const now = yield* DateTime.now
        const id = yield* ids.next("depositAccount")
        for (let attempt = 0; attempt < 10; attempt++) {
          const account: DepositAccount = {
            id,
            environment: scope.environment,
            merchantId: scope.merchant.id,
            shopId: scope.shop.id,
            endUserRef: input.endUserRef,
            depositMethodId: method.depositMethodId,
            clabe: yield* mint(method),
            bank: null,
            currency: method.currency,
            country: method.country,
            methodName: method.name,
            name: Redacted.value(input.name),
            email: Redacted.value(input.email!),
            phone: revealed(input.phone),
            documentType: input.documentType ?? null,
            documentId: revealed(input.documentId),
            customerCountry: country,
            metadata: input.metadata ?? {},
            status: "active",
            createdAt: now,
            updatedAt: now
          }
          const result = yield* store.insertAccount(account)
          if (result._tag === "Created") return { created: true, account: result.account }
          if (result._tag === "Existing") return { created: false, account: result.account }
        }
        return yield* Effect.die(new Error("could not mint a free CLABE in 10 tries"))
      })

      const get = Effect.fn("Deposits.get")(function*(scope: ShopRef, id: string) {
        const found = yield* store.findAccount(scope.environment, scope.shop.id, id)
        if (Option.isNone(found)) return yield* notFound("deposit account", id)
        return found.value
      })

      const speiMethod = (environment: Environment) =>
        catalog.methods(environment).find((m) => m.method === "spei" && m.country === "MX" && !m.sandboxOnly)!

      const receive = Effect.fn("Deposits.receive")(function*(transfer: IncomingTransfer) {
        const found = yield* store.findAccountByClabe(transfer.clabe)
        if (Option.isNone(found) || found.value.depositMethodId !== transfer.depositMethodId) {
          return yield* notFound("deposit account with CLABE", transfer.clabe)
        }
        const account = found.value
        if (account.environment === "production" && isDevelopmentSecret("depositCallback", config.depositCallbackSecret)) {
          return yield* apiError(
            "authentication_failed",
            "Production deposit notifications are refused while DEPOSIT_CALLBACK_SECRET is the built-in development value: set your own"
          )
        }
        return yield* credit(account, transfer)
      })

      /**
       * Credits a transfer to its account (found by the network's notification, or by the sandbox's
       * simulation, which needs no signature and so cannot meet `authentication_failed`).
       */
      const credit = Effect.fnUntraced(function*(account: DepositAccount, transfer: IncomingTransfer) {
        if (
          transfer.currency !== account.currency || !BigDecimal.isPositive(transfer.amount) ||
          !Money.fitsExponent(transfer.amount, account.currency) || !Money.withinInputBound(transfer.amount)
        ) {
          return yield* invalidRequest(`Expected a positive amount in ${account.currency}`, [{ path: "amount", message: `Expected a positive ${account.currency} amount` }])
        }
        // A network notification is nobody's request: credit it on the clock of the account's shop.
        return yield* clocks.within(account.environment, account.shopId, tx.run(Effect.gen(function*() {
          const disabled = account.status === "disabled"
          const record: DepositRecord = {
            id: yield* ids.next("deposit"),
            environment: account.environment,
            shopId: account.shopId,
            accountId: account.id,
            depositMethodId: account.depositMethodId,
            trackingKey: transfer.trackingKey,
            amount: transfer.amount,
            currency: transfer.currency,
            payerName: transfer.payerName,
            payerBank: transfer.payerBank ?? null,
            payerAccount: transfer.payerAccount ?? null,
            status: disabled ? "rejected" : "credited",
            rejectionReason: disabled ? "the deposit account is disabled" : null,
            transactionId: null,
            amountUsd: null,
            receivedAt: yield* DateTime.now
          }
          const stored = yield* store.insertDeposit(record)
          if (!stored.created || disabled) return { ...stored, account }
          const scope: ShopScope = {
            environment: account.environment,
            merchant: Option.getOrThrow(yield* tenancy.findMerchant(account.merchantId)),
            shop: Option.getOrThrow(yield* tenancy.findShop(account.shopId))
          }
          const payment = yield* payments.recordIncoming(scope, {
            amountLocal: transfer.amount,
            currencyLocal: transfer.currency,
            method: speiMethod(account.environment),
            receiver: `deposit:${account.depositMethodId}`,
            reference: transfer.trackingKey,
            userName: Redacted.make(account.name),
            userEmail: Redacted.make(account.email)
          })
          yield* store.setDepositTransaction(record.id, payment.id, payment.amount)
          const credited: DepositRecord = { ...record, transactionId: payment.id, amountUsd: payment.amount }
          yield* events.emit({
            environment: account.environment,
            merchantId: account.merchantId,
            shopId: account.shopId,
            type: "deposit.credited",
            data: { ...depositView(credited, account), accountId: account.id, endUserRef: account.endUserRef },
            relatedTxId: payment.id
          })
          return { created: true, deposit: credited, account }
        })))
      })

      const verifyNotification = (header: string | undefined, rawBody: string) =>
        Effect.flatMap(
          verifySignature(rawBody, header, [Redacted.value(config.depositCallbackSecret)]).pipe(Effect.provideService(Mac.Mac, mac)),
          (verdict) => verdict === "valid" ? Effect.void : Effect.fail(apiError("authentication_failed", `Deposit notification signature ${verdict}`))
        )

      const simulate = Effect.fn("Deposits.simulate")(function*(
        scope: ShopRef,
        id: string,
        input: { readonly amount: BigDecimal.BigDecimal; readonly payerName?: string | undefined; readonly trackingKey?: string | undefined }
      ) {
        if (scope.environment !== "sandbox") {
          return yield* apiError("simulate_sandbox_only", "Simulated deposits exist in sandbox only", {})
        }
        const account = yield* get(scope, id)
        return yield* credit(account, {
          depositMethodId: account.depositMethodId,
          clabe: account.clabe,
          amount: input.amount,
          currency: account.currency,
          trackingKey: input.trackingKey ?? (yield* ids.secret("SBX", 12)),
          payerName: input.payerName ?? "Sandbox Payer"
        })
      })

      const configure = Effect.fn("Deposits.configure")(function*(s: DepositSettings) {
        const unknown = s.depositMethodIds.filter((id) => findDepositMethod(id) === undefined)
        if (unknown.length > 0) {
          return yield* invalidRequest(`Unknown deposit methods: ${unknown.join(", ")}`, unknown.map((_, i) => ({
            path: `depositMethodIds.${i}`,
            message: `Expected one of ${shippedMethods.map((m) => m.depositMethodId).join(", ")}`
          })))
        }
        if (Option.isNone(yield* tenancy.findShop(s.shopId))) return yield* notFound("shop", s.shopId)
        const next = { ...s, depositMethodIds: [...new Set(s.depositMethodIds)] }
        yield* tx.run(Effect.andThen(
          store.putSettings(next),
          audit.recordForShop(next.environment, next.shopId, {
            object: { type: "deposit_settings", id: next.shopId },
            changes: { depositMethodIds: next.depositMethodIds, requirePhone: next.requirePhone }
          })
        ))
        return next
      })

      const setStatus = Effect.fn("Deposits.setStatus")(function*(id: string, status: DepositAccount["status"]) {
        const at = yield* DateTime.now
        const changed = yield* tx.run(Effect.flatMap(store.setAccountStatus(id, status, at), (ok) =>
          !ok ? Effect.succeed(false) : Effect.flatMap(store.findAccountById(id), (account) =>
            Option.isNone(account) ? Effect.succeed(true) : Effect.as(
              audit.recordForShop(account.value.environment, account.value.shopId, { object: { type: "deposit_account", id }, changes: { status } }),
              true
            ))))
        if (!changed) return yield* notFound("deposit account", id)
        return Option.getOrThrow(yield* store.findAccountById(id))
      })

      return Deposits.of({
        methods,
        getOrCreate,
        get,
        list: (scope, filter, page) => store.listAccounts(scope.environment, scope.shop.id, filter, page),
        stats: (accountIds) => store.depositSummary(accountIds),
        deposits: Effect.fn("Deposits.deposits")(function*(scope: ShopRef, id: string, page: { readonly limit: number; readonly offset: number }) {
          const account = yield* get(scope, id)
          const { rows, total } = yield* store.listDeposits(id, page)
          return { account, rows, total }
        }),
        receive,
        verifyNotification,
        simulate,
        configure,
        settings,
        setStatus
      })
    })
  )
}

/** A deposit as the API shows it; the beneficiary is the account holder, the payer who sent it. */
/** What a sandbox shop may use until an operator sets its deposit methods: SPEI through STP. */
export const sandboxDefaultDepositMethodIds: ReadonlyArray<string> = ["mx_spei_stp"]

export const depositView = (d: DepositRecord, account: DepositAccount) => ({
  id: d.id,
  accountId: d.accountId,
  amount: Money.toJsonNumber(d.amount),
  currency: d.currency,
  amountUsd: d.amountUsd === null ? null : Money.toJsonNumber(d.amountUsd),
  status: d.status,
  rejectionReason: d.rejectionReason,
  trackingKey: d.trackingKey,
  payerName: d.payerName,
  payerBank: d.payerBank,
  payerAccount: d.payerAccount,
  beneficiaryName: account.name,
  beneficiaryEmail: account.email,
  clabe: account.clabe,
  transactionId: d.transactionId,
  receivedAt: DateTime.formatIso(d.receivedAt)
})
