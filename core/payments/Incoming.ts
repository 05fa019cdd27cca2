/**
 * Recording money that already arrived (a bank transfer to a deposit account) as a completed
 * pay-in: the payment, its ledger entry and its events, in the caller's transaction.
 */
import { BigDecimal, DateTime, Effect, Option } from "effect"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import * as Country from "../Country.ts"
import { EngineConfig } from "../EngineConfig.ts"
import { Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import * as Money from "../Money.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import type { BuyerText } from "./BuyerData.ts"
import { limitError } from "./Checks.ts"
import type { Lifecycle } from "./Lifecycle.ts"
import type { Payment } from "./Payment.ts"
import * as Pricing from "./Pricing.ts"

export interface IncomingPayment {
  readonly amountLocal: BigDecimal.BigDecimal
  readonly currencyLocal: string
  /** The catalog rail whose pricing applies (e.g. Mexico SPEI for a CLABE deposit). */
  readonly method: PaymentMethodDef
  /** Who received the money (`provider` on the payment), and its reference for the transfer. */
  readonly receiver: string
  readonly reference: string
  readonly userName: BuyerText
  readonly userEmail: BuyerText
}

export const makeRecordIncoming = Effect.fnUntraced(function*(lifecycle: Lifecycle) {
  const store = yield* PaymentStore
  const fx = yield* Fx
  const ids = yield* Ids
  const tx = yield* Transactions
  const config = yield* EngineConfig
  const { moveOnce } = lifecycle

  const recordIncoming = Effect.fn("Payments.recordIncoming")(function*(scope: ShopScope, input: IncomingPayment) {
    const toUsd = yield* fx.toUsd(input.amountLocal, input.currencyLocal)
    const usd = toUsd.converted
    const fees = Pricing.fees(usd, input.method, scope.merchant.tier)
    const settlement = Pricing.settlement(usd, input.method, scope.merchant.tier)
    if (!BigDecimal.isPositive(Pricing.net(usd, fees, settlement))) {
      return yield* limitError(`${Money.toText(input.amountLocal)} ${input.currencyLocal} does not cover the fees`, {
        amountUsd: Money.toJsonNumber(usd),
        feesUsd: Money.toJsonNumber(fees.total)
      })
    }
    const id = yield* ids.next("transaction")
    const at = yield* DateTime.now
    const payment: Payment = {
      id,
      environment: scope.environment,
      merchantId: scope.merchant.id,
      shopId: scope.shop.id,
      status: "pending",
      amount: usd,
      inputCurrency: null,
      inputAmount: null,
      amountLocal: input.amountLocal,
      currencyLocal: input.currencyLocal,
      paymentMethodId: input.method.id,
      method: input.method.method,
      methodName: input.method.name,
      channel: input.method.channel,
      country: Option.getOrThrow(Country.toIso3(input.method.country)),
      provider: input.receiver,
      providerRef: input.reference,
      paymentFormUrl: "",
      paymentData: { method: input.method.method, reference: input.reference },
      fees,
      settlement,
      fx: {
        presentment: null,
        local: { currency: input.currencyLocal, midPerUsd: toUsd.midPerUsd, rate: toUsd.rate },
        markupPct: config.fxMarkupPct
      },
      attempts: [],
      merchantOrderId: null,
      tag1: null,
      tag2: null,
      tag3: null,
      userName: input.userName,
      userEmail: input.userEmail,
      userPhone: null,
      userIp: null,
      hostedCheckout: false,
      // Received, never sent to a form: no hosted link.
      linkToken: null,
      returnUrl: null,
      nextAction: null,
      simulate: null,
      failureReason: null,
      expiresAt: at,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      version: 1
    }
    return yield* tx.run(Effect.gen(function*() {
      yield* store.insert(payment)
      const completed = yield* moveOnce(id, { providerRef: input.reference, status: "completed" })
      return Option.getOrElse(completed, () => payment)
    })).pipe(Effect.catchTag("Conflict", () => Effect.die(new Error(`payment ${id}: concurrent update while recording`))))
  })

  return recordIncoming
})
