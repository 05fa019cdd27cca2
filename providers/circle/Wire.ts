/**
 * Circle's transfer API (Circle Mint, `https://api.circle.com`, sandbox
 * `https://api-sandbox.circle.com`) as the settlement payout connector uses it, as Schemas, with
 * the status map, and the AWS SNS envelope Circle's notifications arrive in. Field names are those
 * of Circle's OpenAPI document as shipped in the official Node SDK (`@circle-fin/circle-sdk`
 * 2.9.0, `sdk.json` and `src/generated/models/*.ts`) and of the API reference
 * (https://developers.circle.com/api-reference/circle-mint/account/create-transfer,
 * https://developers.circle.com/api-reference/circle-mint/account/get-transfer).
 *
 * | call         | request                                                     | answer |
 * |--------------|-------------------------------------------------------------|--------|
 * | create       | `POST /v1/transfers` {@link TransferBody}                   | `201` `{ data: ` {@link Transfer} `}` |
 * | get          | `GET /v1/transfers/{id}`                                    | `200` `{ data: ` {@link Transfer} `}` |
 * | notification | SNS `POST`s {@link SnsEnvelope}; `Message` is {@link Notification} | `2xx` |
 * | errors       | any call                                                    | `4xx/5xx` {@link ErrorBody} |
 *
 * Every call carries `Authorization: Bearer <API key>`. Amounts are decimal text (`"3.14"`), never
 * JSON numbers. Statuses and error codes are read as plain strings, so one this connector has never
 * seen still decodes (and maps to `pending`).
 */
import { Schema } from "effect"
import type { SettlementPayoutStatus } from "../../core/ports/SettlementPayoutProvider.ts"
import { type StatusMap, statusOf } from "../kit/StatusMap.ts"

const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))

/** Circle's base URLs (the SDK's `CircleEnvironments`). */
export const baseUrls = {
  production: "https://api.circle.com",
  sandbox: "https://api-sandbox.circle.com"
} as const

/**
 * The chains of Circle's `Chain` enum (SDK `models/chain.ts`): the names a destination's `chain`
 * takes. Polygon is `POLY` (not `MATIC`).
 */
export const chains = [
  "ALGO", "ARB", "AVAX", "BASE", "BTC", "CELO", "ETH", "FLOW", "HBAR", "NEAR", "NOBLE", "OP", "PAH", "POLY", "SOL", "TRX", "XLM"
] as const

/** `Money`: `amount` is "magnitude of the amount, in units of the currency, with a `.`". */
export const Money = Schema.Struct({
  amount: Text,
  currency: Text
})

/** `TransferCreationRequest` with a wallet source and a blockchain destination. */
export const TransferBody = Schema.Struct({
  idempotencyKey: Schema.String,
  source: Schema.Struct({ type: Schema.Literal("wallet"), id: Schema.String }),
  destination: Schema.Struct({
    type: Schema.Literal("blockchain"),
    address: Schema.String,
    chain: Schema.String,
    addressTag: Schema.optionalKey(Schema.NullOr(Schema.String))
  }),
  amount: Schema.Struct({ amount: Schema.String, currency: Schema.Literal("USD") })
})
export type TransferBody = typeof TransferBody.Type

/**
 * The chains Circle names for the Travel Rule on third-party transfers of 3,000 USD or more
 * (https://developers.circle.com/circle-mint/travel-rule-on-chain: ETH, SOL, XLM, AVAX, POLY,
 * CELO, ARB, NEAR, BASE, APTOS, XRPL; the older text of the page also names BTC).
 */
export const travelRuleChains: ReadonlyArray<string> = ["ETH", "SOL", "XLM", "AVAX", "POLY", "CELO", "ARB", "NEAR", "BASE", "APTOS", "XRPL", "BTC"]

/** The Travel Rule threshold, USD: "$3,000 in value or more" (the same page). */
export const travelRuleThresholdUsd = 3000

/** `IdentityAddress` (SDK `models/identity-address.ts`). */
export const IdentityAddress = Schema.Struct({
  line1: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(1024))),
  line2: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(1024)))),
  city: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(1024))),
  district: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(16))),
  postalCode: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(16))),
  country: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Z]{2}$/)))
})

/**
 * `Identity`, "the identity of the originator" (SDK `models/identity.ts`): sent in
 * `source.identities` of a transfer the Travel Rule applies to.
 */
export const Identity = Schema.Struct({
  type: Schema.Literals(["individual", "business"]),
  name: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(1024))),
  addresses: Schema.Array(IdentityAddress).pipe(Schema.check(Schema.isMinLength(1)))
})
export type Identity = typeof Identity.Type

/**
 * `BusinessRecipientAddressCreationRequest`: `POST /v1/businessAccount/wallets/addresses/recipient`,
 * an entry of the account's address book (it must then be verified by the account's administrator).
 */
export const RecipientBody = Schema.Struct({
  idempotencyKey: Schema.String,
  address: Schema.String,
  chain: Schema.String,
  currency: Schema.Literal("USD"),
  description: Schema.String
})
export type RecipientBody = typeof RecipientBody.Type

/** `BusinessRecipientAddressObject` (statuses read as plain strings: `active`, `pending_verification`, ...). */
export const Recipient = Schema.Struct({
  id: Schema.NonEmptyString.pipe(Schema.check(Schema.isMaxLength(128))),
  address: Text,
  addressTag: Schema.optionalKey(Schema.NullOr(Text)),
  chain: Text,
  currency: Schema.optionalKey(Schema.NullOr(Text)),
  description: Schema.optionalKey(Text),
  status: Schema.optionalKey(Text)
})
export type Recipient = typeof Recipient.Type

export const RecipientAnswer = Schema.Struct({ data: Recipient })
/** `GET /v1/businessAccount/wallets/addresses/recipient`: only the verified entries ("pending ... are not included"). */
export const RecipientList = Schema.Struct({ data: Schema.Array(Recipient) })

/**
 * `BusinessTransferCreationRequest`: `POST /v1/businessAccount/transfers` to an address book
 * entry (`verified_blockchain` by `addressId`). `source` is in the API reference's request example
 * (https://developers.circle.com/api-reference/circle-mint/account/create-business-transfer), not
 * in the SDK 2.9.0 model; `source.identities` is the Travel Rule's originator, as on `/v1/transfers`.
 */
export const BusinessTransferBody = Schema.Struct({
  idempotencyKey: Schema.String,
  source: Schema.Struct({ type: Schema.Literal("wallet"), id: Schema.String, identities: Schema.optionalKey(Schema.Array(Identity)) }),
  destination: Schema.Struct({ type: Schema.Literal("verified_blockchain"), addressId: Schema.String }),
  amount: Schema.Struct({ amount: Schema.String, currency: Schema.Literal("USD") })
})
export type BusinessTransferBody = typeof BusinessTransferBody.Type

/**
 * The address book entry statuses Circle documents: `active`, `pending_verification` and
 * `verification_succeeded` (`BusinessRecipientAddressObjectStatusEnum` in `@circle-fin/circle-sdk`,
 * https://developers.circle.com/api-reference/circle-mint/account/list-business-recipient-addresses),
 * and the refusals of the recipient state-change notification (the `mintAddressBookRecipients`
 * webhook: `denied`, `inactive`, `failed`, `disabled`).
 */
export const DocumentedRecipientStatus = Schema.Literals([
  "active",
  "pending_verification",
  "verification_succeeded",
  "denied",
  "inactive",
  "failed",
  "disabled"
])
export type DocumentedRecipientStatus = typeof DocumentedRecipientStatus.Type
export const recipientStatuses = DocumentedRecipientStatus.literals

/**
 * An address book entry's state as the engine shows it: `active` is approved; Circle's refusals
 * are denied; anything else (a verification under way or just passed, not yet `active`, or a
 * status Circle adds later) waits for the administrator.
 */
export const recipientStatusMap = {
  active: "approved",
  pending_verification: "pending",
  verification_succeeded: "pending",
  denied: "denied",
  inactive: "denied",
  failed: "denied",
  disabled: "denied"
} satisfies StatusMap<typeof DocumentedRecipientStatus, "approved" | "pending" | "denied">

export const approvalOf = (status: string | undefined): "approved" | "pending" | "denied" =>
  statusOf(recipientStatusMap, status, "pending")

/** A transfer's source or destination (`wallet` with `id`, `blockchain` with `address` and `chain`). */
export const Location = Schema.Struct({
  type: Text,
  id: Schema.optionalKey(Text),
  address: Schema.optionalKey(Text),
  addressTag: Schema.optionalKey(Schema.NullOr(Text)),
  chain: Schema.optionalKey(Text)
})

/** `Transfer` / `TransferDetailedTransfer` (the fields read). */
export const Transfer = Schema.Struct({
  id: Schema.NonEmptyString.pipe(Schema.check(Schema.isMaxLength(128))),
  source: Location,
  destination: Location,
  amount: Money,
  transactionHash: Schema.optionalKey(Schema.NullOr(Text)),
  status: Text,
  errorCode: Schema.optionalKey(Schema.NullOr(Text)),
  createDate: Schema.optionalKey(Text)
})
export type Transfer = typeof Transfer.Type

/** `CreateTransferResponse` and `GetTransferResponse`. */
export const TransferAnswer = Schema.Struct({ data: Transfer })

/** Circle's error body (`BadRequest`, `NotAuthorized`, `NotFound`, `Conflict`...): `{ code, message }`. */
export const ErrorBody = Schema.Struct({
  code: Schema.Number,
  message: Text
})

/**
 * The transfer statuses Circle documents: `pending`, `complete`, `failed` (`Transfer.status`,
 * `TransferStatusEnum` and `TransferDetailedTransferStatusEnum` in `@circle-fin/circle-sdk`:
 * "`pending` indicates that the transfer is in the process of running; `complete` indicates it
 * finished successfully; `failed` indicates it failed",
 * https://developers.circle.com/api-reference/circle-mint/account/create-business-transfer).
 */
export const DocumentedTransferStatus = Schema.Literals(["pending", "complete", "failed"])
export type DocumentedTransferStatus = typeof DocumentedTransferStatus.Type
export const transferStatuses = DocumentedTransferStatus.literals

/**
 * Only `complete` and `failed` are verdicts; `pending` and anything Circle adds later stay
 * `pending` (only an explicit verdict moves money).
 */
export const transferStatusMap = {
  pending: "pending",
  complete: "complete",
  failed: "failed"
} satisfies StatusMap<typeof DocumentedTransferStatus, SettlementPayoutStatus>

export const toStatus = (status: string): SettlementPayoutStatus => statusOf(transferStatusMap, status, "pending")

/**
 * An Amazon SNS message as POSTed to an HTTP(S) subscriber
 * (https://docs.aws.amazon.com/sns/latest/dg/sns-message-and-json-formats.html).
 */
export const SnsEnvelope = Schema.Struct({
  Type: Text,
  MessageId: Text,
  TopicArn: Text,
  Message: Schema.String,
  Timestamp: Text,
  SignatureVersion: Text,
  Signature: Text,
  SigningCertURL: Text,
  Subject: Schema.optionalKey(Schema.String),
  Token: Schema.optionalKey(Text),
  SubscribeURL: Schema.optionalKey(Text),
  UnsubscribeURL: Schema.optionalKey(Text)
})
export type SnsEnvelope = typeof SnsEnvelope.Type

/**
 * Circle's notification, the JSON text in an SNS `Notification`'s `Message`
 * (https://developers.circle.com/circle-mint/notifications-data-models):
 * `{ clientId, notificationType: "transfers", version, transfer: {...} }`. Only the transfer's `id`
 * is read: the connector then asks Circle about it.
 */
export const Notification = Schema.Struct({
  notificationType: Text,
  clientId: Schema.optionalKey(Text),
  version: Schema.optionalKey(Schema.Unknown),
  transfer: Schema.optionalKey(Schema.Struct({ id: Schema.NonEmptyString.pipe(Schema.check(Schema.isMaxLength(128))) }))
})

/**
 * The string SNS signs (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message-verify-message-signature.html):
 * for a `Notification`, `Message`, `MessageId`, `Subject` (only when present), `Timestamp`,
 * `TopicArn`, `Type`; for a `SubscriptionConfirmation` or `UnsubscribeConfirmation`, `Message`,
 * `MessageId`, `SubscribeURL`, `Timestamp`, `Token`, `TopicArn`, `Type`. Each as `name\nvalue\n`,
 * in that (byte) order. `undefined` for another `Type` or a missing field.
 */
export const stringToSign = (envelope: SnsEnvelope): string | undefined => {
  const names: ReadonlyArray<keyof SnsEnvelope> | undefined = envelope.Type === "Notification"
    ? ["Message", "MessageId", ...(envelope.Subject === undefined ? [] : ["Subject" as const]), "Timestamp", "TopicArn", "Type"]
    : envelope.Type === "SubscriptionConfirmation" || envelope.Type === "UnsubscribeConfirmation"
    ? ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]
    : undefined
  if (names === undefined) return undefined
  let text = ""
  for (const name of names) {
    const value = envelope[name]
    if (value === undefined) return undefined
    text += `${name}\n${value}\n`
  }
  return text
}
