/**
 * Every connector's README has a "Status map" section: one table per kind of object (payment,
 * refund, payout...) listing every status the provider documents, what it means and the engine
 * state it maps to. Each table must list exactly the documented tuple in the connector's `Wire.ts`,
 * each with exactly the state the connector's own mapping function answers (and its `Record`
 * holds), and end with an "any other" row whose state is what an undocumented status maps to:
 * pending (or processing), never a success.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { signatureHeader } from "../../core/Signatures.ts"
import * as Circle from "../../providers/circle/Wire.ts"
import * as Conekta from "../../providers/conekta/Wire.ts"
import * as DLocalPayouts from "../../providers/dlocal/PayoutsWire.ts"
import * as DLocal from "../../providers/dlocal/Wire.ts"
import * as Ebanx from "../../providers/ebanx/Wire.ts"
import * as MercadoPago from "../../providers/mercadopago/Wire.ts"
import * as Pagarme from "../../providers/pagarme/Wire.ts"
import * as ReferenceHttp from "../../providers/reference-http/Wire.ts"
import { providerRefOf, SandboxProvider, slowPaymentAfterMs } from "../../providers/sandbox/SandboxProvider.ts"
import * as Sandbox from "../../providers/sandbox/Wire.ts"

const repo = resolve(import.meta.dirname, "../..")

interface Row {
  /** `undefined` for the "any other" row. */
  readonly status: string | undefined
  readonly engine: string
}

/** The tables of a README's "Status map" section, by their `###` heading. */
const statusTables = (connector: string): ReadonlyMap<string, ReadonlyArray<Row>> => {
  const readme = readFileSync(join(repo, "providers", connector, "README.md"), "utf8")
  const start = readme.search(/^## Status map\b/m)
  const tables = new Map<string, Array<Row>>()
  if (start < 0) return tables
  const rest = readme.slice(start).split("\n").slice(1).join("\n")
  const end = rest.search(/^## /m)
  for (const part of (end < 0 ? rest : rest.slice(0, end)).split(/^### /m).slice(1)) {
    const lines = part.split("\n")
    const rows = lines.filter((line) => line.startsWith("|")).slice(2).map((line): Row => {
      const cells = line.split("|").slice(1, -1).map((cell) => cell.trim())
      assert.strictEqual(cells.length, 3, `${connector}: a status row has 3 cells: ${line}`)
      const status = /^`([^`]+)`$/.exec(cells[0]!)?.[1]
      assert.isTrue(status !== undefined || cells[0] === "any other", `${connector}: a status cell is one code span or "any other": ${line}`)
      const engine = /^`([^`]+)`/.exec(cells[2]!)?.[1]
      assert.isDefined(engine, `${connector}: an engine state cell starts with the state in a code span: ${line}`)
      return { status, engine: engine! }
    })
    tables.set(lines[0]!.trim(), rows)
  }
  return tables
}

interface Table {
  readonly connector: string
  /** The start of the `###` heading. */
  readonly heading: string
  readonly documented: ReadonlyArray<string>
  readonly map: Readonly<Record<string, string>>
  /** The connector's own mapping function, as the plugin calls it. */
  readonly read: (status: string) => string
  readonly unknown: "pending" | "processing"
}

const tables: ReadonlyArray<Table> = [
  { connector: "dlocal", heading: "Payments", documented: DLocal.paymentStatuses, map: DLocal.paymentStatusMap, read: DLocal.toUpdateStatus, unknown: "pending" },
  { connector: "dlocal", heading: "Refunds", documented: DLocal.refundStatuses, map: DLocal.refundStatusMap, read: DLocal.toRefundStatus, unknown: "pending" },
  {
    connector: "dlocal",
    heading: "Payouts",
    documented: DLocalPayouts.payoutStatuses,
    map: DLocalPayouts.payoutStatusMap,
    read: DLocalPayouts.toPayoutStatus,
    unknown: "processing"
  },
  {
    connector: "mercadopago",
    heading: "Payments",
    documented: MercadoPago.paymentStatuses,
    map: MercadoPago.paymentStatusMap,
    read: (status) => MercadoPago.toUpdateStatus(status),
    unknown: "pending"
  },
  {
    connector: "mercadopago",
    heading: "Refunds",
    documented: MercadoPago.refundStatuses,
    map: MercadoPago.refundStatusMap,
    read: MercadoPago.toRefundStatus,
    unknown: "pending"
  },
  {
    connector: "ebanx",
    heading: "Payments",
    documented: Ebanx.paymentStatuses,
    map: Ebanx.paymentStatusMap,
    read: (status) => Ebanx.toUpdateStatus({ status }),
    unknown: "pending"
  },
  { connector: "ebanx", heading: "Refunds", documented: Ebanx.refundStatuses, map: Ebanx.refundStatusMap, read: Ebanx.toRefundStatus, unknown: "pending" },
  {
    connector: "pagarme",
    heading: "Charges",
    documented: Pagarme.chargeStatuses,
    map: Pagarme.chargeStatusMap,
    read: (status) => Pagarme.toUpdateStatus({ status }),
    unknown: "pending"
  },
  {
    connector: "pagarme",
    heading: "Refunds",
    documented: Pagarme.refundStatuses,
    map: Pagarme.refundStatusMap,
    read: Pagarme.toRefundStatus,
    unknown: "pending"
  },
  { connector: "conekta", heading: "Orders", documented: Conekta.orderStatuses, map: Conekta.orderStatusMap, read: Conekta.toUpdateStatus, unknown: "pending" },
  {
    connector: "conekta",
    heading: "Refunds",
    documented: Conekta.refundStatuses,
    map: Conekta.refundStatusMap,
    read: Conekta.toRefundStatus,
    unknown: "pending"
  },
  { connector: "circle", heading: "Transfers", documented: Circle.transferStatuses, map: Circle.transferStatusMap, read: Circle.toStatus, unknown: "pending" },
  {
    connector: "circle",
    heading: "Address book",
    documented: Circle.recipientStatuses,
    map: Circle.recipientStatusMap,
    read: Circle.approvalOf,
    unknown: "pending"
  },
  {
    connector: "reference-http",
    heading: "Charges",
    documented: ReferenceHttp.chargeStatuses,
    map: ReferenceHttp.chargeStatusMap,
    read: ReferenceHttp.toUpdateStatus,
    unknown: "pending"
  },
  {
    connector: "reference-http",
    heading: "Refunds",
    documented: ReferenceHttp.refundStatuses,
    map: ReferenceHttp.refundStatusMap,
    read: ReferenceHttp.toRefundStatus,
    unknown: "pending"
  },
  {
    connector: "sandbox",
    heading: "Scenarios",
    documented: Sandbox.scenarios,
    map: Sandbox.scenarioStatusMap,
    read: Sandbox.scenarioStatus,
    unknown: "pending"
  }
]

const sorted = (values: Iterable<string>) => [...values].sort()

/** The table under a heading that starts with `heading`; fails when the README has none. */
const tableOf = (connector: string, heading: string): ReadonlyArray<Row> => {
  const found = [...statusTables(connector)].filter(([title]) => title.startsWith(heading))
  assert.strictEqual(found.length, 1, `providers/${connector}/README.md has one "### ${heading}" table under "## Status map"`)
  return found[0]![1]
}

describe("every connector's README status map is its code's", () => {
  for (const table of tables) {
    it(`${table.connector}: ${table.heading}`, () => {
      const rows = tableOf(table.connector, table.heading)
      const listed = rows.flatMap((row) => row.status === undefined ? [] : [row.status])
      assert.deepStrictEqual(sorted(listed), sorted(new Set(listed)), `${table.connector} ${table.heading}: a status is listed twice`)
      assert.deepStrictEqual(sorted(listed), sorted(table.documented), `${table.connector} ${table.heading}: the README lists exactly the documented statuses`)
      assert.deepStrictEqual(sorted(Object.keys(table.map)), sorted(table.documented), `${table.connector} ${table.heading}: the Record maps exactly the documented statuses`)
      for (const row of rows) {
        if (row.status === undefined) continue
        assert.strictEqual(table.map[row.status], row.engine, `${table.connector} ${table.heading}: \`${row.status}\` in the Record`)
        assert.strictEqual(table.read(row.status), row.engine, `${table.connector} ${table.heading}: \`${row.status}\` read by the connector`)
      }
      const other = rows.filter((row) => row.status === undefined)
      assert.deepStrictEqual(other.map((row) => row.engine), [table.unknown], `${table.connector} ${table.heading}: one "any other" row, ${table.unknown}`)
      for (const undocumented of ["NOT_A_DOCUMENTED_STATUS", "not_a_documented_status", ""]) {
        assert.strictEqual(table.read(undocumented), table.unknown, `${table.connector} ${table.heading}: an undocumented status is ${table.unknown}`)
      }
    })
  }
})

const Live = Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
const secret = "status-tables-secret"
const sandbox = SandboxProvider.make({ formBaseUrl: "https://shop.example", callbackSecret: Redacted.make(secret) })

describe("the sandbox's status map is what the provider answers", () => {
  it.live("a scenario's status poll, once due, is its row's state", () =>
    Effect.gen(function*() {
      const provider = yield* sandbox
      for (const row of tableOf("sandbox", "Scenarios")) {
        if (row.status === undefined) continue
        // created at the epoch: long past slow_payment's delay
        const answer = yield* provider.status(providerRefOf(row.status, 0, "tx_1"), "tx_1")
        assert.strictEqual(answer.status, row.engine, `sandbox: the poll of \`${row.status}\``)
        assert.isAbove(Date.now(), slowPaymentAfterMs)
      }
      const unknown = yield* provider.status(providerRefOf("not_a_scenario", 0, "tx_1"), "tx_1")
      assert.strictEqual(unknown.status, "pending")
    }).pipe(Effect.provide(Live)))

  it.live("a callback's status is its row's state, and one not listed is refused", () =>
    Effect.gen(function*() {
      const provider = yield* sandbox
      const rows = tableOf("sandbox", "Callbacks")
      const listed = rows.flatMap((row) => row.status === undefined ? [] : [row.status])
      assert.deepStrictEqual(sorted(listed), sorted(Sandbox.callbackStatuses))
      assert.deepStrictEqual(sorted(Object.keys(Sandbox.callbackStatusMap)), sorted(Sandbox.callbackStatuses))
      const send = (status: string) =>
        Effect.gen(function*() {
          const body = JSON.stringify({ reference: "sbx.none.0.tx_1", transactionId: "tx_1", status })
          const header = yield* signatureHeader(body, [secret])
          return yield* provider.verifyCallback({ "x-sandbox-signature": header }, body).pipe(Effect.result)
        })
      for (const row of rows) {
        if (row.status === undefined) continue
        const answer = yield* send(row.status)
        assert.isTrue(answer._tag === "Success" && answer.success[0]!.status === row.engine, `sandbox: the callback \`${row.status}\``)
      }
      assert.deepStrictEqual(rows.filter((row) => row.status === undefined).map((row) => row.engine), ["refused"])
      const refused = yield* send("NOT_A_DOCUMENTED_STATUS")
      assert.strictEqual(refused._tag, "Failure")
    }).pipe(Effect.provide(Live)))
})
