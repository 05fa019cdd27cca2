/**
 * `payment-orchestration-engine/core` (also the package root): the engine as one layer, its
 * config and its services, and the domain modules as namespaces. Depends on `effect` only.
 *
 * ```ts
 * import { Engine, EngineConfig, Merchants, Money } from "payment-orchestration-engine/core"
 * ```
 */
export { Engine, type EngineParts, Foundation, FoundationTest } from "./Engine.ts"
export { baseUrlOf, developmentSecrets, EngineConfig, isDevelopmentSecret } from "./EngineConfig.ts"
export { ApiError, ErrorCatalog, type ErrorCode, errorCodes } from "./ApiError.ts"
export { Environment } from "./Environment.ts"
export { Ids } from "./Ids.ts"
export * as Money from "./Money.ts"
export * as Country from "./Country.ts"
export * as Signatures from "./Signatures.ts"

// Services, each a `Context.Service` with its `layer` (all provided by `Engine.layer`).
export { Auth, type TokenPair } from "./auth/Auth.ts"
export { CurrentPrincipal, type Principal } from "./auth/Principal.ts"
export { Balances } from "./balances/Balances.ts"
export { Swaps } from "./balances/Swaps.ts"
export { Withdrawals } from "./balances/Withdrawals.ts"
export { Catalog, type CatalogEntry, type CatalogFilter } from "./catalog/Catalog.ts"
export type { PaymentMethodDef } from "./catalog/PaymentMethod.ts"
export { findMethod, methodsForCountry, paymentMethods } from "./catalog/methods.ts"
export { Checkout } from "./checkout/Checkout.ts"
export type { ConnectorAccount } from "./connectors/ConnectorAccount.ts"
export {
  type AccountActor,
  type ConnectorAccountChange,
  ConnectorAccounts,
  type NewConnectorAccount
} from "./connectors/ConnectorAccounts.ts"
export { ConnectorKinds } from "./ports/ConnectorKinds.ts"
export { Refunds, Refunds as Claims } from "./refunds/Refunds.ts"
export { SandboxClocks } from "./clock/SandboxClocks.ts"
export { ShopClocks } from "./clock/ShopClocks.ts"
export { Deposits } from "./deposits/Deposits.ts"
export { Fx } from "./fx/Fx.ts"
export { type Answered, Executed, Idempotency, type KeyHandle } from "./idempotency/Idempotency.ts"
export { Jobs } from "./jobs/Jobs.ts"
export { Ledger } from "./ledger/Ledger.ts"
export type { Payment } from "./payments/Payment.ts"
export { Payments } from "./payments/Payments.ts"
export { ProviderRegistry } from "./ports/ProviderRegistry.ts"
export { Routing } from "./routing/Routing.ts"
export type { Payout } from "./payouts/Payout.ts"
export type { PayoutMethodDef } from "./payouts/PayoutMethod.ts"
export { payoutMethods } from "./payouts/payoutMethods.ts"
export { Payouts } from "./payouts/Payouts.ts"
export type { Merchant, Shop, Tier } from "./tenancy/Merchant.ts"
export { type KeyPair, Merchants, type NewMerchant, type Onboarded } from "./tenancy/Merchants.ts"
export { Scopes } from "./tenancy/Scopes.ts"
export { Events } from "./webhooks/Events.ts"
export { type EventType, eventTypes } from "./webhooks/Webhook.ts"
export { Webhooks } from "./webhooks/Webhooks.ts"
export { type Verification, verifyWebhook } from "./webhooks/verifyWebhook.ts"
