/**
 * The memory store: every storage port on one fresh in-memory database (`MemoryDb`), one file per
 * store, named after it. Each method body runs under `db.run`, so it sees and leaves a consistent
 * state, and joins an enclosing transaction.
 */
import { Effect, Layer } from "effect"
import { StoreHealth } from "../../../core/ports/StoreHealth.ts"
import { MemoryAccessStore } from "./MemoryAccessStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { MemoryJobStore } from "./MemoryJobStore.ts"
import { MemoryRoutingStore } from "./MemoryRoutingStore.ts"
import { MemorySandboxClockStore } from "./MemorySandboxClockStore.ts"
import { MemoryDepositStore } from "./MemoryDepositStore.ts"
import { MemoryWebhookStore } from "./MemoryWebhookStore.ts"
import { MemoryTenancyStore } from "./MemoryTenancyStore.ts"
import { MemoryAuditStore } from "./MemoryAuditStore.ts"
import { MemoryTeamStore } from "./MemoryTeamStore.ts"
import { MemoryConnectorAccountStore } from "./MemoryConnectorAccountStore.ts"
import { MemoryRequestLogStore } from "./MemoryRequestLogStore.ts"
import { MemoryCredentialStore } from "./MemoryCredentialStore.ts"
import { MemoryConsoleSessionStore } from "./MemoryConsoleSessionStore.ts"
import { MemorySettingsStore } from "./MemorySettingsStore.ts"
import { MemoryIdempotencyStore } from "./MemoryIdempotencyStore.ts"
import { MemoryFxRateStore } from "./MemoryFxRateStore.ts"
import { MemoryLedgerStore } from "./MemoryLedgerStore.ts"
import { MemoryPaymentStore } from "./MemoryPaymentStore.ts"
import { MemoryOutboxStore } from "./MemoryOutboxStore.ts"
import { MemoryProviderRouteStore } from "./MemoryProviderRouteStore.ts"
import { MemoryCheckoutSessionStore } from "./MemoryCheckoutSessionStore.ts"
import { MemoryRefundStore } from "./MemoryRefundStore.ts"
import { MemoryPayoutStore } from "./MemoryPayoutStore.ts"
import { MemoryWithdrawalStore } from "./MemoryWithdrawalStore.ts"
import { MemoryReconciliationStore } from "./MemoryReconciliationStore.ts"
import { MemorySettlementStore } from "./MemorySettlementStore.ts"

/** Every storage port on one fresh in-memory database. */
export const MemoryStore = {
  layer: Layer.mergeAll(
    MemoryDb.transactions,
    MemoryTenancyStore,
    MemoryCredentialStore,
    MemoryAuditStore,
    MemoryTeamStore,
    MemoryConnectorAccountStore,
    MemoryRequestLogStore,
    MemoryAccessStore,
    MemorySettingsStore,
    MemoryConsoleSessionStore,
    MemoryIdempotencyStore,
    MemoryJobStore,
    MemorySandboxClockStore,
    MemoryRoutingStore,
    MemoryFxRateStore,
    MemoryLedgerStore,
    MemoryPaymentStore,
    MemoryOutboxStore,
    MemoryProviderRouteStore,
    MemoryCheckoutSessionStore,
    MemoryRefundStore,
    MemoryPayoutStore,
    MemoryWithdrawalStore,
    MemorySettlementStore,
    MemoryReconciliationStore,
    MemoryWebhookStore,
    MemoryDepositStore,
    // In-process: it answers as long as the process does.
    Layer.succeed(StoreHealth, StoreHealth.of({ ping: Effect.void }))
  ).pipe(Layer.provide(MemoryDb.layer))
}
