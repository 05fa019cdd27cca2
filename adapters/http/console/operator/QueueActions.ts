/**
 * The queues' resolve actions: each is the existing admin operation, with the form's idempotency
 * key. Success goes back to the queues with a notice (post/redirect/get); a refusal shows the
 * queues again with the API's message, on the row's fields where the API names one.
 */
import { Effect } from "effect"
import { type ApiRequest, fieldErrors } from "../ApiClient.ts"
import type { Console, ConsoleRoute } from "../Page.ts"
import { redirect } from "../Page.ts"
import { environmentOf, ok } from "./Common.ts"
import { minutesOf, queuesPage } from "./Queues.ts"

const resolveAction = (
  path: `/console/operator/queues/${string}`,
  done: string,
  request: (c: Console, id: string, environment: string) => Omit<ApiRequest, "bearer" | "idempotencyKey">
): ConsoleRoute => ({
  method: "POST",
  path,
  side: "operator",
  handler: (c) =>
    Effect.gen(function*() {
      const id = c.form.get("id") ?? ""
      const environment = environmentOf(c.form.get("environment"))
      const minutes = minutesOf(c.form.get("olderThanMinutes"))
      const reply = yield* c.api({ ...request(c, id, environment), idempotencyKey: c.form.get("idempotencyKey") ?? undefined })
      if (ok(reply)) return redirect(`/console/operator/queues?environment=${environment}&olderThanMinutes=${minutes}&done=${done}`)
      return yield* queuesPage(c, environment, minutes, { failed: { id, reply, errors: fieldErrors(reply) } })
    })
})

const optionalText = (c: Console, name: string) => {
  const value = (c.form.get(name) ?? "").trim()
  return value === "" ? {} : { [name]: value }
}

export const queueActionRoutes: ReadonlyArray<ConsoleRoute> = [
  resolveAction("/console/operator/queues/payouts", "payout", (c, id) => ({
    method: "POST",
    path: `/admin/v1/payouts/${encodeURIComponent(id)}/resolve`,
    body: { status: c.form.get("status") ?? "", ...(c.form.get("status") === "failed" ? optionalText(c, "failureReason") : {}) }
  })),
  resolveAction("/console/operator/queues/chargebacks", "chargeback", (c, id) => ({
    method: "POST",
    path: `/admin/v1/claims/${encodeURIComponent(id)}/resolve`,
    body: { outcome: c.form.get("outcome") ?? "" }
  })),
  resolveAction("/console/operator/queues/withdrawals", "withdrawal", (c, id) => ({
    method: "POST",
    path: `/admin/v1/withdrawals/${encodeURIComponent(id)}/resolve`,
    body: { status: c.form.get("status") ?? "", ...(c.form.get("status") === "failed" ? optionalText(c, "failureReason") : {}) }
  })),
  resolveAction("/console/operator/queues/discrepancies", "discrepancy", (c, id, environment) => {
    const writeOff = (c.form.get("writeOffUsd") ?? "").trim()
    return {
      method: "POST",
      path: `/admin/v1/reconciliation/discrepancies/${encodeURIComponent(id)}/resolve?environment=${environment}`,
      // A write-off that is not a number is sent as typed: the API names the field.
      body: { note: c.form.get("note") ?? "", resolvedBy: c.form.get("resolvedBy") ?? "", ...(writeOff === "" ? {} : { writeOffUsd: Number.isFinite(Number(writeOff)) ? Number(writeOff) : writeOff }) }
    }
  })
]
