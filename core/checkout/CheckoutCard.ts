/**
 * The hosted checkout's card step. A buyer who picks a card rail is sent to the card vault's
 * page (its own origin: the card number goes from the browser to the vault, never here) with a
 * session whose return is `/checkout/{token}/card?state=...`; the state is a fresh secret of
 * this checkout, kept as its SHA-256 with the rail picked and an expiry on the real clock (the
 * vault's session is on real time too). On return the state is checked in constant time and the
 * card's brand picks the rail: of the checkout's card rails, the one of the card's brand (so a
 * buyer who tapped "Visa" and typed a Mastercard pays on the Mastercard rail), else the picked
 * rail if it takes any brand (the sandbox's `sbx_card`), else the brand is refused.
 */
import { DateTime, Effect, Schema } from "effect"
import { apiError, type ApiErrorOf, invalidRequest } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import { realMillis } from "../clock/RealClock.ts"
import type { CardBrand } from "../ports/CardVault.ts"
import type { BuyerData } from "../payments/BuyerData.ts"
import { railBrand } from "../catalog/CardRails.ts"
import { engineVault } from "../payments/CreateCard.ts"
import type { Payment } from "../payments/Payment.ts"
import type { CreateCode } from "../payments/Payments.ts"
import { safeEqual } from "../Secrets.ts"
import type { SelectInput } from "./CheckoutInput.ts"
import type { CheckoutSession } from "./CheckoutSession.ts"
import { storedCustomer } from "./Customer.ts"

/** How long the vault's card page and the return to it are good for. */
export const cardStepTtlSeconds = 10 * 60


/** Why a return from the card page is refused: an unknown, used or expired state, or a card no rail of the checkout takes. */
export class CardStepRefused extends Schema.TaggedError<CardStepRefused>()("CardStepRefused", {
  reason: Schema.Literals(["state", "brand"]),
  cardBrand: Schema.optional(Schema.String)
}) {}

/** The rail a card of `brand` is charged on, among the checkout's card rails; undefined when none takes it. */
export const railForBrand = (
  offered: ReadonlyArray<PaymentMethodDef>,
  picked: string,
  brand: CardBrand
): PaymentMethodDef | undefined => {
  const cardRails = offered.filter((m) => m.channel === "CREDIT_CARD")
  const chosen = cardRails.find((m) => m.id === picked)
  if (chosen !== undefined && railBrand(chosen) === brand) return chosen
  const ofBrand = cardRails.find((m) => railBrand(m) === brand)
  if (ofBrand !== undefined) return ofBrand
  return chosen !== undefined && railBrand(chosen) === undefined ? chosen : undefined
}

type SessionCode = "checkout_session_not_found" | "checkout_session_already_completed"

/** What the card step uses of `Checkout`'s inside (`Checkout.ts`). */
export interface CardStepParts {
  readonly get: (token: string) => Effect.Effect<CheckoutSession, ApiErrorOf<"checkout_session_not_found">>
  /** Select's checks of the buyer's choice and data, on the shop's clock. */
  readonly chosen: (session: CheckoutSession, input: SelectInput) => Effect.Effect<
    { readonly method: PaymentMethodDef; readonly buyer: BuyerData },
    ApiErrorOf<"checkout_session_already_completed" | "invalid_request" | "missing_required_fields">
  >
  readonly offered: (session: CheckoutSession) => Effect.Effect<ReadonlyArray<PaymentMethodDef>>
  readonly select: (token: string, input: SelectInput, buyerIp: string | undefined) => Effect.Effect<Payment, ApiErrorOf<SessionCode | CreateCode>>
  /** The store's optimistic update: false when the session moved meanwhile. */
  readonly update: (session: CheckoutSession) => Effect.Effect<boolean>
  readonly alreadyCompleted: (session: CheckoutSession) => ApiErrorOf<"checkout_session_already_completed">
  readonly secret: Effect.Effect<string>
  readonly hash: (secret: string) => Effect.Effect<string>
}

/** `Checkout.holdForCard` and `Checkout.selectCard`. */
export const cardStep = (parts: CardStepParts) => {
  const holdForCard = Effect.fn("Checkout.holdForCard")(function*(token: string, input: SelectInput) {
    const session = yield* parts.get(token)
    const { method, buyer } = yield* parts.chosen(session, input)
    if (method.channel !== "CREDIT_CARD") {
      return yield* invalidRequest(`${method.name} (${method.id}) is not a card rail`, [{ path: "paymentMethodId", message: "Expected a card rail" }])
    }
    const state = yield* parts.secret
    const held: CheckoutSession = {
      ...session,
      customer: storedCustomer(buyer, false),
      cardStep: {
        stateHash: yield* parts.hash(state),
        paymentMethodId: method.id,
        ...(input.installments === undefined ? {} : { installments: input.installments.count }),
        expiresAt: DateTime.makeUnsafe((yield* realMillis) + cardStepTtlSeconds * 1000)
      },
      version: session.version + 1
    }
    if (!(yield* parts.update(held))) return yield* parts.alreadyCompleted(session)
    return { session: held, state }
  })

  const selectCard = Effect.fn("Checkout.selectCard")(function*(token: string, state: string, cardToken: string, buyerIp: string | undefined) {
    const session = yield* parts.get(token)
    if (session.completedTxId !== null) return yield* parts.alreadyCompleted(session)
    const step = session.cardStep
    if (step === null || !safeEqual(yield* parts.hash(state), step.stateHash) || (yield* realMillis) >= step.expiresAt.epochMilliseconds) {
      return yield* new CardStepRefused({ reason: "state" })
    }
    const vault = yield* engineVault
    const card = yield* vault.describe(session.merchantId, cardToken).pipe(
      Effect.catchTags({
        CardTokenNotFound: () => Effect.fail(apiError("card_token_not_found", "The card vault holds no card for card.token for this merchant")),
        ForwardUnreachable: () => Effect.fail(apiError("card_vault_unavailable", "The card vault could not be reached: nothing was written or charged"))
      })
    )
    const rail = railForBrand(yield* parts.offered(session), step.paymentMethodId, card.brand)
    if (rail === undefined) return yield* new CardStepRefused({ reason: "brand", cardBrand: card.brand })
    return yield* parts.select(token, {
      paymentMethodId: rail.id,
      card: { token: cardToken },
      ...(step.installments === undefined ? {} : { installments: { count: step.installments } })
    }, buyerIp)
  })

  return { holdForCard, selectCard }
}
