/**
 * `payment-orchestration-engine/providers/conformance`: the conformance suites every provider
 * plugin runs against its upstream (`providerConformance` for pay-ins, `payoutConformance` for
 * payouts). They register `@effect/vitest` tests, so importing this needs `vitest` and
 * `@effect/vitest` installed (optional peer dependencies of the package).
 */
export {
  type ChargeRef,
  type ConformanceHarness,
  type ConformanceOptions,
  defaultChargeRequest,
  notificationsDuring,
  providerConformance,
  type RefundControls,
  type SentNotification
} from "./ProviderConformance.ts"
export { type PayoutConformanceOptions, type PayoutHarness, type PayoutRef, payoutConformance, type SendRequest } from "./PayoutConformance.ts"
