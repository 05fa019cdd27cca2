/**
 * A create's card (`card: { token }`), checked before anything is written: only a card rail
 * (channel CREDIT_CARD) takes one, a production card rail needs one, and the token is described
 * by the card vault (`CardVault.describe`), which must know it for this merchant, of the rail's
 * brand and not expired. What the vault said is what the payment keeps (`PaymentCard`).
 */
import { DateTime, Effect, Option } from "effect"
import { apiError } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import { railBrand } from "../catalog/CardRails.ts"
import { type CardDescription, CardVault, ForwardUnreachable } from "../ports/CardVault.ts"
import type { ShopScope } from "../tenancy/Scopes.ts"
import type { PaymentCard } from "./Payment.ts"

/** Whether a card expiring at the end of `expMonth`/`expYear` is expired at `now` (UTC). */
export const isExpired = (card: Pick<CardDescription, "expMonth" | "expYear">, now: DateTime.Utc) => {
  const parts = DateTime.toPartsUtc(now)
  return card.expYear * 12 + card.expMonth < parts.year * 12 + parts.month
}

export const paymentCardOf = (card: CardDescription, holderName: PaymentCard["holderName"]): PaymentCard => ({
  token: card.token,
  brand: card.brand,
  bin: card.bin,
  last4: card.last4,
  expMonth: card.expMonth,
  expYear: card.expYear,
  fingerprint: card.fingerprint,
  holderName
})

/** The vault the engine was given; a host without one (or a test engine built without it) has none configured. */
export const engineVault = Effect.map(Effect.serviceOption(CardVault), Option.getOrElse(() => unconfigured))

const unconfigured: CardVault["Service"] = {
  describe: () => Effect.fail(new ForwardUnreachable({ message: "no card vault is configured (VAULT_URL)" })),
  forward: () => Effect.fail(new ForwardUnreachable({ message: "no card vault is configured (VAULT_URL)" }))
}

/**
 * The card of a create: none for a rail that is not a card rail (a card sent there is refused),
 * nor for a sandbox card payment made without one; the vault's description otherwise.
 */
export const checkCard = Effect.fnUntraced(function*(
  vault: CardVault["Service"],
  scope: ShopScope,
  card: { readonly token: string } | undefined,
  method: PaymentMethodDef
) {
  if (method.channel !== "CREDIT_CARD") {
    if (card === undefined) return undefined
    return yield* apiError("card_not_accepted", `${method.name} (${method.id}) is not a card rail: card is not accepted`)
  }
  if (card === undefined) {
    if (scope.environment === "sandbox") return undefined
    return yield* apiError("card_required", `${method.name} (${method.id}) is a card rail: send card.token`)
  }
  const described = yield* vault.describe(scope.merchant.id, card.token).pipe(
    Effect.catchTags({
      CardTokenNotFound: () => Effect.fail(apiError("card_token_not_found", "The card vault holds no card for card.token for this merchant")),
      ForwardUnreachable: (e) =>
        Effect.andThen(
          Effect.logWarning("card vault unreachable").pipe(Effect.annotateLogs({ reason: e.message })),
          Effect.fail(apiError("card_vault_unavailable", "The card vault could not be reached: nothing was written or charged"))
        )
    })
  )
  const brand = railBrand(method)
  if (brand !== undefined && described.brand !== brand) {
    return yield* apiError("card_brand_mismatch", `The card is a ${described.brand}, the rail ${method.name} (${method.id}) takes ${brand}`, {
      cardBrand: described.brand,
      railBrand: brand
    })
  }
  if (isExpired(described, yield* DateTime.now)) {
    return yield* apiError("card_expired", `The card expired in ${String(described.expMonth).padStart(2, "0")}/${described.expYear}`, {
      expMonth: described.expMonth,
      expYear: described.expYear
    })
  }
  return described
})
