/**
 * The refund checks of the provider conformance kit (`ProviderConformance.ts` registers them):
 *
 * - a full refund and partial refunds of a completed charge succeed, a retried one is the same
 *   refund;
 * - a refund left pending upstream, then settled upstream, is reported by the callback that
 *   follows: the notifications the upstream sends when it settles the refund, verified by the
 *   plugin, carry the refund as `succeeded` in `ChargeUpdate.refunds`, on an update about the
 *   charge (its reference and transaction id), so the engine settles the refund at once instead
 *   of at its next follow-up. Needs the harness's {@link RefundControls}; a plugin whose upstream
 *   cannot hold a refund opts out with `refundNotifications: false` and says why in its README.
 */
import { assert } from "@effect/vitest"
import { BigDecimal, Effect, Exit, type Scope } from "effect"
import { Money } from "../../core/ports/index.ts"
import type { ChargeRequest, ChargeUpdate, RefundRequest } from "../../core/ports/PaymentProvider.ts"
import type { ChargeRef, ConformanceHarness, RefundControls, SentNotification } from "./ConformanceHarness.ts"

/** The notifications a simulator sent (recorded in `sent`, delivered or dropped) while `effect` ran. */
export const notificationsDuring = (
  sent: ReadonlyArray<SentNotification>,
  effect: Effect.Effect<void>
): Effect.Effect<ReadonlyArray<SentNotification>> =>
  Effect.suspend(() => {
    const before = sent.length
    return Effect.map(effect, () => sent.slice(before))
  })

const queryOf = (url: string): Record<string, string> => {
  const query: Record<string, string> = {}
  try {
    for (const [name, value] of new URL(url).searchParams) if (!(name in query)) query[name] = value
  } catch {
    // Not a URL: no query.
  }
  return query
}

const lowercase = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))

export const refundChecks = (
  test: (title: string, body: (h: ConformanceHarness) => Effect.Effect<void, unknown, Scope.Scope>) => void,
  completed: (h: ConformanceHarness) => Effect.Effect<{ readonly request: ChargeRequest; readonly ref: ChargeRef }, unknown, Scope.Scope>,
  options: { readonly refundNotifications: boolean }
) => {
  /** A refund request as the engine builds it: with the provider's ids of the refunds it holds. */
  const refundOf = (
    h: ConformanceHarness,
    request: ChargeRequest,
    ref: ChargeRef,
    n: number,
    amount = request.amount,
    knownRefunds: ReadonlyArray<string> = []
  ): RefundRequest => ({
    transactionId: request.transactionId,
    providerRef: ref.providerRef,
    refundId: `${request.transactionId}-R${n}`,
    idempotencyKey: `${request.transactionId}-R${n}:${h.provider.id}`,
    amount,
    currency: request.currency,
    knownRefunds,
    refundsAhead: 0
  })

  test("refund: a full refund of a completed charge succeeds", (h) =>
    Effect.gen(function*() {
      const { request, ref } = yield* completed(h)
      const refund = yield* h.provider.refund(refundOf(h, request, ref, 1))
      assert.isAbove(refund.providerRef.length, 0)
    }))

  test("refund: partial refunds succeed, and a retried one is the same refund", (h) =>
    Effect.gen(function*() {
      const { request, ref } = yield* completed(h)
      const part = Money.round(BigDecimal.divideUnsafe(request.amount, Money.decimal("4")), request.currency)
      const first = yield* h.provider.refund(refundOf(h, request, ref, 1, part))
      const retried = yield* h.provider.refund(refundOf(h, request, ref, 1, part))
      const second = yield* h.provider.refund(refundOf(h, request, ref, 2, part, [first.providerRef]))
      assert.strictEqual(retried.providerRef, first.providerRef)
      assert.notStrictEqual(second.providerRef, first.providerRef)
    }))

  if (options.refundNotifications) {
    test("refund: a refund left pending upstream, then settled upstream, is reported by the callback that follows", (h) =>
      Effect.gen(function*() {
        const controls = h.refunds
        assert.isDefined(controls, "the harness has no refund controls (or the plugin opts out: refundNotifications: false)")
        const { request, ref } = yield* completed(h)
        yield* controls!.holdRefunds
        const part = Money.round(BigDecimal.divideUnsafe(request.amount, Money.decimal("2")), request.currency)
        const held = yield* h.provider.refund(refundOf(h, request, ref, 1, part))
        assert.strictEqual(held.status, "pending", "the upstream was asked to hold the refund")
        const sent = yield* controls!.settleRefund(held.providerRef)
        assert.isAbove(sent.length, 0, "the upstream sent no notification when it settled the refund")
        const updates: Array<ChargeUpdate> = []
        for (const notification of sent) {
          // A notification the plugin does not take (a legacy unsigned one beside the signed one) is passed over.
          const exit = yield* Effect.exit(h.provider.verifyCallback(lowercase(notification.headers), notification.body, queryOf(notification.url)))
          if (Exit.isSuccess(exit)) updates.push(...exit.value)
        }
        const reporting = updates.filter((u) => (u.refunds ?? []).some((r) => r.providerRef === held.providerRef))
        assert.isAbove(reporting.length, 0, `no update carries refund ${held.providerRef}: the engine would wait for its next follow-up`)
        for (const update of reporting) {
          assert.strictEqual(update.providerRef, ref.providerRef)
          assert.strictEqual(update.transactionId, ref.transactionId, "the engine applies an update only with the charge's transaction id")
          assert.deepStrictEqual(
            update.refunds!.filter((r) => r.providerRef === held.providerRef).map((r) => r.status),
            ["succeeded"]
          )
        }
      }))
  }
}
