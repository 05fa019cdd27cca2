import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Amount } from "../../../core/Money.ts"
import { PayoutAction, PayoutStatus } from "../../../core/payouts/Payout.ts"
import { Environment, IdempotencyHeaders, IsoDateTime, Text } from "./Fields.ts"
import { Pagination } from "./PaymentsApi.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, idempotent, secretKey, withErrors } from "./EndpointErrors.ts"

const Usd = Schema.Finite.annotate({ description: "USD, major units" })

export const WithdrawalView = Schema.Struct({
  id: Schema.String.annotate({ description: "`wdr_...`" }),
  currency: Schema.Literal("USD"),
  amount: Usd.annotate({ description: "Sent to the bank" }),
  fee: Usd.annotate({ description: "The tier's withdrawalFeeUsd, on top of amount; returned if the withdrawal fails" }),
  totalDebited: Usd.annotate({ description: "amount + fee, taken from the pay-in available balance" }),
  status: PayoutStatus,
  destination: Schema.Struct({
    accountHolder: Schema.String,
    bankName: Schema.String,
    accountNumber: Schema.String.annotate({ description: "Masked: the last 4 characters" }),
    swiftCode: Schema.NullOr(Schema.String)
  }),
  environment: Environment,
  createdAt: IsoDateTime,
  completedAt: Schema.NullOr(IsoDateTime),
  failureReason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Withdrawal" })

export const WithdrawalResult = Schema.Struct({ withdrawal: WithdrawalView })
const Id = { id: Schema.String }

export class WithdrawalsApi extends HttpApiGroup.make("withdrawals")
  .add(
    HttpApiEndpoint.post("create", "/me/withdrawals", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({
        amount: Amount.pipe(Schema.annotateEncoded({ description: "USD to send, at least 10; the fee is charged on top" })),
        destination: Schema.Struct({
          accountHolder: Text(140),
          bankName: Text(140),
          accountNumber: Text(64).annotate({ description: "IBAN or local account number, 4 to 34 letters or digits (spaces and dashes ignored)" }),
          swiftCode: Schema.optional(Schema.NullOr(Text(11)))
        })
      }),
      success: WithdrawalResult.pipe(HttpApiSchema.status(201))
    }).annotate(
      OpenApi.Description,
      "Withdraws USD from the pay-in available balance to the merchant's bank (a local-currency balance is swapped to USD first with POST /me/balance/swap). " +
        "amount + fee leave available at once, in one transaction with the withdrawal; status is processing until the bank transfer is confirmed (sandbox: simulate; " +
        "operator: POST /admin/v1/withdrawals/{id}/resolve). completed sends withdrawal.completed; failed returns amount and fee to available and sends withdrawal.failed with failureReason. " +
        "Errors: amount_invalid (below 10 USD or more than 2 decimals), invalid_request (destination, field by field), balance_insufficient (requested = amount + fee, available, shortfall, fee). Idempotency-Key as on POST /payments."
    ),
    HttpApiEndpoint.get("list", "/me/withdrawals", {
      query: { limit: Schema.optional(Schema.FiniteFromString), offset: Schema.optional(Schema.FiniteFromString), status: Schema.optional(PayoutStatus) },
      success: Schema.Struct({ data: Schema.Array(WithdrawalView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Newest first; limit 1 to 100 (default 50), clamped."),
    HttpApiEndpoint.get("get", "/me/withdrawals/:id", { params: Id, success: WithdrawalResult }),
    HttpApiEndpoint.post("simulate", "/me/withdrawals/:id/simulate", {
      params: Id,
      payload: Schema.Struct({ action: PayoutAction }),
      success: WithdrawalResult
    }).annotate(OpenApi.Description, "Sandbox only (production: 400 simulate_sandbox_only): completed/paid complete a processing withdrawal; failed/rejected/refunded/returned fail it; processing changes nothing. A final withdrawal refuses every action (400 invalid_request).")
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Withdrawals")
  .pipe(withErrors({
    create: [...secretKey, ...idempotent, "amount_invalid", "balance_insufficient"],
    list: secretKey,
    get: secretKey,
    simulate: [...secretKey, "simulate_sandbox_only"]
  }))
{}

export class WithdrawalAdminApi extends HttpApiGroup.make("withdrawalAdmin")
  .add(
    HttpApiEndpoint.post("resolve", "/withdrawals/:id/resolve", {
      params: Id,
      payload: Schema.Struct({ status: Schema.Literals(["completed", "failed"]), failureReason: Schema.optional(Text(200)) }),
      success: WithdrawalResult
    }).annotate(OpenApi.Description, "The operator records the bank's answer for a processing withdrawal, in either environment.")
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Admin: withdrawals")
  .pipe(withErrors({
    resolve: admin
  }))
{}
