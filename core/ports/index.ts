/**
 * `payment-orchestration-engine/ports`: what the engine needs from the outside. The provider
 * ports (`PaymentProvider`, `PayoutProvider`) are what a provider plugin implements; the storage
 * ports are what a store adapter implements (`store/memory` and `store/sql` implement them all).
 * Depends on `effect` only.
 */
export {
  CallbackRejected,
  BuyerAddress,
  type ChargeAccepted,
  type NextAction,
  type ChargeCustomer,
  chargeCustomer,
  type ChargeRequest,
  type ChargeStatus,
  type ChargeUpdate,
  Declined,
  Failed,
  Misconfigured,
  OutcomeUnknown,
  type PaymentProvider,
  ProviderError,
  type ProviderErrorFields,
  ProviderFailure,
  type RefundOutcome,
  type RefundRequest,
  type RefundStatus,
  SandboxSimulate
} from "./PaymentProvider.ts"
export { ProviderRegistry, type ProviderScope } from "./ProviderRegistry.ts"
export { type ConnectorKind, ConnectorKinds, type ConnectorSettings } from "./ConnectorKinds.ts"
export {
  type PayoutProvider,
  PayoutProviders,
  PayoutProviderUnavailable,
  PayoutRejected,
  type PayoutUpdate
} from "./PayoutProvider.ts"
export {
  type ChainDestination,
  type SettlementPayoutProvider,
  SettlementPayoutProviders,
  SettlementPayoutRejected,
  type SettlementPayoutRequest,
  type SettlementPayoutStatus,
  SettlementPayoutUnavailable,
  type SettlementPayoutUpdate
} from "./SettlementPayoutProvider.ts"
export { Sealing } from "./Sealing.ts"
export {
  BodyHmacPlaceholder,
  CardBrand,
  CardDescription,
  CardPlaceholders,
  CardTokenNotFound,
  CardVault,
  type ChargeCard,
  ForwardOutcomeUnknown,
  ForwardRefused,
  ForwardRequest,
  ForwardResponse,
  ForwardUnreachable,
  securityCodeUse
} from "./CardVault.ts"
export { CardDecline, cardDeclineOf, HardCardDecline, isHardDecline, SoftCardDecline } from "./CardDeclines.ts"
export { type AccessClaims, TokenExpired, TokenInvalid, TokenSigner } from "./TokenSigner.ts"
export { type SendResult, WebhookSender } from "./WebhookSender.ts"

// Storage.
export { type Access, AccessStore } from "./AccessStore.ts"
export { CheckoutSessionStore } from "./CheckoutSessionStore.ts"
export { RefundStore } from "./RefundStore.ts"
export { CredentialStore } from "./CredentialStore.ts"
export { DepositStore } from "./DepositStore.ts"
export { type FxRate, FxRateStore } from "./FxRateStore.ts"
export { IdempotencyStore } from "./IdempotencyStore.ts"
export { type Job, JobStore } from "./JobStore.ts"
export { GuardViolation, LedgerStore } from "./LedgerStore.ts"
export { type OutboxEvent, OutboxStore } from "./OutboxStore.ts"
export { PaymentStore } from "./PaymentStore.ts"
export { PayoutStore } from "./PayoutStore.ts"
export { ConnectorAccountStore } from "./ConnectorAccountStore.ts"
export { type ProviderRoute, ProviderRouteStore } from "./ProviderRouteStore.ts"
export { RoutingStore } from "./RoutingStore.ts"
export { SandboxClockStore } from "./SandboxClockStore.ts"
export { SettingsStore } from "./SettingsStore.ts"
export { type ConsoleSession, ConsoleSessionStore } from "./ConsoleSessionStore.ts"
export { TenancyStore } from "./TenancyStore.ts"
export { Conflict, Transactions } from "./Transactions.ts"
export { WebhookStore } from "./WebhookStore.ts"
export { WithdrawalStore } from "./WithdrawalStore.ts"

// The values the provider ports speak in, so that a provider plugin takes from core only this
// entry and the package's root (`core/index.ts`, for the catalog's data).
export type { PaymentMethodDef, RequiredField } from "../catalog/PaymentMethod.ts"
export type { PayoutMethodDef } from "../payouts/PayoutMethod.ts"
export { Environment } from "../Environment.ts"
export * as Money from "../Money.ts"
export type { Currency } from "../Money.ts"
export { hmacSha256Hex, verifyHmacSha256Hex, verifySignature } from "../Signatures.ts"
