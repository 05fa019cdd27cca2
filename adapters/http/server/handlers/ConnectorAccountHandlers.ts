/** Handlers of connector accounts: a merchant's own (its key's merchant and environment) and the operator's view of all. */
import { DateTime, Effect, Option, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../../../core/auth/Principal.ts"
import type { ConnectorAccount } from "../../../../core/connectors/ConnectorAccount.ts"
import { type AccountActor, type ConnectorAccountChange, ConnectorAccounts } from "../../../../core/connectors/ConnectorAccounts.ts"
import { EngineConfig } from "../../../../core/EngineConfig.ts"
import { callbackUrlOf } from "../../../../core/payments/Upstream.ts"
import { ConnectorKinds } from "../../../../core/ports/ConnectorKinds.ts"
import { Api } from "../../api/Api.ts"
import { documented } from "../../api/OperationErrors.ts"

const redacted = (secrets: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, Redacted.make(value)]))

const viewOf = (config: EngineConfig["Service"]) => (a: ConnectorAccount) => ({
  id: a.id,
  object: "connector_account" as const,
  kind: a.kind,
  environment: a.environment,
  name: a.name,
  merchantId: a.merchantId,
  shopIds: a.shopIds,
  status: a.status,
  baseUrl: a.baseUrl,
  timeoutMs: a.timeoutMs,
  settings: a.values,
  secrets: Object.fromEntries(Object.entries(a.secrets).map(([name, s]) => [name, { set: true as const, fingerprint: s.fingerprint }])),
  lastCheck: a.lastCheck === null ? null : { ...a.lastCheck, at: DateTime.formatIso(a.lastCheck.at) },
  callbackUrl: callbackUrlOf(config, a.id),
  version: a.version,
  createdAt: DateTime.formatIso(a.createdAt),
  updatedAt: DateTime.formatIso(a.updatedAt)
})

interface ChangeBody {
  readonly name?: string | undefined
  readonly shopIds?: ReadonlyArray<string> | null | undefined
  readonly status?: "active" | "disabled" | undefined
  readonly baseUrl?: string | null | undefined
  readonly timeoutMs?: number | null | undefined
  readonly settings?: Readonly<Record<string, string>> | undefined
  readonly secrets?: Readonly<Record<string, string>> | undefined
  readonly version?: number | undefined
}
const changeOf = ({ secrets, version, ...rest }: ChangeBody): ConnectorAccountChange => ({
  ...rest,
  secrets: secrets === undefined ? undefined : redacted(secrets),
  expectedVersion: version
})

const kindsView = Effect.map(Effect.serviceOption(ConnectorKinds), (kinds) => ({
  data: Option.match(kinds, { onNone: () => [], onSome: (k) => k.kinds }).filter((k) => k.paymentProvider !== undefined).map((k) => ({
    kind: k.kind,
    secrets: k.secrets,
    settings: k.settings,
    requiredSettings: k.requiredSettings,
    baseUrlRequired: k.baseUrlRequired
  }))
}))

export const ConnectorAccountHandlers = HttpApiBuilder.group(Api, "connectorAccounts", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* ConnectorAccounts
    const view = viewOf(yield* EngineConfig)
    const actor = Effect.map(CurrentPrincipal, (p): AccountActor => ({ kind: "merchant", merchantId: p.merchant.id, environment: p.environment }))
    return handlers.handleAll({
      kinds: () => documented("connectorAccounts.kinds", kindsView),
      list: () => documented("connectorAccounts.list", Effect.map(Effect.flatMap(actor, (a) => accounts.list(a)), (all) => ({ data: all.map(view) }))),
      create: ({ payload }) =>
        documented("connectorAccounts.create", Effect.map(Effect.flatMap(actor, (a) => accounts.create(a, { ...payload, secrets: redacted(payload.secrets) })), view)),
      get: ({ params }) => documented("connectorAccounts.get", Effect.map(Effect.flatMap(actor, (a) => accounts.get(a, params.id)), view)),
      update: ({ params, payload }) =>
        documented("connectorAccounts.update", Effect.map(Effect.flatMap(actor, (a) => accounts.update(a, params.id, changeOf(payload))), view)),
      remove: ({ params }) => documented("connectorAccounts.remove", Effect.map(Effect.flatMap(actor, (a) => accounts.remove(a, params.id)), view))
    })
  }))

const operator: AccountActor = { kind: "operator" }

export const ConnectorAccountAdminHandlers = HttpApiBuilder.group(Api, "connectorAccountsAdmin", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* ConnectorAccounts
    const view = viewOf(yield* EngineConfig)
    return handlers.handleAll({
      kinds: () => documented("connectorAccountsAdmin.kinds", kindsView),
      list: ({ query }) =>
        documented(
          "connectorAccountsAdmin.list",
          Effect.map(accounts.list(operator, query.merchantId === "operator" ? null : query.merchantId), (all) => ({ data: all.map(view) }))
        ),
      create: ({ payload }) =>
        documented("connectorAccountsAdmin.create", Effect.map(accounts.create(operator, { ...payload, secrets: redacted(payload.secrets) }), view)),
      get: ({ params }) => documented("connectorAccountsAdmin.get", Effect.map(accounts.get(operator, params.id), view)),
      update: ({ params, payload }) => documented("connectorAccountsAdmin.update", Effect.map(accounts.update(operator, params.id, changeOf(payload)), view)),
      remove: ({ params }) => documented("connectorAccountsAdmin.remove", Effect.map(accounts.remove(operator, params.id), view))
    })
  }))
