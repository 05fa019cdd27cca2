/**
 * Masks every card number in a provider's answer before it leaves the vault: a run of 13 to 19
 * digits (not part of a longer run) that passes Luhn becomes its first 6, `******`, and its last 4.
 * A provider that echoes the number in a body or a header value gives the engine only that.
 */
import { luhnValid } from "../cards/Luhn.ts"

const digitRun = /(?<!\d)\d{13,19}(?!\d)/g

export const maskCardNumbers = (text: string): string =>
  text.replace(digitRun, (run) => (luhnValid(run) ? `${run.slice(0, 6)}******${run.slice(-4)}` : run))
