import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Amount } from "../../../core/Money.ts"
import { Buyer, Email, Environment, IsoDateTime, RequiredText, Text } from "./Fields.ts"
import { Pagination } from "./PaymentsApi.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, secretKey, signed, withErrors } from "./EndpointErrors.ts"

export const DepositMethodView = Schema.Struct({
  depositMethodId: Schema.String,
  method: Schema.String,
  name: Schema.String,
  country: Schema.String,
  currency: Schema.String
}).annotate({ identifier: "DepositMethod" })

const Stats = Schema.Struct({
  deposits: Schema.Int,
  credited: Schema.Int,
  totalUsd: Schema.Finite,
  localTotals: Schema.Array(Schema.Struct({ currency: Schema.String, amount: Schema.Finite })),
  lastDepositAt: Schema.NullOr(IsoDateTime)
})

export const DepositAccountView = Schema.Struct({
  id: Schema.String,
  endUserRef: Schema.String,
  clabe: Schema.String.annotate({ description: "18 digits, fixed for the user, valid check digit" }),
  bank: Schema.NullOr(Schema.String).annotate({ description: "Only when the network states the institution" }),
  currency: Schema.String,
  country: Schema.String,
  methodName: Schema.String,
  depositMethodId: Schema.String,
  beneficiary: Schema.Struct({ name: Schema.String, email: Schema.String }),
  customer: Schema.Struct({
    name: Schema.String,
    email: Schema.String,
    phone: Schema.NullOr(Schema.String),
    documentType: Schema.NullOr(Schema.String),
    documentId: Schema.NullOr(Schema.String),
    country: Schema.NullOr(Schema.String)
  }),
  metadata: Schema.Record(Schema.String, Schema.String),
  status: Schema.Literals(["active", "disabled"]),
  environment: Environment,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  stats: Schema.optional(Stats).annotate({ description: "With include=stats" })
}).annotate({ identifier: "DepositAccount" })

export const DepositView = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  amount: Schema.Finite,
  currency: Schema.String,
  amountUsd: Schema.NullOr(Schema.Finite),
  status: Schema.Literals(["credited", "rejected"]),
  rejectionReason: Schema.NullOr(Schema.String),
  trackingKey: Schema.String,
  payerName: Schema.String,
  payerBank: Schema.NullOr(Schema.String),
  payerAccount: Schema.NullOr(Schema.String),
  beneficiaryName: Schema.String,
  beneficiaryEmail: Schema.String,
  clabe: Schema.String,
  transactionId: Schema.NullOr(Schema.String).annotate({ description: "The completed pay-in it became" }),
  receivedAt: IsoDateTime
}).annotate({ identifier: "Deposit" })

const Metadata = Schema.Record(Schema.String, Text(500)).check(Schema.isMaxProperties(20))
const Id = { id: Schema.String }
const Page = { limit: Schema.optional(Schema.FiniteFromString), offset: Schema.optional(Schema.FiniteFromString) }

export const CreateDepositAccountBody = Schema.Struct({
  endUserRef: RequiredText(200),
  name: Buyer(RequiredText(200)),
  email: Schema.optional(Buyer(Email)),
  phone: Schema.optional(Buyer(Text(40))),
  documentType: Schema.optional(Text(20)),
  documentId: Schema.optional(Buyer(Text(60))),
  country: Schema.optional(Text(3)),
  metadata: Schema.optional(Metadata),
  depositMethodId: Schema.optional(Text(64))
}).annotate({ identifier: "CreateDepositAccount" })

export const AccountEnvelope = Schema.Struct({ created: Schema.Boolean, account: DepositAccountView })

const creditEvent =
  "A credited transfer becomes a completed pay-in (its userEmail is the beneficiary email) and emits `payment.completed` and `deposit.credited` " +
  "(data: the deposit record plus `accountId` and `endUserRef`). A transfer to a disabled account is recorded as `rejected` and not credited; " +
  "a repeated notification of one transfer (same tracking key) credits once."

export class DepositsApi extends HttpApiGroup.make("deposits")
  .add(
    HttpApiEndpoint.get("methods", "/me/deposit-methods", {
      success: Schema.Struct({ methods: Schema.Array(DepositMethodView) })
    }).annotate(OpenApi.Description, "An empty list means deposit accounts are not enabled for the shop."),
    HttpApiEndpoint.post("getOrCreate", "/me/deposit-accounts", {
      payload: CreateDepositAccountBody,
      success: [AccountEnvelope.pipe(HttpApiSchema.status(201)), AccountEnvelope]
    }).annotate(
      OpenApi.Description,
      "Get-or-create keyed by endUserRef: 201 `created: true` with a new CLABE, or 200 `created: false` with the existing account (then email is not required). " +
        "Needs a shop-bound credential (merchant-wide: 400). Missing email (or phone where the shop requires it): 400 invalid_request with `details.required`."
    ),
    HttpApiEndpoint.get("list", "/me/deposit-accounts", {
      query: { ...Page, endUserRef: Schema.optional(Schema.String), include: Schema.optional(Schema.Literal("stats")) },
      success: Schema.Struct({
        accounts: Schema.Array(DepositAccountView),
        pagination: Schema.Struct({ total: Schema.Int, limit: Schema.Int, offset: Schema.Int })
      })
    }).annotate(OpenApi.Description, "Newest first; `limit` 1 to 200 (default 50), clamped."),
    HttpApiEndpoint.get("get", "/me/deposit-accounts/:id", {
      params: Id,
      success: Schema.Struct({ account: DepositAccountView })
    }),
    HttpApiEndpoint.get("deposits", "/me/deposit-accounts/:id/deposits", {
      params: Id,
      query: Page,
      success: Schema.Struct({ deposits: Schema.Array(DepositView), pagination: Pagination })
    }).annotate(OpenApi.Description, `Transfers received by the account, newest first. ${creditEvent}`),
    HttpApiEndpoint.post("simulate", "/me/deposit-accounts/:id/simulate-deposit", {
      params: Id,
      payload: Schema.Struct({
        amount: Amount,
        payerName: Schema.optional(Text(200)),
        trackingKey: Schema.optional(Text(60)).annotate({ description: "Send the same key twice to see a duplicate notification credit once" })
      }),
      success: Schema.Struct({ created: Schema.Boolean, deposit: DepositView }).pipe(HttpApiSchema.status(201))
    }).annotate(OpenApi.Description, `Sandbox only (production: 400 simulate_sandbox_only): a transfer to the account as the network would report it. ${creditEvent}`)
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Deposit accounts")
  .pipe(withErrors({
    methods: secretKey,
    getOrCreate: [...secretKey, "deposit_accounts_unavailable", "deposit_method_required", "deposit_method_unavailable"],
    list: secretKey,
    get: secretKey,
    deposits: secretKey,
    simulate: [...secretKey, "simulate_sandbox_only", "amount_out_of_limits", "fx_unavailable"]
  }))
{}

export class DepositNotificationsApi extends HttpApiGroup.make("depositNotifications")
  .add(
    HttpApiEndpoint.post("notify", "/deposits/notifications/:depositMethodId", {
      params: { depositMethodId: Schema.String },
      success: Schema.Struct({ received: Schema.Boolean, credited: Schema.Boolean, deposit: DepositView })
    }).annotate(
      OpenApi.Description,
      "Inbound transfer notifications of the deposit network: JSON `{ clabe, amount, currency, trackingKey, payerName, payerBank?, payerAccount? }` " +
        "signed `X-Deposit-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">`; unsigned or badly signed: 401."
    )
  )
  .annotate(OpenApi.Title, "Deposit network")
  .pipe(withErrors({
    notify: [...signed, "amount_out_of_limits", "fx_unavailable"]
  }))
{}

export class DepositAdminApi extends HttpApiGroup.make("depositAdmin")
  .add(
    HttpApiEndpoint.get("getSettings", "/shops/:shopId/deposit-settings", {
      params: { shopId: Schema.String },
      query: { environment: Environment },
      success: Schema.Struct({ environment: Environment, shopId: Schema.String, depositMethodIds: Schema.Array(Schema.String), requirePhone: Schema.Boolean })
    }),
    HttpApiEndpoint.put("putSettings", "/shops/:shopId/deposit-settings", {
      params: { shopId: Schema.String },
      payload: Schema.Struct({ environment: Environment, depositMethodIds: Schema.Array(Schema.String), requirePhone: Schema.optional(Schema.Boolean) }),
      success: Schema.Struct({ environment: Environment, shopId: Schema.String, depositMethodIds: Schema.Array(Schema.String), requirePhone: Schema.Boolean })
    }).annotate(OpenApi.Description, "Enables deposit methods for a shop (mx_spei_stp, mx_spei_arcus) and whether creating an account needs a phone."),
    HttpApiEndpoint.put("setAccountStatus", "/deposit-accounts/:id/status", {
      params: Id,
      payload: Schema.Struct({ status: Schema.Literals(["active", "disabled"]) }),
      success: Schema.Struct({ account: DepositAccountView })
    }).annotate(OpenApi.Description, "Support staff disable or re-enable an account; no merchant API changes its status.")
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: deposit accounts")
  .pipe(withErrors({
    getSettings: admin,
    putSettings: admin,
    setAccountStatus: admin
  }))
{}
