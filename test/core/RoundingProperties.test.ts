/**
 * Property: splitting an operation into parts never moves more money than the whole would, over
 * random amounts, presentment currencies (CLP with no decimals, USD, BRL, MXN, COP, EUR) and
 * rails, through the library as an embedder calls it.
 *
 * - Partial refunds: what the parts take from the shop in USD never exceeds the headline (what
 *   a refund in full takes), and never falls below the headline pro rata of the local money
 *   they send back; a part that would take nothing is refused, never sent.
 * - Pay-in swaps (local to USD) and payout swaps (USD to local): the parts never give more than
 *   one swap of their sum, and a part worth nothing is refused, never booked.
 * - A price in the rail's currency is charged as priced.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, DateTime, Effect, Schema } from "effect"
import { Swaps } from "../../core/balances/Swaps.ts"
import { Refunds } from "../../core/refunds/Refunds.ts"
import { defaultRatesPerUsd } from "../../core/fx/defaultRates.ts"
import { Fx } from "../../core/fx/Fx.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import * as Money from "../../core/Money.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { EngineTest, newScope } from "../support/Engine.ts"

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const parts = Schema.Array(int(1, 5000)).check(Schema.isBetweenLength(1, 8))
const rails = { sbx_pix: "BRL", sbx_spei: "MXN", sbx_pse: "COP" } as const

/** `minor` minor units of `currency` as an amount. */
const amountOf = (minor: number, currency: string) => BigDecimal.make(BigInt(minor), Money.exponent(currency))
const sumOf = (xs: ReadonlyArray<BigDecimal.BigDecimal>) => xs.reduce(BigDecimal.sum, Money.zero)

const drain = Effect.flatMap(Jobs, (jobs) =>
  Effect.gen(function*() {
    while ((yield* jobs.runDue) > 0) {
      // run everything that is due
    }
  }))

describe("rounding properties", () => {
  layer(EngineTest, { timeout: 120_000 })((it) => {
    it.effect.prop(
      "partial refunds take at least their pro rata and at most the whole refund's USD",
      {
        rail: Schema.Literals(["sbx_pix", "sbx_spei", "sbx_pse"]),
        presentment: Schema.Literals(["USD", "BRL", "MXN", "COP", "CLP", "EUR"]),
        price: int(2_000, 2_000_000),
        refunds: parts
      },
      ({ presentment, price, rail, refunds }) =>
        Effect.gen(function*() {
          const scope = yield* newScope()
          // Enough USD available that no refund waits for cover.
          yield* (yield* Swaps).fundSandbox(scope, "USD", Money.decimal("1000000"))
          const payments = yield* Payments
          const claims = yield* Refunds
          // A price of 20 to 20 000 major units, in the presentment currency's own units.
          const amount = presentment === "CLP" || presentment === "COP"
            ? amountOf(price * 100, "CLP")
            : amountOf(price, presentment)
          const created = yield* payments.create(scope, { amount, currency: presentment, paymentMethodId: rail, simulate: "paid" }).pipe(
            Effect.catchTag("ApiError", (e) => e.code === "amount_out_of_limits" ? Effect.succeed(null) : Effect.fail(e))
          )
          if (created === null) return
          yield* drain
          const p = yield* payments.get(scope, created.id)
          assert.strictEqual(p.status, "completed")
          assert.strictEqual(p.currencyLocal, rails[rail])
          if (presentment === p.currencyLocal) assert.strictEqual(Money.toText(p.amountLocal), Money.toText(amount), "charged as priced")

          let refundedLocal = Money.zero
          let takenUsd = Money.zero
          for (const minor of [...refunds, Number.MAX_SAFE_INTEGER]) {
            const left = BigDecimal.subtract(p.amountLocal, refundedLocal)
            if (!BigDecimal.isPositive(left)) break
            const wanted = minor === Number.MAX_SAFE_INTEGER ? left : BigDecimal.min(amountOf(minor, p.currencyLocal), left)
            const refund = yield* claims.refund(scope, p.id, { amount: wanted }).pipe(Effect.result)
            if (refund._tag === "Failure") {
              // Refused only when nothing of the headline is left to take for it.
              assert.strictEqual(refund.failure.code, "amount_rounds_to_zero")
              assert.strictEqual(Money.toText(takenUsd), Money.toText(p.amount))
              continue
            }
            assert.isTrue(BigDecimal.isPositive(refund.success.amountUsd), "a refund sent takes money from the shop")
            refundedLocal = BigDecimal.sum(refundedLocal, wanted)
            takenUsd = BigDecimal.sum(takenUsd, refund.success.amountUsd)
            // Never more than the whole refund takes; never less than pro rata of what went back.
            assert.isTrue(BigDecimal.isLessThanOrEqualTo(takenUsd, p.amount), `${Money.toText(takenUsd)} > ${Money.toText(p.amount)} USD`)
            assert.isTrue(
              BigDecimal.isGreaterThanOrEqualTo(BigDecimal.multiply(takenUsd, p.amountLocal), BigDecimal.multiply(p.amount, refundedLocal)),
              `${Money.toText(takenUsd)} USD for ${Money.toText(refundedLocal)} of ${Money.toText(p.amountLocal)} ${p.currencyLocal} (headline ${Money.toText(p.amount)})`
            )
          }
        }),
      { timeout: 120_000, arbitrary: { runs: 40 } }
    )

    it.effect.prop(
      "pay-in swaps in parts never give more USD than one swap of their sum",
      { currency: Schema.Literals(["BRL", "MXN", "COP", "CLP", "EUR", "PEN"]), swaps: parts },
      ({ currency, swaps }) =>
        Effect.gen(function*() {
          const scope = yield* newScope()
          const service = yield* Swaps
          const amounts = swaps.map((minor) => amountOf(minor, currency))
          const total = sumOf(amounts)
          yield* service.fundSandbox(scope, currency, total)
          let received = Money.zero
          for (const amount of amounts) {
            const swap = yield* service.swap(scope, currency, amount).pipe(Effect.result)
            if (swap._tag === "Failure") {
              assert.strictEqual(swap.failure.code, "amount_rounds_to_zero")
              continue
            }
            assert.isTrue(BigDecimal.isPositive(swap.success.amountUsd), "a swap booked gives something")
            received = BigDecimal.sum(received, swap.success.amountUsd)
          }
          const whole = yield* service.quote(scope, currency, total).pipe(
            Effect.map((q) => q.conversion.converted),
            Effect.catchTag("ApiError", () => Effect.succeed(Money.zero))
          )
          assert.isTrue(BigDecimal.isLessThanOrEqualTo(received, whole), `${Money.toText(received)} > ${Money.toText(whole)} USD for ${Money.toText(total)} ${currency}`)
        }),
      { timeout: 120_000, arbitrary: { runs: 60 } }
    )

    it.effect.prop(
      "payout swaps in parts never give more local money than one swap of their sum",
      { currency: Schema.Literals(["MXN", "BRL", "COP", "PEN", "CLP", "ARS"]), swaps: parts },
      ({ currency, swaps }) =>
        Effect.gen(function*() {
          const scope = yield* newScope()
          const payouts = yield* Payouts
          const amounts = swaps.map((cents) => amountOf(cents, "USD"))
          const total = sumOf(amounts)
          yield* payouts.fundSandbox(scope, "USD", total)
          let received = Money.zero
          for (const amount of amounts) {
            const swap = yield* payouts.swap(scope, currency, amount).pipe(Effect.result)
            if (swap._tag === "Failure") {
              assert.strictEqual(swap.failure.code, "amount_rounds_to_zero")
              continue
            }
            assert.isTrue(BigDecimal.isPositive(swap.success.conversion.converted), "a swap booked gives something")
            received = BigDecimal.sum(received, swap.success.conversion.converted)
          }
          const whole = (yield* payouts.quoteSwap(scope, currency, total)).converted
          assert.isTrue(BigDecimal.isLessThanOrEqualTo(received, whole), `${Money.toText(received)} > ${Money.toText(whole)} ${currency} for ${Money.toText(total)} USD`)
        }),
      { timeout: 120_000, arbitrary: { runs: 60 } }
    )

    it.effect("a payout swap worth less than one unit of its currency is refused, and nothing is booked", () =>
      Effect.gen(function*() {
        const fx = yield* Fx
        const scope = yield* newScope()
        const payouts = yield* Payouts
        yield* payouts.fundSandbox(scope, "USD", Money.decimal("1"))
        // A currency worth more than a dollar: 0.01 USD is 0.0049 of it, less than its cent.
        const at = yield* DateTime.now
        yield* fx.setRate({ currency: "MXN", perUsd: Money.decimal("0.5"), enabled: true, updatedAt: at })
        const refused = yield* Effect.flip(payouts.swap(scope, "MXN", Money.decimal("0.01"))).pipe(
          Effect.ensuring(fx.setRate({ currency: "MXN", perUsd: Money.decimal(defaultRatesPerUsd["MXN"]!), enabled: true, updatedAt: at }))
        )
        assert.strictEqual(refused.code, "amount_rounds_to_zero")
        assert.deepStrictEqual(refused.details, { amount: 0.01, currency: "USD", bookedCurrency: "MXN" })
        const usd = (yield* payouts.balances(scope)).balances.find((b) => b.currency === "USD")!
        assert.strictEqual(Money.toText(usd.available), "1")
      }))
  })
})
