/** Payout methods (spec 2.10): the rails a payout goes out on, and the beneficiary fields each needs. */

export interface RecipientField {
  /** The key in the `recipient` object of POST /me/payout/send. */
  readonly key: string
  readonly label: string
  readonly required: boolean
  readonly type: "text" | "email" | "phone" | "document" | "account" | "select"
  /** For `select` fields (bank selectors, account or document types): the exact accepted values. */
  readonly options?: ReadonlyArray<{ readonly value: string; readonly label: string }> | undefined
  /** A hint shown to whoever fills the field (format, length). */
  readonly description?: string | undefined
}

export interface PayoutMethodDef {
  /** `sbx_po_*` for the sandbox synthetic rails; `po_*` for real ones. Never reused. */
  readonly id: string
  readonly name: string
  readonly currency: string
  /** ISO-2. */
  readonly country: string
  /** spei, pix, bank_transfer, wallet, ... */
  readonly rail: string
  /** Decimal text, USD. */
  readonly minUsd: string
  readonly maxUsd: string
  /** The sandbox synthetic rails: listed in sandbox only, no balance debit, no provider. */
  readonly sandboxOnly: boolean
  readonly recipientFields: ReadonlyArray<RecipientField>
}
