/**
 * Ids and the unauthenticated hosted links, probed as one merchant probes another: a sandbox
 * merchant advances its test clock and mints ids; another merchant creates payments. The ids the
 * second one gets do not follow from the first one's (not its time, not its last id plus a
 * little), and its payments cannot be opened or failed with their id alone: `/c/{id}` and the
 * sandbox provider's form need the capability the create response carries.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { CheckoutSessionStore } from "../../core/ports/CheckoutSessionStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { baseUrl, call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
/** The 128 bits of an id's ULID-shaped text (after its prefix), as a number. */
const bitsOf = (id: string): bigint => {
  const text = id.slice(-26).toUpperCase()
  let n = 0n
  for (const ch of text) n = (n << 5n) | BigInt(crockford.indexOf(ch))
  return n
}
const timeOf = (id: string) => Number(bitsOf(id) >> 80n)
/** The low 56 bits: the random part of an id. */
const randomOf = (id: string) => bitsOf(id) & ((1n << 56n) - 1n)

const fetchManual = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(base + path, { redirect: "manual", ...init })
      return { status: response.status, location: response.headers.get("location"), text: await response.text() }
    }))

const pay = (sk: string, body: Record<string, unknown> = {}) =>
  Effect.map(
    call("POST", "/api/v1/payments", {
      bearer: sk,
      body: { amount: 20, paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725", ...body }
    }),
    (r) => {
      if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body as { transactionId: string; checkoutUrl?: string; paymentFormUrl?: string; status: string }
    }
  )

const status = (sk: string, id: string) => Effect.map(call("GET", `/api/v1/payments/${id}`, { bearer: sk }), (r) => r.body.status as string)

for (const target of storeTargets("hostedlinks")) {
  describe(`ids and hosted links on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a sandbox shop that advanced its clock cannot predict, open or fail another merchant's payment", () =>
        Effect.gen(function*() {
          const attacker = (yield* createMerchant()).keys.sandbox.secretKey
          const victimMerchant = yield* createMerchant({ name: "Victim", email: "ops@victim.test" })
          const victim = victimMerchant.keys.sandbox.secretKey

          // The attacker moves its shop two days ahead, then mints ids as fast as it can.
          const advanced = yield* call("POST", "/api/v1/sandbox/clock/advance", { bearer: attacker, body: { seconds: 2 * 86_400 } })
          assert.strictEqual(advanced.status, 200, JSON.stringify(advanced.body))
          const before = Date.now()
          const mine: Array<string> = []
          const theirs: Array<string> = []
          // Interleaved: each victim payment is created right after one of the attacker's.
          for (let i = 0; i < 8; i++) {
            mine.push((yield* pay(attacker)).transactionId)
            theirs.push((yield* pay(victim, { hostedCheckout: true, returnUrl: "https://shop.example/done" })).transactionId)
          }
          const after = Date.now()

          // No id carries the advanced time: every one holds the real time of its creation.
          for (const id of [...mine, ...theirs]) {
            assert.isTrue(timeOf(id) >= before - 1_000 && timeOf(id) <= after + 1_000, `${id} carries ${new Date(timeOf(id)).toISOString()}`)
          }
          // Nor is any victim id near an attacker id: their random parts are unrelated. Two
          // independent 56-bit draws are within 2^40 of each other with probability ~2^-15.
          for (const id of theirs) {
            for (const prior of mine) {
              const gap = randomOf(id) > randomOf(prior) ? randomOf(id) - randomOf(prior) : randomOf(prior) - randomOf(id)
              assert.isTrue(gap > 1n << 40n, `${id} is ${gap} from ${prior}`)
            }
          }
          // And ids are distinct and still sort by creation.
          const all = mine.flatMap((id, i) => [id, theirs[i]!])
          assert.strictEqual(new Set(all.map((id) => id.slice(-26))).size, all.length)
          assert.deepStrictEqual([...all].sort((a, b) => (bitsOf(a) < bitsOf(b) ? -1 : 1)), all)

          // The victim's hosted link opens its payment; the id alone answers as an unknown id.
          const target = theirs[0]!
          const link = yield* call("GET", `/api/v1/payments/${target}`, { bearer: victim })
          assert.strictEqual(link.status, 200)
          const unknown = yield* fetchManual(`/c/TXN-01JD0000000000000000000000`)
          assert.strictEqual(unknown.status, 404)
          for (const path of [`/c/${target}`, `/c/${target}?token=`, `/c/${target}?token=${"A".repeat(33)}`]) {
            const reply = yield* fetchManual(path)
            assert.strictEqual(reply.status, 404, path)
            assert.strictEqual(reply.text, unknown.text, path)
          }
          // The sandbox provider's form: not shown, and a POST fails nothing, with the id alone.
          const form = yield* fetchManual(`/sandbox/pay/${target}`)
          assert.strictEqual(form.status, 404)
          for (const body of ["action=failed", `action=failed&secret=${"A".repeat(33)}`]) {
            const post = yield* fetchManual(`/sandbox/pay/${target}`, {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body
            })
            assert.strictEqual(post.status, 404, body)
          }
          assert.strictEqual(yield* status(victim, target), "pending")
        }))

      it.effect("the link the create response carries opens the provider's form, which pays with its secret", () =>
        Effect.gen(function*() {
          const sk = (yield* createMerchant()).keys.sandbox.secretKey
          const hosted = yield* pay(sk, { hostedCheckout: true, returnUrl: "https://shop.example/done" })
          const url = new URL(hosted.checkoutUrl!)
          assert.strictEqual(url.pathname, `/c/${hosted.transactionId}`)
          assert.strictEqual(url.searchParams.get("returnUrl"), "https://shop.example/done")
          // At least 128 bits of base62 in the token.
          assert.match(url.searchParams.get("token") ?? "", /^[0-9A-Za-z]{22,}$/)
          const opened = yield* fetchManual(url.pathname + url.search)
          assert.strictEqual(opened.status, 307)
          const form = new URL(opened.location!)
          assert.strictEqual(form.pathname, `/sandbox/pay/${hosted.transactionId}`)
          const secret = form.searchParams.get("secret") ?? ""
          assert.match(secret, /^[0-9A-Za-z]{22,}$/)
          // Another payment's secret opens nothing here.
          const other = yield* pay(sk)
          const otherSecret = new URL(other.paymentFormUrl!).searchParams.get("secret")!
          assert.notStrictEqual(otherSecret, secret)
          assert.strictEqual((yield* fetchManual(`/sandbox/pay/${hosted.transactionId}?secret=${otherSecret}`)).status, 404)

          const page = yield* fetchManual(form.pathname + form.search)
          assert.strictEqual(page.status, 200)
          assert.include(page.text, `name="secret" value="${secret}"`)
          const paid = yield* fetchManual(form.pathname, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `action=paid&secret=${secret}`
          })
          assert.strictEqual(paid.status, 303)
          assert.strictEqual(yield* status(sk, hosted.transactionId), "completed")
        }))

      it.effect("a return URL stored before merchant URLs were checked is not followed by the sandbox form (no 500, no javascript: redirect)", () =>
        Effect.gen(function*() {
          const sk = (yield* createMerchant()).keys.sandbox.secretKey
          const created = yield* pay(sk, { returnUrl: "https://shop.example/done" })
          const store = yield* PaymentStore
          const stored = Option.getOrThrow(yield* store.findById(created.transactionId))
          assert.isTrue(yield* store.update({ ...stored, returnUrl: "javascript:alert(1)", version: stored.version + 1 }))
          const form = new URL(created.paymentFormUrl!)
          const paid = yield* fetchManual(form.pathname, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `action=paid&secret=${form.searchParams.get("secret")}`
          })
          assert.strictEqual(paid.status, 303)
          assert.match(paid.location ?? "", /^\/sandbox\/pay\//)
        }))

      it.effect("a checkout session is stored by its token's hash: the token opens it, the stored value does not", () =>
        Effect.gen(function*() {
          const sk = (yield* createMerchant()).keys.sandbox.secretKey
          const created = yield* call("POST", "/api/v1/checkout/sessions", { bearer: sk, body: { amount: 30, country: "BR" } })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          const token: string = created.body.token
          assert.match(token, /^cst_[0-9A-Za-z]{33}$/)
          const store = yield* CheckoutSessionStore
          assert.isTrue(Option.isNone(yield* store.findByToken(token)), "the raw token is not a key of the store")
          const hash = createHash("sha256").update(token).digest("hex")
          const stored = Option.getOrThrow(yield* store.findByToken(hash))
          assert.strictEqual(stored.token, hash)
          assert.notInclude(JSON.stringify(stored), token)
          // The token opens the page and the public read; the stored hash opens nothing.
          assert.strictEqual((yield* fetchManual(`/checkout/${token}`)).status, 200)
          const read = yield* call("GET", `/api/v1/checkout/sessions/${token}`)
          assert.strictEqual(read.status, 200)
          assert.strictEqual(read.body.token, token)
          assert.strictEqual((yield* fetchManual(`/checkout/${hash}`)).status, 404)
          assert.strictEqual((yield* call("GET", `/api/v1/checkout/sessions/${hash}`)).status, 404)

          // The payment its select creates: stored with its link token, opened by it alone.
          const picked = yield* call("POST", `/api/v1/checkout/sessions/${token}/select`, {
            body: { paymentMethodId: "sbx_pix", customer: { fullName: "Ana Souza", email: "ana@example.com", documentId: "52998224725" } }
          })
          assert.strictEqual(picked.status, 200, JSON.stringify(picked.body))
          const link = new URL(picked.body.checkoutUrl)
          const payment = Option.getOrThrow(yield* (yield* PaymentStore).findById(picked.body.transactionId))
          assert.strictEqual(link.searchParams.get("token"), payment.linkToken)
          assert.strictEqual((yield* fetchManual(link.pathname + link.search)).status, 307)
        }))
    })
  })
}
