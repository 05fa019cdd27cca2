/**
 * Forwarding headers are believed only from a proxy the operator trusts (`TRUSTED_PROXIES`):
 * a client that reaches the host directly cannot buy a fresh guess allowance with a fresh
 * `X-Real-IP` or `X-Forwarded-For`, and a trusted proxy's header is read from the right, past
 * the trusted hops, to the client.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { clientIp } from "../../adapters/http/server/support/ClientIp.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { HostConfig } from "../../host/Config.ts"
import { baseUrl, testHost } from "../support/Host.ts"

const request = (peer: string, headers: Record<string, string> = {}) =>
  ({ remoteAddress: Option.some(peer), headers }) as unknown as HttpServerRequest.HttpServerRequest

describe("client address", () => {
  it("a peer that is not a trusted proxy is the client, whatever it forwards", () => {
    for (const trusted of [1, 2, ["10.0.0.0/8"]] as const) {
      assert.strictEqual(clientIp(request("203.0.113.5", { "x-real-ip": "198.51.100.1" }), trusted), "203.0.113.5", String(trusted))
      assert.strictEqual(clientIp(request("203.0.113.5", { "x-forwarded-for": "198.51.100.1" }), trusted), "203.0.113.5", String(trusted))
    }
    assert.strictEqual(clientIp(request("10.1.2.3", { "x-forwarded-for": "198.51.100.1" }), 0), "10.1.2.3")
  })

  it("from a trusted proxy, X-Forwarded-For is read from the right past the trusted hops; X-Real-IP without it", () => {
    const trusted = ["10.0.0.0/8", "2001:db8::/32", "192.0.2.7"]
    // The client forged the first entry; the edge proxy (10.0.0.2) appended the real one.
    assert.strictEqual(clientIp(request("10.0.0.1", { "x-forwarded-for": "1.2.3.4, 198.51.100.9, 10.0.0.2" }), trusted), "198.51.100.9")
    assert.strictEqual(clientIp(request("::ffff:192.0.2.7", { "x-forwarded-for": "198.51.100.9" }), trusted), "198.51.100.9")
    assert.strictEqual(clientIp(request("2001:db8::5", { "x-real-ip": "198.51.100.10" }), trusted), "198.51.100.10")
    // Garbage in the chain: the last trusted hop stands.
    assert.strictEqual(clientIp(request("10.0.0.1", { "x-forwarded-for": "198.51.100.9, not-an-ip" }), trusted), "10.0.0.1")
    // A count, as before, from a private or loopback peer: the n-th from the right.
    assert.strictEqual(clientIp(request("127.0.0.1", { "x-forwarded-for": "1.2.3.4, 198.51.100.9" }), 1), "198.51.100.9")
    assert.strictEqual(clientIp(request("10.0.0.1", { "x-forwarded-for": "1.2.3.4, 198.51.100.9, 10.0.0.2" }), 2), "198.51.100.9")
  })

  it.effect("TRUSTED_PROXIES takes a count or addresses and ranges; anything else stops the host, naming it", () =>
    Effect.gen(function*() {
      const read = (value: string) => HostConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord({ TRUSTED_PROXIES: value })))
      assert.strictEqual((yield* read("2")).trustedProxies, 2)
      assert.deepStrictEqual((yield* read("10.0.0.0/8, 2001:db8::1")).trustedProxies, ["10.0.0.0/8", "2001:db8::1"])
      const bad = yield* read("10.0.0.0/8,proxy.internal").pipe(Effect.flip)
      assert.include(String(bad.message), "TRUSTED_PROXIES")
      assert.include(String(bad.message), "proxy.internal")
    }))

  // The test client is on loopback, which this host does not trust.
  layer(testHost(MemoryStore.layer, { trustedProxies: ["10.0.0.0/8"], rateLimits: { productionPerSecond: 100, sandboxPerSecond: 100, authPerMinute: 10 } }), {
    timeout: 60_000,
    excludeTestServices: true
  })((it) => {
    it.effect("a direct client rotating X-Real-IP and X-Forwarded-For still spends one allowance", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const statuses = yield* Effect.promise(() =>
          Promise.all(Array.from({ length: 30 }, (_, i) =>
            fetch(`${base}/admin/v1/providers`, {
              headers: { authorization: `Bearer guess-${i}`, "x-real-ip": `198.51.100.${i}`, "x-forwarded-for": `192.0.2.${i}` }
            }).then((r) => r.status)))
        )
        assert.strictEqual(statuses.filter((s) => s === 401).length, 10, JSON.stringify(statuses))
        assert.strictEqual(statuses.filter((s) => s === 429).length, 20)
      }))
  })
})
