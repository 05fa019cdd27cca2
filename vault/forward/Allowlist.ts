/**
 * Where the vault may send a card: `https:` to a host its allowlist names (`VAULT_FORWARD_HOSTS`,
 * `host` for the scheme's default port or `host:port`), or `http:` to a loopback address when the
 * vault allows it (`VAULT_ALLOW_HTTP_LOOPBACK=true`, for simulators). Names are compared lower-case.
 */
export interface AllowlistConfig {
  readonly hosts: ReadonlyArray<string>
  readonly allowHttpLoopback: boolean
}

const loopbackNames = new Set(["127.0.0.1", "localhost", "[::1]"])

export const parseHosts = (text: string | undefined): ReadonlyArray<string> =>
  (text ?? "").split(",").map((host) => host.trim().toLowerCase()).filter((host) => host.length > 0)

/** The URL when the vault may send to it, else why not. */
export const check = (config: AllowlistConfig, raw: string): { readonly ok: URL } | { readonly refused: string } => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { refused: "the forward URL is not an absolute URL" }
  }
  if (url.username !== "" || url.password !== "") return { refused: "the forward URL may not carry credentials" }
  if (url.protocol === "http:") {
    if (!config.allowHttpLoopback || !loopbackNames.has(url.hostname.toLowerCase())) {
      return { refused: "the vault sends cards over https only (http only to a loopback simulator it allows)" }
    }
  } else if (url.protocol !== "https:") {
    return { refused: "the vault sends cards over https only" }
  }
  // `url.host` omits the scheme's default port, so `host` entries match it and `host:port` entries any other.
  if (!config.hosts.includes(url.host.toLowerCase())) return { refused: `the host ${url.host} is not on the vault's forward allowlist` }
  return { ok: url }
}
