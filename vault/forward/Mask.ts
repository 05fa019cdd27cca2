/**
 * Masks every card number in a provider's answer before it leaves the vault: a run of 13 to 19
 * digits that stands alone (no digit or letter beside it: a digit run inside a provider's hex token,
 * such as Mercado Pago's card token, is not a card number) and passes Luhn becomes its first 6,
 * `******`, and its last 4.
 * A provider that echoes the number in a body or a header value gives the engine only that.
 */
import { luhnValid } from "../cards/Luhn.ts"

const digitRun = /(?<![0-9A-Za-z])\d{13,19}(?![0-9A-Za-z])/g

export const maskCardNumbers = (text: string): string =>
  text.replace(digitRun, (run) => (luhnValid(run) ? `${run.slice(0, 6)}******${run.slice(-4)}` : run))
