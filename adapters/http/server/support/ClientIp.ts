/**
 * The buyer's address as the service's own edge saw it. Forwarding headers are believed only
 * from a proxy the operator trusts: the socket's peer must be one (else it is the client, and
 * whatever `X-Forwarded-For` or `X-Real-IP` it sent is ignored). From a trusted peer,
 * `X-Forwarded-For` is read from the right, past every trusted proxy, to the first address that
 * is not one: the client as the outermost trusted proxy saw it (everything left of that was sent
 * by the client and may be forged). Without `X-Forwarded-For`, a trusted peer's `X-Real-IP`.
 *
 * Who is trusted (`TRUSTED_PROXIES`): a list of addresses and CIDR ranges (`10.0.0.0/8,
 * 2001:db8::1`). A number, as before, still counts the proxies that append to
 * `X-Forwarded-For` (its n-th entry from the right is the client), but only from a peer on a
 * loopback, private or link-local address: a request that reaches the host directly from the
 * internet is never believed about its own address.
 */
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import ipaddr from "ipaddr.js"

/** `TRUSTED_PROXIES` as the host passes it: a proxy count (0: none), or trusted addresses and ranges. */
export type TrustedProxies = number | ReadonlyArray<string>

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** The ranges a legacy proxy count trusts: loopback, private and link-local addresses. */
const localRanges: ReadonlyArray<Range> = [
  "127.0.0.0/8",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "169.254.0.0/16",
  "100.64.0.0/10",
  "::1/128",
  "fc00::/7",
  "fe80::/10"
].map((cidr) => ipaddr.parseCIDR(cidr))

/** One trusted entry as a range: an address alone is its own /32 or /128. */
export const parseTrustedProxy = (entry: string): Range | undefined => {
  const text = entry.trim()
  try {
    if (text.includes("/")) {
      const [address, bits] = ipaddr.parseCIDR(text)
      return [address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address, bits]
    }
    const address = ipaddr.process(text)
    return [address, address.kind() === "ipv4" ? 32 : 128]
  } catch {
    return undefined
  }
}

/** The entries of a `TRUSTED_PROXIES` list that are not an address or a range (to refuse at start). */
export const invalidTrustedProxies = (entries: ReadonlyArray<string>) => entries.filter((e) => parseTrustedProxy(e) === undefined)

const compiled = new Map<string, ReadonlyArray<Range>>()
const rangesOf = (entries: ReadonlyArray<string>): ReadonlyArray<Range> => {
  const key = entries.join(",")
  let ranges = compiled.get(key)
  if (ranges === undefined) {
    ranges = entries.flatMap((e) => {
      const range = parseTrustedProxy(e)
      return range === undefined ? [] : [range]
    })
    compiled.set(key, ranges)
  }
  return ranges
}

/** An address as one spelling (`::ffff:10.0.0.1` is `10.0.0.1`); none when it is not one. */
const parse = (text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  if (text === undefined) return undefined
  try {
    return ipaddr.process(text.trim())
  } catch {
    return undefined
  }
}

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: ReadonlyArray<Range>) =>
  ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits))

export const clientIp = (request: HttpServerRequest.HttpServerRequest, trusted: TrustedProxies): string | undefined => {
  const peerText = Option.getOrUndefined(request.remoteAddress)
  if (trusted === 0 || (typeof trusted !== "number" && trusted.length === 0)) return peerText
  const ranges = typeof trusted === "number" ? localRanges : rangesOf(trusted)
  const peer = parse(peerText)
  if (peer === undefined || !within(peer, ranges)) return peerText
  const forwarded = (request.headers["x-forwarded-for"] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  if (typeof trusted === "number") {
    // The n-th entry from the right, as the nearest of n appending proxies wrote it.
    const entry = forwarded.length >= trusted ? parse(forwarded[forwarded.length - trusted]) : undefined
    if (entry !== undefined) return entry.toString()
  } else if (forwarded.length > 0) {
    // From the right: past the trusted proxies, the first address that is not one.
    let nearest = peer
    for (let i = forwarded.length - 1; i >= 0; i--) {
      const hop = parse(forwarded[i])
      // Not an address: whatever wrote it is not believed; the last trusted hop stands.
      if (hop === undefined) return nearest.toString()
      if (!within(hop, ranges)) return hop.toString()
      nearest = hop
    }
    return nearest.toString()
  }
  const realIp = parse(request.headers["x-real-ip"])
  return realIp === undefined ? peerText : realIp.toString()
}
