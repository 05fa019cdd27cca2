/**
 * The engine's side of a report: its payments and refunds with the provider, as `EngineRecord`s,
 * read by the references the report names and the period it covers.
 */
import { BigDecimal, Effect } from "effect"
import type { Claim } from "../refunds/Claim.ts"
import type { Environment } from "../Environment.ts"
import * as Money from "../Money.ts"
import type { Payment } from "../payments/Payment.ts"
import type { ReportLine, ReportPeriod } from "../ports/ProviderReports.ts"
import type { ReconciliationStore } from "../ports/ReconciliationStore.ts"
import type { EngineRecord } from "./Matching.ts"

/** A payment as its provider's report should show it: the local amount charged, the fee booked, the headline owed. */
export const paymentRecord = (p: Payment): EngineRecord => ({
  kind: "payment",
  id: p.id,
  shopId: p.shopId,
  paymentId: null,
  providerRef: p.providerRef === "" ? null : p.providerRef,
  reference: `${p.id}:${p.provider}`,
  moved: p.completedAt !== null,
  status: p.status,
  amount: p.amountLocal,
  currency: p.currencyLocal,
  fee: { usd: BigDecimal.sum(p.fees.provider, p.fees.network), localPerUsd: p.fx.local.rate },
  clearingUsd: p.completedAt === null ? Money.zero : BigDecimal.negate(p.amount),
  movedAt: p.completedAt
})

/** A refund (a `user_dispute` claim) as the report should show it: paid once approved. */
export const refundRecord = (c: Claim): EngineRecord => ({
  kind: "refund",
  id: c.id,
  shopId: c.shopId,
  paymentId: c.transactionId,
  providerRef: c.providerRef,
  reference: c.id,
  moved: c.status === "approved",
  status: c.status,
  amount: c.amount,
  currency: c.currency,
  fee: null,
  clearingUsd: c.status === "approved" ? c.amountUsd : Money.zero,
  movedAt: c.status === "approved" ? c.resolvedAt : null
})

/** The records a report is about: those its lines name, and those that moved money in its period. */
export const recordsFor = Effect.fnUntraced(function*(
  store: ReconciliationStore["Service"],
  environment: Environment,
  provider: string,
  lines: ReadonlyArray<ReportLine>,
  period: ReportPeriod
) {
  const providerRefs = new Set<string>()
  const ids = new Set<string>()
  for (const l of lines) {
    if (l.providerRef !== null) providerRefs.add(l.providerRef)
    // An upstream key is `<engine id>:<provider id>`; a bare engine id is sent as the order reference.
    if (l.reference !== null) ids.add(l.reference.split(":")[0]!)
  }
  const found = yield* store.records(environment, provider, {
    providerRefs: [...providerRefs],
    ids: [...ids],
    movedFrom: period.start,
    movedTo: period.end
  })
  return [...found.payments.map(paymentRecord), ...found.refunds.map(refundRecord)]
})
