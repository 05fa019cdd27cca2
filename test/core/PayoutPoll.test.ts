/**
 * The status poll of payouts a provider is processing, on TestClock: a lost callback is recovered
 * by the poll every 5 minutes; a failure the poll learns of reverses the debit.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import type { PayoutProvider, PayoutUpdate } from "../../core/ports/PayoutProvider.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { EngineTestWith, newScope } from "../support/Engine.ts"

const upstream = new Map<string, PayoutUpdate["status"]>()
const provider: PayoutProvider = {
  id: "po-poll",
  environments: ["sandbox"],
  supports: (method) => method.id === "po_mx_spei",
  send: (request) => Effect.succeed({ providerRef: `ref_${request.payoutId}`, status: "processing" }),
  status: (providerRef, payoutId) => Effect.succeed({ providerRef, payoutId, status: upstream.get(payoutId) ?? "processing", detail: "from the poll" }),
  verifyCallback: () => Effect.succeed([])
}

const spei = { name: "Ana María López", documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }

describe("payout status poll", () => {
  it.effect("a lost callback is recovered by the poll; a failure it learns of reverses the debit", () =>
    Effect.gen(function*() {
      const scope = yield* newScope()
      const payouts = yield* Payouts
      const jobs = yield* Jobs
      yield* payouts.fundSandbox(scope, "MXN", Money.decimal("1000"))
      const mxn = Effect.map(payouts.balances(scope), (b) => Money.toText(b.balances.find((x) => x.currency === "MXN")!.available))
      const paid = (yield* payouts.send(scope, { methodId: "po_mx_spei", amount: Money.decimal("200"), recipient: spei })).payout
      const refused = (yield* payouts.send(scope, { methodId: "po_mx_spei", amount: Money.decimal("300"), recipient: spei })).payout
      assert.strictEqual(yield* mxn, "500")

      // Nothing known upstream yet: still processing after the first round.
      yield* TestClock.adjust("5 minutes")
      yield* jobs.runDue
      assert.strictEqual((yield* payouts.get(scope, paid.id)).status, "processing")

      upstream.set(paid.id, "completed")
      upstream.set(refused.id, "failed")
      yield* TestClock.adjust("5 minutes")
      yield* jobs.runDue
      assert.strictEqual((yield* payouts.get(scope, paid.id)).status, "completed")
      assert.deepInclude(yield* payouts.get(scope, refused.id), { status: "failed", failureReason: "from the poll" })
      assert.strictEqual(yield* mxn, "800")
    }).pipe(Effect.provide(EngineTestWith(Payouts.providers([provider])))))
})
