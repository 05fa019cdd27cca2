/**
 * A forward's `bodyHmac` (`core/ports/CardVault.ts`): the signature of a request whose body carries
 * the card, computed by the vault after the placeholders are filled, because only the vault ever
 * sees the bytes that are sent. Generic: lowercase hex HMAC-SHA256 of `prefix + body`, keyed by
 * the key the engine passes for this one request, written into `template` where
 * `BodyHmacPlaceholder` stands, as header `header`. The key is never stored or logged.
 */
import { createHmac } from "node:crypto"
import { Redacted } from "effect"
import { BodyHmacPlaceholder, type ForwardRequest } from "../../core/ports/CardVault.ts"

/** The headers with the signature set (an existing header of the same name, any case, replaced). */
export const signed = (
  headers: Readonly<Record<string, string>>,
  spec: NonNullable<ForwardRequest["bodyHmac"]>,
  body: string
): Record<string, string> => {
  const hex = createHmac("sha256", Redacted.value(spec.key)).update(`${spec.prefix}${body}`, "utf8").digest("hex")
  const name = spec.header.toLowerCase()
  const kept = Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name))
  return { ...kept, [spec.header]: spec.template.split(BodyHmacPlaceholder).join(hex) }
}
