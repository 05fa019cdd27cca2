/**
 * The rule of every URL a merchant gives the engine (a payment's or a checkout session's
 * `returnUrl`, a webhook's `url`): an absolute `https` URL (`http` only in the sandbox), with no
 * credentials in it and nothing a browser or a parser would read another way (white space,
 * control characters, a backslash). A buyer's browser follows `returnUrl` from a page on the
 * engine's own origin, so a `javascript:` or `data:` one would run there; the API refuses it.
 */
import type { Environment } from "./Environment.ts"

/** Characters a merchant URL may not hold: white space, C0/C1 controls, DEL, a backslash. */
// eslint-disable-next-line no-control-regex
const unsafeCharacters = /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff\\]/

export const maxMerchantUrlLength = 2000

/**
 * What is wrong with `url` as a merchant URL, in the merchant's words; none when it is fine. With
 * no environment only the rules of every environment apply (`http` is allowed); a production one
 * needs `https`.
 */
export const merchantUrlProblem = (url: string, environment?: Environment): string | undefined => {
  if (url.length > maxMerchantUrlLength) return `Expected at most ${maxMerchantUrlLength} characters`
  if (unsafeCharacters.test(url)) return "Expected a URL without white space, control characters or backslashes"
  // Only `http://` or `https://` followed by a host: no scheme-relative `//host`, no `javascript:`.
  if (!/^https?:\/\/[^/?#]/i.test(url)) return "Expected an absolute http or https URL"
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "Expected an absolute http or https URL"
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "Expected an absolute http or https URL"
  if (parsed.username !== "" || parsed.password !== "") return "Credentials may not be part of the URL"
  if (parsed.hostname === "") return "Expected an absolute http or https URL"
  if (environment === "production" && parsed.protocol !== "https:") return "Expected an https URL in production"
  return undefined
}
