/**
 * Connector accounts (`core/connectors/`): a merchant's own accounts at providers (where the host
 * allows it), and every account for the operator, with the kinds they can be made of.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Environment, IsoDateTime, RequiredText, Text } from "./Fields.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, secretKey, withErrors } from "./EndpointErrors.ts"

const Secrets = Schema.Record(Text(64), RequiredText(8000)).annotate({
  description: "The connector's secrets by name (`GET /connector-kinds` lists them), in the clear: sealed as they arrive, never answered again"
})
const Settings = Schema.Record(Text(64), Text(2000)).annotate({ description: "The connector's plain settings by name" })
const ShopIds = Schema.NullOr(Schema.Array(Text(64)))
const BaseUrl = Schema.NullOr(Text(2000)).annotate({
  description: "Overrides the connector's documented URL (a proxy, a simulator). A merchant's account may name only the origins the operator allows."
})
const TimeoutMs = Schema.NullOr(Schema.Int).annotate({ description: "Budget of one upstream call, 100 to 120000 ms; the connector's default when null" })

const NewAccountFields = {
  kind: Text(64).annotate({ description: "The connector kind (`dlocal`, `mercadopago`, ...)" }),
  environment: Environment,
  name: RequiredText(200),
  shopIds: Schema.optional(ShopIds).annotate({
    description: "The shops it serves. A merchant's account: its shops (default: every shop it has now). The operator's own account: null (the default) for any shop a route or rule names it for."
  }),
  baseUrl: Schema.optional(BaseUrl),
  timeoutMs: Schema.optional(TimeoutMs),
  settings: Schema.optional(Settings),
  secrets: Secrets
}

const NewAccount = Schema.Struct(NewAccountFields)
const NewAdminAccount = Schema.Struct({
  ...NewAccountFields,
  id: Schema.optional(Text(63)).annotate({ description: "The provider id to use (lowercase letters, digits, - and _); generated (`ca_...`) when absent" }),
  merchantId: Schema.optional(Schema.NullOr(Text(64))).annotate({ description: "The merchant whose account it is (it then serves only that merchant's shops); null or absent: the operator's own" })
})

const AccountChange = Schema.Struct({
  name: Schema.optional(RequiredText(200)),
  shopIds: Schema.optional(ShopIds),
  status: Schema.optional(Schema.Literals(["active", "disabled"])).annotate({
    description: "disabled: takes no new payment; the payments already on it still finish on it (status, callbacks, refunds)"
  }),
  baseUrl: Schema.optional(BaseUrl),
  timeoutMs: Schema.optional(TimeoutMs),
  settings: Schema.optional(Settings).annotate({ description: "Replaces every plain setting" }),
  secrets: Schema.optional(Secrets).annotate({ description: "The secrets named are replaced (and checked with the provider); the others are kept" }),
  version: Schema.optional(Schema.Int).annotate({ description: "The version read: the change is refused (409) if the account changed since" })
})

export const ConnectorAccountView = Schema.Struct({
  id: Schema.String.annotate({ description: "The provider id routes, routing rules and payments name" }),
  object: Schema.Literal("connector_account"),
  kind: Schema.String,
  environment: Environment,
  name: Schema.String,
  merchantId: Schema.NullOr(Schema.String),
  shopIds: ShopIds,
  status: Schema.Literals(["active", "disabled"]),
  baseUrl: Schema.NullOr(Schema.String),
  timeoutMs: Schema.NullOr(Schema.Int),
  settings: Schema.Record(Schema.String, Schema.String),
  secrets: Schema.Record(Schema.String, Schema.Struct({
    set: Schema.Literal(true),
    fingerprint: Schema.String.annotate({ description: "16 hex digits of a MAC of the value under the host's key: equal values, equal fingerprints" })
  })).annotate({ description: "Which secrets are set; never their values" }),
  lastCheck: Schema.NullOr(Schema.Struct({
    at: IsoDateTime,
    outcome: Schema.Literals(["passed", "refused", "unreachable"]),
    code: Schema.NullOr(Schema.String),
    message: Schema.String
  })).annotate({ description: "The credential check made when the credentials were last saved (`unreachable`: saved, the provider could not tell)" }),
  callbackUrl: Schema.String.annotate({ description: "Where the provider sends this account's notifications: configure it in the provider's dashboard where it asks" }),
  version: Schema.Int,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime
}).annotate({ identifier: "ConnectorAccount" })

export const ConnectorKindView = Schema.Struct({
  kind: Schema.String,
  secrets: Schema.Array(Schema.String),
  settings: Schema.Array(Schema.String),
  requiredSettings: Schema.Array(Schema.String),
  baseUrlRequired: Schema.Boolean
}).annotate({ identifier: "ConnectorKind" })

const Id = { id: Text(64) }
const accountErrors = ["connector_accounts_not_allowed"] as const
const writeErrors = [...accountErrors, "connector_credentials_refused", "connector_account_conflict"] as const

const created = "Creates a connector account: checks the credentials with one authenticated call to the provider (a status read of a charge that does not exist), " +
  "then seals them and serves the account at once on this host and within a second on every replica. A refusal saves nothing (422 " +
  "connector_credentials_refused says what the provider answered); a provider that could not be reached saves the account with `lastCheck.outcome` unreachable."
const changed = "Changes an account. New secrets, a new base URL, timeout or settings are checked with the provider first, as at creation. A payment in flight " +
  "finishes on the account it started on: its next call uses what was saved."
const deleted = "Deletes an account that no route names and no payment on it is open (else 409 connector_account_in_use). Its completed payments can then no longer " +
  "be refunded through it: disable an account you may still refund through instead."

export class ConnectorAccountsApi extends HttpApiGroup.make("connectorAccounts")
  .add(
    HttpApiEndpoint.get("kinds", "/connector-kinds", { success: Schema.Struct({ data: Schema.Array(ConnectorKindView) }) })
      .annotate(OpenApi.Description, "The connector kinds this host can make accounts of, with the names of their secrets and settings."),
    HttpApiEndpoint.get("list", "/connector-accounts", { success: Schema.Struct({ data: Schema.Array(ConnectorAccountView) }) })
      .annotate(OpenApi.Description, "The merchant's own connector accounts in the key's environment, oldest first. Needs a full secret key; answers 403 connector_accounts_not_allowed where the host keeps accounts to its operator."),
    HttpApiEndpoint.post("create", "/connector-accounts", { payload: NewAccount, success: ConnectorAccountView.pipe(HttpApiSchema.status(201)) })
      .annotate(OpenApi.Description, `${created} The account is the merchant's, in the key's environment, and serves only the merchant's shops it lists.`),
    HttpApiEndpoint.get("get", "/connector-accounts/:id", { params: Id, success: ConnectorAccountView }),
    HttpApiEndpoint.patch("update", "/connector-accounts/:id", { params: Id, payload: AccountChange, success: ConnectorAccountView })
      .annotate(OpenApi.Description, changed),
    HttpApiEndpoint.delete("remove", "/connector-accounts/:id", { params: Id, success: ConnectorAccountView })
      .annotate(OpenApi.Description, deleted)
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Connector accounts")
  .pipe(withErrors({
    kinds: secretKey,
    list: [...secretKey, ...accountErrors],
    create: [...secretKey, ...writeErrors],
    get: [...secretKey, ...accountErrors],
    update: [...secretKey, ...writeErrors],
    remove: [...secretKey, ...accountErrors, "connector_account_in_use"]
  }))
{}

export class ConnectorAccountsAdminApi extends HttpApiGroup.make("connectorAccountsAdmin")
  .add(
    HttpApiEndpoint.get("kinds", "/connector-kinds", { success: Schema.Struct({ data: Schema.Array(ConnectorKindView) }) })
      .annotate(OpenApi.Description, "The connector kinds this host can make accounts of, with the names of their secrets and settings."),
    HttpApiEndpoint.get("list", "/connector-accounts", {
      query: { merchantId: Schema.optional(Text(64)).annotate({ description: "Only this merchant's accounts; `operator` for the operator's own" }) },
      success: Schema.Struct({ data: Schema.Array(ConnectorAccountView) })
    }).annotate(OpenApi.Description, "Every connector account (or one merchant's), oldest first. The host's `CONNECTORS` instances are not among them (`GET /admin/v1/providers` lists every provider)."),
    HttpApiEndpoint.post("create", "/connector-accounts", { payload: NewAdminAccount, success: ConnectorAccountView.pipe(HttpApiSchema.status(201)) })
      .annotate(OpenApi.Description, `${created} With merchantId, the account is that merchant's and serves only its shops; without, it is the operator's and may serve any shop.`),
    HttpApiEndpoint.get("get", "/connector-accounts/:id", { params: Id, success: ConnectorAccountView }),
    HttpApiEndpoint.patch("update", "/connector-accounts/:id", { params: Id, payload: AccountChange, success: ConnectorAccountView })
      .annotate(OpenApi.Description, changed),
    HttpApiEndpoint.delete("remove", "/connector-accounts/:id", { params: Id, success: ConnectorAccountView })
      .annotate(OpenApi.Description, deleted)
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Connector accounts (operator)")
  .pipe(withErrors({
    kinds: admin,
    list: [...admin, ...accountErrors],
    create: [...admin, ...writeErrors],
    get: [...admin, ...accountErrors],
    update: [...admin, ...writeErrors],
    remove: [...admin, ...accountErrors, "connector_account_in_use"]
  }))
{}
