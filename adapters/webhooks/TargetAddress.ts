/**
 * Which addresses a webhook may be delivered to: public unicast ones only. Loopback, private
 * (RFC 1918, fc00::/7), link-local (169.254/16 with the cloud metadata services, fe80::/10),
 * unspecified, carrier-grade NAT, multicast, broadcast and reserved ranges are refused, also when
 * spelled as IPv4-mapped IPv6. The WHATWG URL parser has already normalised decimal, hex, octal
 * and short IPv4 spellings (`http://2130706433/`, `http://0x7f.1/`, `http://127.1/` are
 * `127.0.0.1`), so classifying the parsed hostname covers them. Classification is
 * `ipaddr.js`'s (a maintained library), not a hand-kept list.
 */
import ipaddr from "ipaddr.js"

/** Why `address` (an IP literal) may not be a target, or undefined when it may. */
export const forbiddenAddress = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`
  const parsed = ipaddr.process(address)
  // IPv4-compatible IPv6 (::/96, e.g. ::127.0.0.1): deprecated, and a way around the IPv4 rules.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
    return `${address} is an IPv4-compatible IPv6 address`
  }
  const range = parsed.range()
  return range === "unicast" ? undefined : `${address} is a ${range} address`
}

/** Why the host of `url` may not be a target, judged without DNS, or undefined when it may. */
export const forbiddenHost = (url: string): string | undefined => {
  let hostname: string
  try {
    hostname = new URL(url).hostname.toLowerCase()
  } catch {
    return "not a URL"
  }
  // `localhost.` is `localhost`: a trailing dot changes nothing for DNS.
  const bare = (hostname.startsWith("[") ? hostname.slice(1, -1) : hostname).replace(/\.+$/, "")
  if (ipaddr.isValid(bare)) return forbiddenAddress(bare)
  if (bare === "localhost" || bare.endsWith(".localhost") || bare.endsWith(".local") || bare.endsWith(".internal")) {
    return `${bare} is a local name`
  }
  return undefined
}
