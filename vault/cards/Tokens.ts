/** Card tokens: `card_` and 24 characters from a CSPRNG (base62, rejection sampled: no modulo bias), about 143 bits. */
import { randomBytes } from "node:crypto"

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

export const newCardToken = (): string => {
  let out = ""
  while (out.length < 24) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && out.length < 24) out += alphabet[byte % 62]
    }
  }
  return `card_${out}`
}

export const isCardToken = (token: string): boolean => /^card_[0-9A-Za-z]{24}$/.test(token)
