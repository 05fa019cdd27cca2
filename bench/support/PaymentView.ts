/** The payment the baseline and the floor create per POST /payments: its id, answer, and stored document. */
import { randomUUID } from "node:crypto"

export interface PaymentInput {
  readonly amount: number
  readonly userName: string
  readonly userEmail: string
  readonly documentId: string
}

export const benchPayment = (input: PaymentInput, rate: number, now: Date) => {
  const id = `TXN-${randomUUID().replaceAll("-", "").slice(0, 26).toUpperCase()}`
  const view = {
    transactionId: id, status: "pending", amount: input.amount, currency: "USD",
    localAmount: Math.round(input.amount * rate * 1.02 * 100) / 100, localCurrency: "BRL", paymentMethodId: "1001",
    method: "pix", country: "BRA", provider: "sandbox", providerRef: `sbx_${id}`,
    paymentFormUrl: `http://localhost/sandbox/pay/${id}`, paymentData: { qrCode: `00020126580014br.gov.bcb.pix0136${id}` },
    fees: { total: 1.2, processing: 0.75, fx: 0.45 }, userName: input.userName, userEmail: input.userEmail,
    createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 30 * 60_000).toISOString()
  }
  return { id, view, data: { ...view, documentId: input.documentId, attempts: [{ provider: "sandbox", outcome: "accepted" }] } }
}
