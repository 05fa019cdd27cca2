/**
 * How an endpoint states the error codes it can answer: each group of `*Api.ts` ends with
 * `.pipe(withErrors({ endpoint: [...codes] }))`, naming every one of its endpoints, built from the
 * shared sets below; `operationErrorsOf` reads them back by operation id. Everything else takes
 * the codes from there (`OperationErrors.ts`): the OpenAPI error responses, the handlers'
 * `documented(...)` and the test host's contract check (which reads the documents).
 *
 * What every request can meet (`everyRequest`) and what an operation's shape brings (a JSON
 * body's `jsonBody`, an `Idempotency-Key` header's `idempotent`, a path parameter's
 * `pathParameter`) are added to every operation by its shape, so an endpoint need not list them.
 */
import { Context } from "effect"
import type { HttpApiGroup } from "effect/http-api"
import type { ErrorCode } from "../../../core/ApiError.ts"

export type Codes = ReadonlyArray<ErrorCode>

export const everyRequest = ["invalid_request", "payload_too_large", "internal_error"] as const satisfies Codes
export const jsonBody = ["unsupported_media_type"] as const satisfies Codes
export const idempotent = ["idempotency_key_reused", "idempotency_key_in_progress"] as const satisfies Codes
export const pathParameter = ["not_found"] as const satisfies Codes
/** Answered for a path, whatever its operations: a method none of them has. */
export const anyPath = ["method_not_allowed"] as const satisfies Codes

/** A bearer API key or access token: a raw key also draws from the address's login allowance. */
export const anyKey = ["missing_authorization", "invalid_api_key", "token_expired", "token_revoked", "rate_limited", "permission_denied"] as const satisfies Codes
/** A secret key, and the shop or merchant the request names or defaults to (404 when it is not the credential's). */
export const secretKey = [...anyKey, "secret_key_required", "not_found"] as const satisfies Codes
/**
 * The operator's token; 404 `not_found` also when the host has no `ADMIN_TOKEN` (the admin API is
 * off); a wrong token draws from the address's login allowance (429 once it is spent).
 */
export const admin = ["invalid_api_key", "not_found", "rate_limited"] as const satisfies Codes
/** A signed notification from a provider or a network, to a path naming it. */
export const signed = ["authentication_failed", "not_found"] as const satisfies Codes

/** A card sent with a payment (or a card rail without one): checked with the vault before anything is written. */
export const card = ["card_required", "card_not_accepted", "card_token_not_found", "card_brand_mismatch", "card_expired", "card_vault_unavailable"] as const satisfies Codes
/** `capture: false` (authorize only) on a create: card rails only, and a provider that can capture later. */
export const authorizeOnly = ["capture_requires_card", "capture_not_supported"] as const satisfies Codes
/** `installments` on a create (`core/payments/Installments.ts`): card rails only, interest paid by the merchant, a count the country allows. */
export const installments = ["installments_not_accepted", "installment_interest_not_supported", "installments_invalid"] as const satisfies Codes
export const payIn = [
  "cascade_exhausted",
  "provider_outcome_unknown",
  "amount_out_of_limits",
  "fx_unavailable",
  "missing_required_fields",
  ...card,
  ...authorizeOnly,
  ...installments
] as const satisfies Codes
/** Capturing or voiding an authorization (`POST /payments/{id}/capture`, `/void`). */
export const settleAuthorization = [
  ...secretKey,
  ...idempotent,
  "payment_not_authorized",
  "capture_declined",
  "capture_failed",
  "provider_outcome_unknown"
] as const satisfies Codes
export const capture = [...settleAuthorization, "capture_amount_exceeds_authorized"] as const satisfies Codes
/** A chargeback opened on an existing payment (operator, sandbox rehearsal). */
export const lateChargeback = ["chargeback_already_opened", "chargeback_not_allowed", "chargeback_nothing_remaining"] as const satisfies Codes
export const refund = [...secretKey, ...idempotent, "refund_not_allowed", "refund_amount_exceeds_remaining", "balance_insufficient", "amount_rounds_to_zero"] as const satisfies Codes

/** A group's codes, by endpoint name: the annotation `withErrors` puts on the group. */
export class GroupErrors extends Context.Service<GroupErrors, Readonly<Record<string, Codes>>>()("adapters/http/api/EndpointErrors/GroupErrors") {}

declare const declared: unique symbol
/**
 * A group that has stated its endpoints' codes, as the type sees it (`T` by endpoint name). Only
 * a type: the value carries them as its `GroupErrors` annotation, which survives the prefixes,
 * middlewares and annotations the API adds, while these types do not.
 */
export interface Declares<T extends Readonly<Record<string, Codes>> = Readonly<Record<string, Codes>>> {
  readonly [declared]: T
}

type EndpointName<G extends HttpApiGroup.Constraint> = keyof G["endpoints"] & string

/**
 * No requirement when `T` names exactly the endpoints of `G`, else a property the group lacks,
 * whose name the compiler's message shows: "no errors stated for endpoint x", "x is no endpoint of the group".
 */
type Complete<G extends HttpApiGroup.Constraint, T> =
  & { readonly [E in Exclude<EndpointName<G>, keyof T> as `no errors stated for endpoint ${E}`]: never }
  & { readonly [E in Exclude<keyof T & string, EndpointName<G>> as `${E} is no endpoint of the group`]: never }

/**
 * States the codes of each endpoint of a group (its own: what every request or its shape brings is
 * added by `OperationErrors.ts`). Applied last (`.pipe(withErrors({...}))`): every endpoint is
 * there by then, and a later `.middleware` or `.prefix` would rebuild the group's type without
 * what this states. An endpoint left out, or a name that is no endpoint, does not compile.
 */
export const withErrors = <const T extends Readonly<Record<string, Codes>>>(errors: T) =>
<G extends HttpApiGroup.Constraint>(group: G & Complete<G, T>): G & Declares<T> =>
  (group as unknown as HttpApiGroup.Top).annotate(GroupErrors, errors) as unknown as G & Declares<T>

/** Each operation's own codes, by operation id (`group.endpoint`, the document's `operationId`). */
export type OperationErrors = Readonly<Record<string, Codes>>

/** A group whose definition states its endpoints' codes (`withErrors`). */
type DeclaringGroup = HttpApiGroup.Constraint & Declares & { readonly annotations: Context.Context<never> }

/**
 * The codes of every endpoint of `groups`, by operation id, from each group's `withErrors`: a group
 * without them, or one leaving an endpoint out, fails here, naming it (the types already refuse both).
 */
export const operationErrorsOf = (groups: ReadonlyArray<DeclaringGroup>): OperationErrors =>
  Object.fromEntries(groups.flatMap((group) => {
    const declared = Context.getOrUndefined(group.annotations, GroupErrors)
    return Object.keys(group.endpoints).map((endpoint) => {
      const codes = declared?.[endpoint]
      if (codes === undefined) throw new Error(`no errors stated for ${group.identifier}.${endpoint} (its group's withErrors)`)
      return [`${group.identifier}.${endpoint}`, codes] as const
    })
  }))
