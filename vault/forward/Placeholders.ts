/**
 * Fills `CardPlaceholders` in a forwarded request's body and header values. A value goes into a
 * body encoded for the body's type (a JSON string's content, a form field's percent encoding), so a
 * holder name with a quote cannot change the request's structure.
 */
import { CardPlaceholders } from "../../core/ports/CardVault.ts"
import type { CardSecret } from "../cards/Sealing.ts"

export type Encoding = "json" | "form" | "raw"

export const encodingOf = (headers: Record<string, string>): Encoding => {
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1]?.toLowerCase() ?? ""
  if (type.includes("json")) return "json"
  if (type.includes("application/x-www-form-urlencoded")) return "form"
  return "raw"
}

const encode = (value: string, encoding: Encoding) =>
  encoding === "json" ? JSON.stringify(value).slice(1, -1) : encoding === "form" ? encodeURIComponent(value) : value

export const usesSecurityCode = (texts: ReadonlyArray<string>): boolean => texts.some((text) => text.includes(CardPlaceholders.securityCode))

export const fill = (text: string, card: CardSecret, securityCode: string | undefined, encoding: Encoding): string => {
  const values: ReadonlyArray<readonly [string, string | undefined]> = [
    [CardPlaceholders.number, card.number],
    [CardPlaceholders.securityCode, securityCode],
    [CardPlaceholders.expMonth, String(card.expMonth).padStart(2, "0")],
    [CardPlaceholders.expYear2, String(card.expYear % 100).padStart(2, "0")],
    [CardPlaceholders.expYear, String(card.expYear)],
    [CardPlaceholders.holderName, card.holderName]
  ]
  let out = text
  for (const [placeholder, value] of values) {
    if (value !== undefined) out = out.replaceAll(placeholder, encode(value, encoding))
  }
  return out
}
