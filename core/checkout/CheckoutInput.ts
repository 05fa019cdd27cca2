/**
 * What a checkout takes and answers: a session to create (`CreateSession`), the buyer's choice on
 * the page (`SelectInput`), a method offered (`OfferedMethod`), a created session (`Created`).
 * The operations are `Checkout.ts`. Buyer data comes in `Redacted` (`BuyerData.ts`).
 */
import type { BigDecimal, Redacted } from "effect"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import type { BuyerText, FieldName } from "../payments/BuyerData.ts"
import type { Payment } from "../payments/Payment.ts"
import type { BuyerAddress, SandboxSimulate } from "../ports/PaymentProvider.ts"
import type { CheckoutSession } from "./CheckoutSession.ts"
import type { CustomerInput } from "./Customer.ts"

export interface CreateSession {
  readonly amount: BigDecimal.BigDecimal
  readonly currency?: string | undefined
  readonly country?: string | undefined
  readonly paymentMethodId?: string | undefined
  readonly customer?: CustomerInput | undefined
  readonly userName?: BuyerText | undefined
  readonly userEmail?: BuyerText | undefined
  readonly userPhone?: BuyerText | undefined
  readonly documentId?: BuyerText | undefined
  readonly userAddress?: Redacted.Redacted<BuyerAddress> | undefined
  readonly merchantOrderId?: string | undefined
  readonly returnUrl?: string | undefined
  readonly simulate?: SandboxSimulate | undefined
}

export interface SelectInput {
  readonly paymentMethodId?: string | undefined
  readonly customer?: {
    readonly fullName?: BuyerText | undefined
    readonly email?: BuyerText | undefined
    readonly documentId?: BuyerText | undefined
    readonly phone?: BuyerText | undefined
    readonly address?: Redacted.Redacted<BuyerAddress> | undefined
  } | undefined
  /** On a card rail: how many instalments the buyer chose (the merchant pays the interest). */
  readonly installments?: { readonly count: number } | undefined
  /** The vault's token of the card the buyer typed on the card page (`Checkout.selectCard`); not part of the public select. */
  readonly card?: { readonly token: string } | undefined
}

/** A method the session offers, with the buyer data its charge needs beyond name, email and document. */
export interface OfferedMethod {
  readonly method: PaymentMethodDef
  /**
   * What the rail requires (`method.requires`) and what every provider that could take the charge
   * needs (`neededByAll`), beyond the fields every hosted checkout asks for, by the API's names
   * (`userPhone`, `userAddress`): without them select answers 422 `missing_required_fields`.
   */
  readonly requiredFields: ReadonlyArray<FieldName>
}

export interface Created {
  readonly session: CheckoutSession
  /** The session's token, as the buyer's link carries it (the session keeps only its hash). */
  readonly token: string
  /** The transaction, when one-shot data was complete. */
  readonly payment: Payment | null
  readonly missingFields: ReadonlyArray<string>
  /** One-shot: what the buyer will pay on the chosen rail. */
  readonly local: { readonly amount: BigDecimal.BigDecimal; readonly currency: string } | null
  readonly amountUsd: BigDecimal.BigDecimal
}

