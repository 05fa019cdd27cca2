/**
 * A connector's status map, exhaustive by type as Hyperswitch's `From` mappings are: the statuses
 * its provider documents are one `Schema.Literals` in its `Wire.ts`, and the map is an object
 * literal that `satisfies StatusMap<typeof Documented, EngineStatus>`, so a documented status left
 * unmapped, or a key the provider does not document, does not compile
 * (test/providers/StatusMapTypes.test.ts proves both).
 *
 * ```ts
 * export const DocumentedPaymentStatus = Schema.Literals(["PENDING", "PAID", "REJECTED"])
 * export type DocumentedPaymentStatus = typeof DocumentedPaymentStatus.Type
 * export const paymentStatuses = DocumentedPaymentStatus.literals
 * export const paymentStatusMap = {
 *   PENDING: "pending",
 *   PAID: "completed",
 *   REJECTED: "failed"
 * } satisfies StatusMap<typeof DocumentedPaymentStatus, ChargeStatus>
 * export const toChargeStatus = (status: string) => statusOf(paymentStatusMap, status, "pending")
 * ```
 *
 * The wire field itself stays a plain string: a provider adds statuses without notice, and one
 * the connector has not seen must still decode. `statusOf` reads a status off the wire through
 * the map; a status the provider has not documented (or a missing one) is the fallback the
 * connector gives, never a success. Each connector's README lists the same map in its "Status
 * map" section (checked by test/providers/StatusTables.test.ts).
 */
import type { Schema } from "effect"

/** Every status of `Documented` (a `Schema.Literals` of the provider's words) to one engine status. */
export type StatusMap<Documented extends Schema.Literals<ReadonlyArray<string>>, V> = {
  readonly [S in Documented["Type"]]: V
}

export const statusOf = <K extends string, V>(
  map: Readonly<Record<K, V>>,
  status: string | null | undefined,
  fallback: V
): V => status !== null && status !== undefined && Object.hasOwn(map, status) ? map[status as K] : fallback
