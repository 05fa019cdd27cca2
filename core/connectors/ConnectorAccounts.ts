/**
 * Connector accounts through the API (`ConnectorAccount.ts`): the operator makes, reads, changes,
 * disables and deletes them, and so does a merchant for its own shops where the host allows it
 * (`EngineConfig.merchantConnectorAccounts`). Credentials are sealed (`Sealing`) and never
 * answered: a read shows which secrets are set and each one's fingerprint. They are checked when
 * they are saved (`CredentialCheck.ts`): a refusal saves nothing and says what the provider said.
 *
 * Every change is written with its audit record in one transaction, and applied to this engine's
 * `ProviderRegistry` at once; other replicas apply it within a second (`sync`). A payment in
 * flight finishes on the account it started on: a change of credentials reaches its next call,
 * a disabled account still answers for it, and an account with open payments cannot be deleted.
 */
import { Context, DateTime, Duration, Effect, Layer, Option, Redacted, Schedule } from "effect"
import { apiError, type ApiErrorOf, invalidRequest, type Issue, notFound } from "../ApiError.ts"
import { Audit } from "../audit/Audit.ts"
import { EngineConfig } from "../EngineConfig.ts"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { ConnectorAccountStore } from "../ports/ConnectorAccountStore.ts"
import { type ConnectorKind, ConnectorKinds, type ConnectorSettings } from "../ports/ConnectorKinds.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import { ProviderRouteStore } from "../ports/ProviderRouteStore.ts"
import { Sealing } from "../ports/Sealing.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import type { ConnectorAccount, CredentialCheck, StoredSecret } from "./ConnectorAccount.ts"
import { checkCredentials } from "./CredentialCheck.ts"
import { fieldIssues, providerIdPattern } from "./Validation.ts"

/** Who asks: the operator (admin API), or a merchant's key, for its own accounts in the key's environment. */
export type AccountActor =
  | { readonly kind: "operator" }
  | { readonly kind: "merchant"; readonly merchantId: string; readonly environment: Environment }

export interface NewConnectorAccount {
  /** The operator's choice of provider id; generated (`ca_...`) when absent, and always for a merchant. */
  readonly id?: string | undefined
  readonly kind: string
  readonly environment: Environment
  readonly name: string
  /** The operator's: the merchant whose account it is (null: the operator's own). A merchant's: ignored. */
  readonly merchantId?: string | null | undefined
  /** Absent: a merchant's every shop at creation; for the operator's own account, any shop. */
  readonly shopIds?: ReadonlyArray<string> | null | undefined
  readonly baseUrl?: string | null | undefined
  readonly timeoutMs?: number | null | undefined
  readonly settings?: Readonly<Record<string, string>> | undefined
  readonly secrets: Readonly<Record<string, Redacted.Redacted<string>>>
}

export interface ConnectorAccountChange {
  readonly name?: string | undefined
  readonly shopIds?: ReadonlyArray<string> | null | undefined
  readonly status?: ConnectorAccount["status"] | undefined
  readonly baseUrl?: string | null | undefined
  readonly timeoutMs?: number | null | undefined
  /** Replaces the plain settings. */
  readonly settings?: Readonly<Record<string, string>> | undefined
  /** The secrets named are replaced; the others are kept. */
  readonly secrets?: Readonly<Record<string, Redacted.Redacted<string>>> | undefined
  /** Refuses the change (409) unless the account is at this version. */
  readonly expectedVersion?: number | undefined
}

type WriteError = ApiErrorOf<"invalid_request" | "connector_credentials_refused" | "connector_accounts_not_allowed">

export class ConnectorAccounts extends Context.Service<ConnectorAccounts, {
  readonly create: (actor: AccountActor, input: NewConnectorAccount) => Effect.Effect<ConnectorAccount, WriteError | ApiErrorOf<"connector_account_conflict">>
  readonly list: (actor: AccountActor, merchantId?: string | null) => Effect.Effect<ReadonlyArray<ConnectorAccount>, ApiErrorOf<"connector_accounts_not_allowed">>
  readonly get: (actor: AccountActor, id: string) => Effect.Effect<ConnectorAccount, ApiErrorOf<"not_found" | "connector_accounts_not_allowed">>
  readonly update: (
    actor: AccountActor,
    id: string,
    change: ConnectorAccountChange
  ) => Effect.Effect<ConnectorAccount, WriteError | ApiErrorOf<"not_found" | "connector_account_conflict">>
  readonly remove: (actor: AccountActor, id: string) => Effect.Effect<ConnectorAccount, ApiErrorOf<"not_found" | "connector_account_in_use" | "connector_accounts_not_allowed">>
  /** Brings this engine's registry in line with the store: what every replica runs about once a second. */
  readonly sync: Effect.Effect<void>
}>()("core/connectors/ConnectorAccounts") {
  static readonly layer = Layer.effect(
    ConnectorAccounts,
    Effect.gen(function*() {
      const store = yield* ConnectorAccountStore
      const registry = yield* ProviderRegistry
      const tenancy = yield* TenancyStore
      const routes = yield* ProviderRouteStore
      const payments = yield* PaymentStore
      const tx = yield* Transactions
      const audit = yield* Audit
      const ids = yield* Ids
      const config = yield* EngineConfig
      const kinds = Option.match(yield* Effect.serviceOption(ConnectorKinds), { onNone: () => [], onSome: (k) => k.kinds })
      const sealing = Option.getOrUndefined(yield* Effect.serviceOption(Sealing))

      const contextOf = (id: string, name: string) => `connector-account:${id}:${name}`
      const kindOf = (kind: string) => kinds.find((k) => k.kind === kind && k.paymentProvider !== undefined)

      /** The account's settings, its secrets unsealed. */
      const settingsOf = Effect.fnUntraced(function*(account: ConnectorAccount, seal: Sealing["Service"]) {
        const secrets: Record<string, Redacted.Redacted<string>> = {}
        for (const [name, stored] of Object.entries(account.secrets)) {
          secrets[name] = Redacted.make(yield* seal.unseal(stored.sealed, contextOf(account.id, name)))
        }
        return {
          id: account.id,
          environment: account.environment,
          baseUrl: account.baseUrl ?? undefined,
          timeoutMs: account.timeoutMs ?? undefined,
          secrets,
          values: account.values
        } satisfies ConnectorSettings
      })

      // What this engine has built: each account's version, for the sync to compare.
      const built = new Map<string, number>()
      const apply = Effect.fnUntraced(function*(account: ConnectorAccount) {
        const kind = kindOf(account.kind)
        if (kind === undefined || sealing === undefined) {
          return yield* Effect.logWarning(`connector account ${account.id}: this engine has no connector of kind '${account.kind}'; it is not served here`)
        }
        const provider = yield* kind.paymentProvider!(yield* settingsOf(account, sealing))
        const served = yield* registry.put(provider, { active: account.status === "active", shopIds: account.shopIds })
        built.set(account.id, account.version)
        if (!served) yield* Effect.logWarning(`connector account ${account.id}: a connector of the host's configuration has this id; the account is not served`)
      })
      const forget = (id: string) => Effect.andThen(registry.remove(id), Effect.sync(() => void built.delete(id)))

      const sync = Effect.gen(function*() {
        const stored = yield* store.versions
        const present = new Set<string>()
        for (const { id, version } of stored) {
          present.add(id)
          if (built.get(id) === version) continue
          const account = yield* store.find(id)
          if (Option.isSome(account)) {
            yield* apply(account.value).pipe(Effect.catchCause((cause) => Effect.logError(`connector account ${id} could not be built`, cause)))
          }
        }
        for (const id of [...built.keys()]) if (!present.has(id)) yield* forget(id)
      }).pipe(Effect.withSpan("ConnectorAccounts.sync"))

      const notAllowed = (message: string) => apiError("connector_accounts_not_allowed", message)
      const allowed = (actor: AccountActor) =>
        actor.kind === "merchant" && config.merchantConnectorAccounts === undefined
          ? Effect.fail(notAllowed("This host does not let merchants manage their own connector accounts; ask the operator"))
          : Effect.void
      const visible = (actor: AccountActor) => (a: ConnectorAccount) =>
        actor.kind === "operator" || (a.merchantId === actor.merchantId && a.environment === actor.environment)
      const findVisible = (actor: AccountActor, id: string) =>
        Effect.flatMap(store.find(id), (found) =>
          Option.isSome(found) && visible(actor)(found.value) ? Effect.succeed(found.value) : Effect.fail(notFound("connector account", id)))

      /** Problems with the shops an account of `merchantId` would serve. */
      const shopIssues = Effect.fnUntraced(function*(merchantId: string | null, shopIds: ReadonlyArray<string> | null) {
        const issues: Array<Issue> = []
        if (shopIds === null) {
          if (merchantId !== null) issues.push({ path: "shopIds", message: "A merchant's account serves a list of its shops" })
          return issues
        }
        if (merchantId !== null && shopIds.length === 0) issues.push({ path: "shopIds", message: "Expected at least one shop" })
        for (const [i, shopId] of shopIds.entries()) {
          const shop = yield* tenancy.findShop(shopId)
          if (Option.isNone(shop) || (merchantId !== null && shop.value.merchantId !== merchantId)) {
            issues.push({ path: `shopIds[${i}]`, message: merchantId === null ? `No shop '${shopId}'` : `No shop '${shopId}' of merchant ${merchantId}` })
          }
        }
        return issues
      })

      const sealed = Effect.fnUntraced(function*(seal: Sealing["Service"], id: string, secrets: Readonly<Record<string, Redacted.Redacted<string>>>) {
        const out: Record<string, StoredSecret> = {}
        for (const [name, value] of Object.entries(secrets)) {
          const plain = Redacted.value(value)
          const signature = yield* seal.sign(plain, `connector-secret:${name}`)
          out[name] = { sealed: yield* seal.seal(plain, contextOf(id, name)), fingerprint: signature.slice(signature.indexOf(".") + 1, signature.indexOf(".") + 17) }
        }
        return out
      })

      /** The fields' problems, then the credential check of the account as it would be stored. */
      const validated = Effect.fnUntraced(function*(kind: ConnectorKind, account: ConnectorAccount, issues: ReadonlyArray<Issue>, check: boolean) {
        const all = [
          ...issues,
          ...fieldIssues(kind, { ...account, secretNames: Object.keys(account.secrets) }, account.merchantId === null ? undefined : config.merchantConnectorAccounts?.baseUrlOrigins ?? [])
        ]
        if (account.name.trim() === "" || account.name.length > 200) all.push({ path: "name", message: "Expected 1 to 200 characters" })
        if (all.length > 0) return yield* invalidRequest(`Invalid connector account: ${all.map((i) => `${i.path}: ${i.message}`).join("; ")}`, all)
        if (!check) return account
        const provider = yield* kind.paymentProvider!(yield* settingsOf(account, sealing!))
        const result: CredentialCheck = yield* checkCredentials(provider, `credential-check-${yield* ids.secret("", 8)}`)
        if (result.outcome === "refused") {
          return yield* apiError("connector_credentials_refused", `The provider refused the credentials: ${result.message}`, {
            code: result.code ?? "refused",
            providerMessage: result.message
          })
        }
        return { ...account, lastCheck: result }
      })

      /** What an audit record shows of an account: every field, each secret by its fingerprint. */
      const shown = (a: ConnectorAccount) => ({
        kind: a.kind,
        name: a.name,
        shopIds: a.shopIds,
        status: a.status,
        baseUrl: a.baseUrl,
        timeoutMs: a.timeoutMs,
        settings: a.values,
        secrets: Object.fromEntries(Object.entries(a.secrets).map(([name, s]) => [name, `fingerprint ${s.fingerprint}`]))
      })
      const recorded = (a: ConnectorAccount, changes: Record<string, unknown>) =>
        audit.record({ environment: a.environment, merchantId: a.merchantId, object: { type: "connector_account", id: a.id }, changes })

      const create = Effect.fn("ConnectorAccounts.create")(function*(actor: AccountActor, input: NewConnectorAccount) {
        yield* allowed(actor)
        if (sealing === undefined) return yield* notAllowed("This engine has no Sealing service: it cannot keep a connector account's credentials")
        const kind = kindOf(input.kind)
        if (kind === undefined) {
          const known = kinds.filter((k) => k.paymentProvider !== undefined).map((k) => k.kind)
          return yield* invalidRequest(`Unknown connector kind '${input.kind}'`, [{
            path: "kind",
            message: known.length === 0 ? "This engine has no connector kinds" : `Expected one of ${known.join(", ")}`
          }])
        }
        const issues: Array<Issue> = []
        const merchantId = actor.kind === "merchant" ? actor.merchantId : input.merchantId ?? null
        if (actor.kind === "merchant" && input.environment !== actor.environment) {
          issues.push({ path: "environment", message: `A ${actor.environment} key makes ${actor.environment} accounts` })
        }
        if (actor.kind === "merchant" && input.id !== undefined) issues.push({ path: "id", message: "A merchant's account id is generated" })
        if (input.id !== undefined && !providerIdPattern.test(input.id)) issues.push({ path: "id", message: "Expected lowercase letters, digits, - and _ (at most 63)" })
        if (merchantId !== null && Option.isNone(yield* tenancy.findMerchant(merchantId))) issues.push({ path: "merchantId", message: `No merchant '${merchantId}'` })
        const shopIds = input.shopIds !== undefined ? input.shopIds : merchantId === null ? null : (yield* tenancy.listShops(merchantId)).map((s) => s.id)
        issues.push(...yield* shopIssues(merchantId, shopIds))
        const id = input.id ?? (yield* ids.next("connectorAccount"))
        if (Option.isSome(yield* registry.get(id)) && !(yield* registry.isAccount(id))) {
          return yield* apiError("connector_account_conflict", `The provider id '${id}' is taken by a connector of the host's configuration`)
        }
        const now = yield* DateTime.now
        const draft: ConnectorAccount = {
          id,
          kind: kind.kind,
          environment: input.environment,
          name: input.name,
          merchantId,
          shopIds,
          status: "active",
          baseUrl: input.baseUrl ?? null,
          timeoutMs: input.timeoutMs ?? null,
          values: input.settings ?? {},
          secrets: yield* sealed(sealing, id, input.secrets),
          lastCheck: null,
          version: 1,
          createdAt: now,
          updatedAt: now
        }
        const account = yield* validated(kind, draft, issues, true)
        const inserted = yield* tx.run(Effect.flatMap(store.insert(account), (ok) => ok ? Effect.as(recorded(account, { created: shown(account) }), true) : Effect.succeed(false)))
        if (!inserted) return yield* apiError("connector_account_conflict", `A connector account '${id}' exists already`)
        yield* apply(account)
        return account
      })

      const update = Effect.fn("ConnectorAccounts.update")(function*(actor: AccountActor, id: string, change: ConnectorAccountChange) {
        yield* allowed(actor)
        const current = yield* findVisible(actor, id)
        if (change.expectedVersion !== undefined && change.expectedVersion !== current.version) {
          return yield* apiError("connector_account_conflict", `The connector account is at version ${current.version}, not ${change.expectedVersion}: read it again`, { version: current.version })
        }
        const kind = kindOf(current.kind)
        if (kind === undefined || sealing === undefined) return yield* notAllowed(`This engine has no connector of kind '${current.kind}'`)
        const shopIds = change.shopIds !== undefined ? change.shopIds : current.shopIds
        const next: ConnectorAccount = {
          ...current,
          name: change.name ?? current.name,
          shopIds,
          status: change.status ?? current.status,
          baseUrl: change.baseUrl !== undefined ? change.baseUrl : current.baseUrl,
          timeoutMs: change.timeoutMs !== undefined ? change.timeoutMs : current.timeoutMs,
          values: change.settings ?? current.values,
          secrets: change.secrets === undefined ? current.secrets : { ...current.secrets, ...yield* sealed(sealing, id, change.secrets) },
          version: current.version + 1,
          updatedAt: yield* DateTime.now
        }
        const reaches = change.secrets !== undefined || next.baseUrl !== current.baseUrl || next.timeoutMs !== current.timeoutMs ||
          JSON.stringify(next.values) !== JSON.stringify(current.values)
        const account = yield* validated(kind, next, change.shopIds === undefined ? [] : yield* shopIssues(current.merchantId, shopIds), reaches)
        const before = shown(current)
        const after = shown(account)
        const changed = Object.fromEntries(
          Object.keys(after).filter((k) => JSON.stringify(before[k as keyof typeof before]) !== JSON.stringify(after[k as keyof typeof after]))
            .map((k) => [k, { from: before[k as keyof typeof before], to: after[k as keyof typeof after] }])
        )
        const written = yield* tx.run(Effect.flatMap(store.update(account), (ok) => ok ? Effect.as(recorded(account, changed), true) : Effect.succeed(false)))
        if (!written) return yield* apiError("connector_account_conflict", "Another change to the connector account came first: read it again", {})
        yield* apply(account)
        return account
      })

      const remove = Effect.fn("ConnectorAccounts.remove")(function*(actor: AccountActor, id: string) {
        yield* allowed(actor)
        const current = yield* findVisible(actor, id)
        const named = yield* routes.countNaming(id)
        const open = yield* payments.countOpenOnProvider(id)
        if (named > 0 || open > 0) {
          return yield* apiError("connector_account_in_use", `The connector account has ${named} route(s) naming it and ${open} open payment(s)`, { routes: named, openPayments: open })
        }
        yield* tx.run(Effect.flatMap(store.remove(id), (ok) => ok ? Effect.asVoid(recorded(current, { deleted: shown(current) })) : Effect.void))
        yield* forget(id)
        return current
      })

      // What the store holds is served from the start.
      yield* sync

      return ConnectorAccounts.of({
        create,
        list: (actor, merchantId) =>
          Effect.andThen(allowed(actor), Effect.map(store.list(actor.kind === "merchant" ? actor.merchantId : merchantId), (all) => all.filter(visible(actor)))),
        get: (actor, id) => Effect.andThen(allowed(actor), findVisible(actor, id)),
        update,
        remove,
        sync
      })
    })
  )

  /** Every `every`, the changes other replicas made (the engine's own apply at once). */
  static readonly syncEvery = (every: Duration.Input) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const accounts = yield* ConnectorAccounts
      yield* accounts.sync.pipe(
        Effect.catchCause((cause) => Effect.logError("connector accounts sync failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.fromInputUnsafe(every))),
        Effect.forkScoped
      )
    }))
}
