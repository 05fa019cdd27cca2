/**
 * The vault's HTTP API end to end on a loopback port: tokenize with a session, describe with the
 * engine's key, forward to a loopback provider stub (which proves what reached it), the audit
 * trail, and the refusals (host, security code gone, timeout, unreachable) with their codes.
 */
import { Effect, Exit, Scope } from "effect"
import { createServer, type AddressInfo } from "node:net"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { CardPlaceholders } from "../../core/ports/CardVault.ts"
import { type RunningVault, startForTest } from "../../vault/index.ts"
import { startProviderStub } from "./ProviderStub.ts"
import { cards, testConfig } from "./VaultFixtures.ts"

let vault: RunningVault
let scope: Scope.Closeable
let stub: Awaited<ReturnType<typeof startProviderStub>>
/** A loopback port nothing listens on (taken, then released). */
let closedPort: number

beforeAll(async () => {
  stub = await startProviderStub()
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve))
  closedPort = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  scope = Effect.runSync(Scope.make())
  vault = await Effect.runPromise(Scope.provide(scope)(startForTest(testConfig({ forwardHosts: [stub.host, "psp.example.com", `127.0.0.1:${closedPort}`], allowHttpLoopback: true }))))
})

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await stub.close()
})

const call = async (method: string, path: string, auth: string | undefined, body?: unknown) => {
  const response = await fetch(vault.url + path, {
    method,
    headers: { ...(auth === undefined ? {} : { authorization: `Bearer ${auth}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined, text }
}

const tokenize = async (merchantId: string, card: Record<string, unknown>) =>
  call("POST", "/v1/cards", await vault.session({ merchantId }), { number: cards.visa, expMonth: 7, expYear: 2031, holderName: "Ana O'Neil \"Jr\"", ...card })

const forward = (body: Record<string, unknown>) => call("POST", "/v1/forward", vault.engineKey, body)

describe("vault HTTP API", () => {
  it("answers /health", async () => {
    assert.deepStrictEqual((await call("GET", "/health", undefined)).body, { status: "ok" })
    const unknown = await call("DELETE", "/v1/cards/x", vault.engineKey)
    assert.deepStrictEqual([unknown.status, unknown.body.error.code], [404, "not_found"])
  })

  it("tokenizes with a session and refuses without one, or with bad input, by code", async () => {
    assert.strictEqual((await call("POST", "/v1/cards", undefined, {})).body.error.code, "session_invalid")
    assert.strictEqual((await call("POST", "/v1/cards", vault.engineKey, {})).body.error.code, "session_invalid")
    const bad = await tokenize("mer_a", { number: "4111111111111112" })
    assert.strictEqual(bad.status, 422)
    assert.deepStrictEqual(bad.body.error.code, "card_number_invalid")
    assert.notInclude(bad.text, "4111111111111112")
    const notJson = await call("POST", "/v1/cards", await vault.session({ merchantId: "mer_a" }), "{")
    assert.deepStrictEqual([notJson.status, notJson.body.error.code], [400, "invalid_json"])
    const missing = await call("POST", "/v1/cards", await vault.session({ merchantId: "mer_a" }), { number: cards.visa })
    assert.deepStrictEqual([missing.status, missing.body.error.code], [400, "invalid_request"])
    const ok = await tokenize("mer_a", { securityCode: "123" })
    assert.strictEqual(ok.status, 201)
    assert.strictEqual(ok.body.merchantId, "mer_a")
    assert.deepStrictEqual([ok.body.brand, ok.body.bin, ok.body.last4, ok.body.securityCodeHeld], ["visa", "41111111", "1111", true])
  })

  it("describes a token to the engine only, and only for its merchant", async () => {
    const card = (await tokenize("mer_b", {})).body
    assert.strictEqual((await call("GET", `/v1/cards/${card.token}?merchantId=mer_b`, undefined)).status, 401)
    assert.strictEqual((await call("GET", `/v1/cards/${card.token}?merchantId=mer_b`, "not-the-key")).status, 401)
    const other = await call("GET", `/v1/cards/${card.token}?merchantId=mer_c`, vault.engineKey)
    assert.deepStrictEqual([other.status, other.body.error.code], [404, "card_not_found"])
    const described = await call("GET", `/v1/cards/${card.token}?merchantId=mer_b`, vault.engineKey)
    assert.deepStrictEqual(described.body, card)
  })

  it("forwards with the card filled in, masks the answer, and drops the security code after one use", async () => {
    const card = (await tokenize("mer_f", { securityCode: "456" })).body
    stub.answer({ status: 201, headers: { "x-echo": cards.visa }, body: (r) => JSON.stringify({ id: "ch_1", echoed: JSON.parse(r.body).card.number }) })
    const before = stub.received.length
    const answer = await forward({
      token: card.token,
      merchantId: "mer_f",
      providerId: "stub-psp",
      method: "POST",
      url: `${stub.url}/charges?x=1`,
      // The engine's content-length is for the body with placeholders: the vault frames the filled body itself.
      headers: { "content-type": "application/json", "content-length": "3", "x-card-last": `${CardPlaceholders.number}` },
      body: JSON.stringify({
        card: {
          number: CardPlaceholders.number,
          cvv: CardPlaceholders.securityCode,
          month: CardPlaceholders.expMonth,
          year: CardPlaceholders.expYear,
          year2: CardPlaceholders.expYear2,
          name: CardPlaceholders.holderName
        }
      })
    })
    assert.strictEqual(answer.status, 200)
    assert.strictEqual(answer.body.status, 201)
    assert.deepStrictEqual(JSON.parse(answer.body.body), { id: "ch_1", echoed: "411111******1111" })
    assert.strictEqual(answer.body.headers["x-echo"], "411111******1111")
    assert.notInclude(answer.text, cards.visa)
    const got = stub.received.slice(before)
    assert.strictEqual(got.length, 1)
    assert.strictEqual(got[0]!.path, "/charges?x=1")
    assert.strictEqual(got[0]!.headers["x-card-last"], cards.visa)
    // Only the engine's headers (filled) reach the provider: not the vault's credential, nor anything of the vault's.
    assert.isUndefined(got[0]!.headers["authorization"])
    assert.notInclude(JSON.stringify(got[0]!.headers), vault.engineKey)
    assert.deepStrictEqual(
      Object.keys(got[0]!.headers).filter((name) => !["host", "connection", "content-length", "content-type", "accept", "accept-language", "accept-encoding", "user-agent", "sec-fetch-mode"].includes(name)),
      ["x-card-last"]
    )
    // The holder name's quotes are escaped for JSON: the provider gets the structure the engine wrote.
    assert.deepStrictEqual(JSON.parse(got[0]!.body), {
      card: { number: cards.visa, cvv: "456", month: "07", year: "2031", year2: "31", name: "Ana O'Neil \"Jr\"" }
    })
    assert.isFalse((await call("GET", `/v1/cards/${card.token}?merchantId=mer_f`, vault.engineKey)).body.securityCodeHeld)
    const again = await forward({ token: card.token, merchantId: "mer_f", providerId: "stub-psp", method: "POST", url: `${stub.url}/charges`, headers: {}, body: CardPlaceholders.securityCode })
    assert.deepStrictEqual([again.status, again.body.error.code], [410, "security_code_gone"])
    assert.strictEqual(stub.received.length, before + 1)

    const audit = await call("GET", `/v1/audit?token=${card.token}`, vault.engineKey)
    assert.deepStrictEqual(
      audit.body.data.map((e: Record<string, unknown>) => [e["action"], e["actor"], e["merchantId"], e["providerId"], e["host"]]),
      [["tokenize", "merchant:mer_f", "mer_f", null, null], ["forward", "engine", "mer_f", "stub-psp", stub.host]]
    )
    assert.strictEqual((await call("GET", `/v1/audit?token=${card.token}`, undefined)).status, 401)
  })

  it("holds the security code for one payment's forwards (the next acquirer, 3-D Secure's retry), not another's", async () => {
    const card = (await tokenize("mer_p", { securityCode: "789" })).body
    stub.answer({ status: 200, body: (r) => r.body })
    const before = stub.received.length
    const send = (purpose: string | undefined) =>
      forward({ token: card.token, merchantId: "mer_p", providerId: "stub-psp", method: "POST", url: `${stub.url}/charges`, headers: {}, body: `cvv=${CardPlaceholders.securityCode}`, ...(purpose === undefined ? {} : { purpose }) })
    const first = await send("TXN-A")
    const next = await send("TXN-A")
    assert.deepStrictEqual([first.body.body, next.body.body], ["cvv=789", "cvv=789"])
    // Held for that payment: a new payment would not have it.
    assert.isFalse((await call("GET", `/v1/cards/${card.token}?merchantId=mer_p`, vault.engineKey)).body.securityCodeHeld)
    const other = await send("TXN-B")
    assert.deepStrictEqual([other.status, other.body.error.code], [410, "security_code_gone"])
    const none = await send(undefined)
    assert.deepStrictEqual([none.status, none.body.error.code], [410, "security_code_gone"])
    assert.strictEqual(stub.received.length, before + 2)
    // The payment's own forwards still have it: the refusals took nothing.
    assert.strictEqual((await send("TXN-A")).body.body, "cvv=789")
  })

  it("sends nothing to a host off the allowlist, for an unknown token, or another merchant's", async () => {
    const card = (await tokenize("mer_g", {})).body
    const before = stub.received.length
    const base = { token: card.token, merchantId: "mer_g", providerId: "p", method: "POST", headers: {}, body: CardPlaceholders.number }
    const offList = await forward({ ...base, url: "https://evil.example.com/steal" })
    assert.deepStrictEqual([offList.status, offList.body.error.code], [403, "host_not_allowed"])
    const httpOffLoopback = await forward({ ...base, url: "http://psp.example.com/charges" })
    assert.deepStrictEqual([httpOffLoopback.status, httpOffLoopback.body.error.code], [403, "host_not_allowed"])
    const otherPort = await forward({ ...base, url: "http://127.0.0.1:1/charges" })
    assert.strictEqual(otherPort.status, 403)
    const otherMerchant = await forward({ ...base, merchantId: "mer_h", url: `${stub.url}/charges` })
    assert.deepStrictEqual([otherMerchant.status, otherMerchant.body.error.code], [404, "card_not_found"])
    const noKey = await call("POST", "/v1/forward", undefined, { ...base, url: `${stub.url}/charges` })
    assert.strictEqual(noKey.status, 401)
    const malformed = await forward({ ...base, method: "TRACE", url: `${stub.url}/charges` })
    assert.deepStrictEqual([malformed.status, malformed.body.error.code], [400, "invalid_request"])
    assert.strictEqual(stub.received.length, before)
  })

  it("answers 504 when the provider does not answer in time, 502 when it cannot be reached", async () => {
    const card = (await tokenize("mer_t", {})).body
    stub.answer("hang")
    const base = { token: card.token, merchantId: "mer_t", providerId: "p", method: "POST", headers: {}, body: CardPlaceholders.number }
    const slow = await forward({ ...base, url: `${stub.url}/slow`, timeoutMs: 150 })
    assert.deepStrictEqual([slow.status, slow.body.error.code], [504, "upstream_timeout"])
    stub.answer({ status: 200, body: () => "{}" })
    // Nothing listens on that port: the connection is refused before anything is sent.
    const closed = await forward({ ...base, url: `http://127.0.0.1:${closedPort}/charges` })
    assert.deepStrictEqual([closed.status, closed.body.error.code], [502, "upstream_unreachable"])
  })
})
