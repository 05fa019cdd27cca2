/**
 * The engine's card vault client against a vault speaking the wire (`test/support/FakeVault.ts`):
 * each of the vault's answers becomes the port's error the port documents, so that a connector
 * can tell a charge surely not sent (unreachable, refused) from one that may have been (unknown).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { createServer } from "node:http"
import { createServer as createTcpServer } from "node:net"
import * as HttpCardVault from "../../adapters/vault/HttpCardVault.ts"
import { CardPlaceholders, type ForwardRequest } from "../../core/ports/CardVault.ts"
import { fakeVault, testCard } from "../support/FakeVault.ts"

/** A provider on loopback that answers every request with what it received, after `delayMs`. */
const provider = (delayMs = 0) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const received: Array<string> = []
      const server = createServer((req, res) => {
        let text = ""
        req.on("data", (c) => (text += c))
        req.on("end", () => {
          received.push(text)
          setTimeout(() => res.writeHead(201, { "content-type": "application/json", "x-provider": "yes" }).end(JSON.stringify({ echoed: text })), delayMs)
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const address = server.address()
      return { server, received, url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/charges` }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
  )

/** A loopback port nothing listens on (it was free a moment ago): connecting to it is refused. */
const closedPort = Effect.promise(() =>
  new Promise<number>((resolve) => {
    const server = createTcpServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })
)

const card = testCard("mer_1", "card_aaaaaaaaaaaaaaaaaaaaaaaa", { number: "4111111111111111", securityCode: "737" })

const client = (url: string, key = "test-vault-engine-key", extra: Partial<HttpCardVault.Options> = {}) =>
  HttpCardVault.make({ url, engineKey: Redacted.make(key), ...extra })

const forwardTo = (url: string, overrides: Partial<ForwardRequest> = {}): ForwardRequest => ({
  token: card.description.token,
  merchantId: "mer_1",
  providerId: "test-provider",
  method: "POST",
  url,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ number: CardPlaceholders.number, cvv: CardPlaceholders.securityCode, exp: `${CardPlaceholders.expMonth}/${CardPlaceholders.expYear2}` }),
  ...overrides
})

describe("HttpCardVault", () => {
  it.live("describe answers the card's description, asked with the engine's key as a bearer and the merchant", () =>
    Effect.gen(function*() {
      const vault = yield* fakeVault({ cards: [card] })
      const described = yield* client(vault.url).describe("mer_1", card.description.token)
      assert.deepStrictEqual(described, card.description)
      assert.strictEqual(vault.calls[0]?.authorization, "Bearer test-vault-engine-key")
      assert.strictEqual(vault.calls[0]?.path, `/v1/cards/${card.description.token}?merchantId=mer_1`)
    }).pipe(Effect.scoped))

  it.live("an unknown token, and another merchant's, is CardTokenNotFound", () =>
    Effect.gen(function*() {
      const vault = yield* fakeVault({ cards: [card] })
      const unknown = yield* Effect.flip(client(vault.url).describe("mer_1", "card_nope"))
      assert.strictEqual(unknown._tag, "CardTokenNotFound")
      const foreign = yield* Effect.flip(client(vault.url).describe("mer_2", card.description.token))
      assert.strictEqual(foreign._tag, "CardTokenNotFound")
    }).pipe(Effect.scoped))

  it.live("a vault that refuses the key, answers 500, or is not listening is unreachable, and no message carries the key", () =>
    Effect.gen(function*() {
      const vault = yield* fakeVault({ cards: [card] })
      const wrongKey = yield* Effect.flip(client(vault.url, "wrong-key-secret").describe("mer_1", card.description.token))
      assert.strictEqual(wrongKey._tag, "ForwardUnreachable")
      assert.notInclude(wrongKey.message, "wrong-key-secret")
      vault.failWith(500)
      assert.strictEqual((yield* Effect.flip(client(vault.url).describe("mer_1", card.description.token)))._tag, "ForwardUnreachable")
      const closed = yield* Effect.flip(client(`http://127.0.0.1:${yield* closedPort}`).describe("mer_1", card.description.token))
      assert.strictEqual(closed._tag, "ForwardUnreachable")
      assert.include(closed.message, "ECONNREFUSED")
    }).pipe(Effect.scoped))

  it.live("forward: the provider receives the card filled in; the engine gets the provider's status, headers and a masked body", () =>
    Effect.gen(function*() {
      const upstream = yield* provider()
      const vault = yield* fakeVault({ cards: [card] })
      const answer = yield* client(vault.url).forward(forwardTo(upstream.url))
      assert.deepStrictEqual(JSON.parse(upstream.received[0]!), { number: "4111111111111111", cvv: "737", exp: "12/99" })
      assert.strictEqual(answer.status, 201)
      assert.strictEqual(answer.headers["x-provider"], "yes")
      assert.include(answer.body, "411111******1111")
      assert.notInclude(answer.body, "4111111111111111")
    }).pipe(Effect.scoped))

  it.live("forward: a provider not reachable is ForwardUnreachable; a provider too slow is ForwardOutcomeUnknown", () =>
    Effect.gen(function*() {
      const vault = yield* fakeVault({ cards: [card] })
      const down = yield* Effect.flip(client(vault.url).forward(forwardTo(`http://127.0.0.1:${yield* closedPort}/charges`)))
      assert.strictEqual(down._tag, "ForwardUnreachable")
      // The code of the vault's envelope is read.
      assert.include(down.message, "upstream_unreachable")
      const slow = yield* provider(400)
      const late = yield* Effect.flip(client(vault.url).forward(forwardTo(slow.url, { timeoutMs: 50 })))
      assert.strictEqual(late._tag, "ForwardOutcomeUnknown")
    }).pipe(Effect.scoped))

  it.live("forward: refusals are ForwardRefused with the vault's reason (host not allowed, token unknown, security code gone)", () =>
    Effect.gen(function*() {
      const upstream = yield* provider()
      const vault = yield* fakeVault({ cards: [card, { ...testCard("mer_1", "card_nocode"), securityCode: undefined }], allowedHosts: [new URL(upstream.url).host] })
      const host = yield* Effect.flip(client(vault.url).forward(forwardTo("http://localhost:9/charges")))
      assert.deepStrictEqual([host._tag, host._tag === "ForwardRefused" ? host.reason : ""], ["ForwardRefused", "host_not_allowed"])
      const token = yield* Effect.flip(client(vault.url).forward(forwardTo(upstream.url, { token: "card_nope" })))
      assert.deepStrictEqual([token._tag, token._tag === "ForwardRefused" ? token.reason : ""], ["ForwardRefused", "token_not_found"])
      const gone = yield* Effect.flip(client(vault.url).forward(forwardTo(upstream.url, { token: "card_nocode" })))
      assert.deepStrictEqual([gone._tag, gone._tag === "ForwardRefused" ? gone.reason : ""], ["ForwardRefused", "security_code_gone"])
      assert.strictEqual(upstream.received.length, 0)
    }).pipe(Effect.scoped))

  it.live("forward: the vault itself not answering in time is ForwardOutcomeUnknown; not listening is ForwardUnreachable", () =>
    Effect.gen(function*() {
      const upstream = yield* provider()
      const vault = yield* fakeVault({ cards: [card] })
      vault.answerLate(400)
      const late = yield* Effect.flip(client(vault.url, undefined, { forwardMarginMs: 10 }).forward(forwardTo(upstream.url, { timeoutMs: 40 })))
      assert.strictEqual(late._tag, "ForwardOutcomeUnknown")
      const closed = yield* Effect.flip(client(`http://127.0.0.1:${yield* closedPort}`).forward(forwardTo(upstream.url)))
      assert.strictEqual(closed._tag, "ForwardUnreachable")
    }).pipe(Effect.scoped))
})
