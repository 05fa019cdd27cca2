/**
 * A status map is exhaustive by type: `tsc` (npm run typecheck, which includes test/) fails on
 * every line below marked `@ts-expect-error` unless that line does NOT compile, so these prove
 * that a documented status left unmapped, or an undocumented one mapped, is a compile error, for
 * the kit's `StatusMap` and for the connectors' own maps. The run-time half (an unknown status
 * read off the wire is the fallback) is test/providers/StatusTables.test.ts.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import type { ChargeStatus, ChargeUpdate, RefundStatus } from "../../core/ports/index.ts"
import * as DLocal from "../../providers/dlocal/Wire.ts"
import type { StatusMap } from "../../providers/kit/index.ts"
import * as MercadoPago from "../../providers/mercadopago/Wire.ts"
import * as Pagarme from "../../providers/pagarme/Wire.ts"

const Documented = Schema.Literals(["PENDING", "PAID", "REJECTED"])

const complete = {
  PENDING: "pending",
  PAID: "completed",
  REJECTED: "failed"
} satisfies StatusMap<typeof Documented, ChargeStatus>

const unmapped = {
  PENDING: "pending",
  PAID: "completed"
  // @ts-expect-error REJECTED is documented and not mapped
} satisfies StatusMap<typeof Documented, ChargeStatus>

const undocumented = {
  PENDING: "pending",
  PAID: "completed",
  REJECTED: "failed",
  // @ts-expect-error EXPIRED is not a documented status
  EXPIRED: "expired"
} satisfies StatusMap<typeof Documented, ChargeStatus>

const notAnEngineStatus = {
  PENDING: "pending",
  // @ts-expect-error "paid" is not an engine status
  PAID: "paid",
  REJECTED: "failed"
} satisfies StatusMap<typeof Documented, ChargeStatus>

// A status the provider starts documenting (added to the wire's Schema.Literals) does not compile
// until the connector's map says what it is.
const DLocalWidened = Schema.Literals([...DLocal.paymentStatuses, "PARTIALLY_PAID"])
// @ts-expect-error PARTIALLY_PAID is not in dLocal's payment map
const dlocalWidened: StatusMap<typeof DLocalWidened, ChargeUpdate["status"]> = DLocal.paymentStatusMap
const MercadoPagoWidened = Schema.Literals([...MercadoPago.refundStatuses, "partially_refunded"])
// @ts-expect-error partially_refunded is not in Mercado Pago's refund map
const mercadopagoWidened: StatusMap<typeof MercadoPagoWidened, RefundStatus> = MercadoPago.refundStatusMap
// And each connector's map is total over its own documented statuses.
const pagarme: StatusMap<typeof Pagarme.DocumentedChargeStatus, ChargeUpdate["status"]> = Pagarme.chargeStatusMap

describe("status maps are exhaustive by type", () => {
  it("the maps above exist as written (the proof is the typecheck)", () => {
    assert.deepStrictEqual(Object.keys(complete), [...Documented.literals])
    assert.strictEqual(Object.keys(unmapped).length, 2)
    assert.strictEqual(Object.keys(undocumented).length, 4)
    assert.strictEqual(notAnEngineStatus.PAID, "paid")
    assert.strictEqual<unknown>(dlocalWidened, DLocal.paymentStatusMap)
    assert.strictEqual<unknown>(mercadopagoWidened, MercadoPago.refundStatusMap)
    assert.strictEqual(pagarme, Pagarme.chargeStatusMap)
  })
})
