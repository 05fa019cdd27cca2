/**
 * A connector account: one account at a provider (a kind of connector, `core/ports/ConnectorKinds.ts`)
 * in one environment, made through the API rather than the host's `CONNECTORS`. Its id is the
 * provider id routes, routing rules, payments and callback URLs name
 * (`/providers/{id}/callbacks`): two merchants' accounts at one provider are two providers, each
 * verifying its callbacks with its own secret.
 */
import { Schema } from "effect"
import { Environment } from "../Environment.ts"

/** One secret as it is stored: sealed (`Sealing`, context `connector-account:<id>:<name>`) and fingerprinted. */
export const StoredSecret = Schema.Struct({
  sealed: Schema.String,
  /** The first 16 hex digits of a MAC of the value under the host's key: tells two values apart, reveals neither. */
  fingerprint: Schema.String
})
export type StoredSecret = typeof StoredSecret.Type

/** The outcome of the credential check made when the account's credentials were saved. */
export const CredentialCheck = Schema.Struct({
  at: Schema.DateTimeUtc,
  /** `passed`: the provider accepted the credentials; `refused`: it did not; `unreachable`: it could not tell. */
  outcome: Schema.Literals(["passed", "refused", "unreachable"]),
  /** The provider's code (`invalid_credentials`, `network_error`, ...), null when it passed. */
  code: Schema.NullOr(Schema.String),
  message: Schema.String
})
export type CredentialCheck = typeof CredentialCheck.Type

export const ConnectorAccountStatus = Schema.Literals(["active", "disabled"])

export const ConnectorAccount = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  environment: Environment,
  name: Schema.String,
  /** The merchant whose account it is; null for the operator's (shared) account. */
  merchantId: Schema.NullOr(Schema.String),
  /** The shops it serves; null (operator's accounts only) for any shop a route or rule names it for. */
  shopIds: Schema.NullOr(Schema.Array(Schema.String)),
  /** `disabled`: takes no new payment, still answers for the payments on it. */
  status: ConnectorAccountStatus,
  baseUrl: Schema.NullOr(Schema.String),
  timeoutMs: Schema.NullOr(Schema.Int),
  /** The connector's plain settings, by name. */
  values: Schema.Record(Schema.String, Schema.String),
  secrets: Schema.Record(Schema.String, StoredSecret),
  lastCheck: Schema.NullOr(CredentialCheck),
  /** 1 when made, one more at every change: what replicas compare to rebuild its provider. */
  version: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
})
export type ConnectorAccount = typeof ConnectorAccount.Type

export const ConnectorAccountJson = Schema.toCodecJson(ConnectorAccount)
