/**
 * Deposit accounts through the API (spec 2.13, 3.5, 4.10): every get-or-create rule and error,
 * CLABE check digits, 50 concurrent creates for one user, paging and stats, simulated and signed
 * deposits credited as pay-ins once, disabled accounts, and another shop's id.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect, Option, Redacted } from "effect"
import Stripe from "stripe"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { isValidClabe } from "../../core/deposits/Clabe.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"

const stripe = new Stripe("sk_test_unused")

const enable = (shopId: string, depositMethodIds: ReadonlyArray<string>, requirePhone = false, environment = "sandbox") =>
  call("PUT", `/admin/v1/shops/${shopId}/deposit-settings`, { bearer: adminToken, body: { environment, depositMethodIds, requirePhone } })

const merchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey, shopId: m.shops[0]!.id }))

const create = (sk: string, body: Record<string, unknown>) => call("POST", "/api/v1/me/deposit-accounts", { bearer: sk, body })

const user = (ref: string) => ({ endUserRef: ref, name: "María López", email: `${ref}@example.com` })

describe("deposit accounts", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("get-or-create: sandbox has the Mexican method until an operator chooses, production needs the operator; 201 with a valid CLABE, then 200 for the same user", () =>
      Effect.gen(function*() {
        const { keys, shopId, sk } = yield* merchant
        const methodIds = (bearer: string) =>
          Effect.map(call("GET", "/api/v1/me/deposit-methods", { bearer }), (r) => (r.body.methods as ReadonlyArray<{ depositMethodId: string }>).map((m) => m.depositMethodId))
        assert.deepStrictEqual(yield* methodIds(sk), ["mx_spei_stp"], "a new sandbox shop can open deposit accounts")
        assert.deepStrictEqual(yield* methodIds(keys.production.secretKey), [], "production waits for the operator")
        const live = yield* create(keys.production.secretKey, user("u0"))
        assert.deepStrictEqual([live.status, live.body.error.code], [422, "deposit_accounts_unavailable"])

        // The operator's choice wins over the default, even when it is none.
        assert.strictEqual((yield* enable(shopId, [])).status, 200)
        const unavailable = yield* create(sk, user("u1"))
        assert.strictEqual(unavailable.status, 422)
        assert.strictEqual(unavailable.body.error.code, "deposit_accounts_unavailable")

        assert.strictEqual((yield* enable(shopId, ["mx_spei_stp"])).status, 200)
        const methods = yield* call("GET", "/api/v1/me/deposit-methods", { bearer: sk })
        assert.deepStrictEqual(methods.body.methods, [{ depositMethodId: "mx_spei_stp", method: "spei", name: "SPEI (STP)", country: "MX", currency: "MXN" }])

        const noEmail = yield* create(sk, { endUserRef: "u1", name: "María López" })
        assert.strictEqual(noEmail.status, 400)
        assert.strictEqual(noEmail.body.error.code, "invalid_request")
        assert.deepStrictEqual(noEmail.body.error.details.required, ["email"])

        const created = yield* create(sk, { ...user("u1"), phone: "+525512345678", documentType: "CURP", documentId: "LOMM800101MDFPRR09", country: "mx", metadata: { tier: "gold", source: "app" } })
        assert.strictEqual(created.status, 201)
        assert.isTrue(created.body.created)
        const a = created.body.account
        assert.match(a.id, /^eda_/)
        assert.match(a.clabe, /^646180\d{12}$/)
        assert.isTrue(isValidClabe(a.clabe))
        assert.isNull(a.bank)
        assert.deepInclude(a, { currency: "MXN", country: "MX", methodName: "SPEI (STP)", status: "active", environment: "sandbox", endUserRef: "u1" })
        assert.deepStrictEqual(a.beneficiary, { name: "María López", email: "u1@example.com" })
        assert.strictEqual(a.customer.country, "MX")
        assert.deepStrictEqual(a.metadata, { tier: "gold", source: "app" })

        const again = yield* create(sk, { endUserRef: "u1", name: "Someone Else" })
        assert.strictEqual(again.status, 200)
        assert.isFalse(again.body.created)
        assert.strictEqual(again.body.account.id, a.id)
        assert.strictEqual(again.body.account.clabe, a.clabe)
        assert.deepStrictEqual((yield* call("GET", `/api/v1/me/deposit-accounts/${a.id}`, { bearer: sk })).body, { account: a })
      }))

    it.effect("field limits, phone where required, method choice, and credentials", () =>
      Effect.gen(function*() {
        const { shopId, sk } = yield* merchant
        yield* enable(shopId, ["mx_spei_stp", "mx_spei_arcus"], true)
        const bad: Array<[Record<string, unknown>, number, string]> = [
          [{ ...user("x"), endUserRef: "r".repeat(201) }, 400, "invalid_request"],
          [{ ...user("x"), name: "n".repeat(201) }, 400, "invalid_request"],
          [{ endUserRef: "x", email: "x@example.com" }, 400, "invalid_request"],
          [{ ...user("x"), email: "nope" }, 400, "invalid_request"],
          [{ ...user("x"), phone: "+52".padEnd(41, "1") }, 400, "invalid_request"],
          [{ ...user("x"), documentType: "d".repeat(21) }, 400, "invalid_request"],
          [{ ...user("x"), documentId: "d".repeat(61) }, 400, "invalid_request"],
          [{ ...user("x"), country: "ZZ", phone: "+525512345678", depositMethodId: "mx_spei_stp" }, 400, "invalid_request"],
          [{ ...user("x"), metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }, 400, "invalid_request"],
          [{ ...user("x"), metadata: { k: "v".repeat(501) } }, 400, "invalid_request"],
          [{ ...user("x"), metadata: { k: 5 } }, 400, "invalid_request"]
        ]
        for (const [body, status, code] of bad) {
          const reply = yield* create(sk, body)
          assert.strictEqual(reply.status, status, JSON.stringify(body).slice(0, 80))
          assert.strictEqual(reply.body.error.code, code)
        }
        const needsBoth = yield* create(sk, { endUserRef: "p1", name: "Ana Pérez" })
        assert.deepStrictEqual(needsBoth.body.error.details.required, ["email", "phone"])
        const needsPhone = yield* create(sk, user("p1"))
        assert.deepStrictEqual(needsPhone.body.error.details.required, ["phone"])

        const choose = yield* create(sk, { ...user("p1"), phone: "+525512345678" })
        assert.strictEqual(choose.status, 422)
        assert.strictEqual(choose.body.error.code, "deposit_method_required")
        assert.sameMembers(choose.body.error.details.depositMethods.map((m: { depositMethodId: string }) => m.depositMethodId), ["mx_spei_stp", "mx_spei_arcus"])
        const unavailable = yield* create(sk, { ...user("p1"), phone: "+525512345678", depositMethodId: "br_pix_fixed" })
        assert.strictEqual(unavailable.status, 422)
        assert.strictEqual(unavailable.body.error.code, "deposit_method_unavailable")
        const arcus = yield* create(sk, { ...user("p1"), phone: "+525512345678", depositMethodId: "mx_spei_arcus" })
        assert.strictEqual(arcus.status, 201)
        assert.match(arcus.body.account.clabe, /^706180/)
        assert.isTrue(isValidClabe(arcus.body.account.clabe))

        // A merchant-wide key names no shop: 400. Another shop's account: the same 404 as an unknown id.
        const wide = yield* createMerchant({ shops: [{ name: "A" }, { name: "B" }] })
        const wideReply = yield* create(wide.keys.sandbox.secretKey, user("w1"))
        assert.strictEqual(wideReply.status, 400)
        assert.strictEqual(wideReply.body.error.code, "invalid_request")
        const stranger = yield* merchant
        const foreign = yield* call("GET", `/api/v1/me/deposit-accounts/${arcus.body.account.id}`, { bearer: stranger.sk })
        const unknown = yield* call("GET", "/api/v1/me/deposit-accounts/eda_unknown", { bearer: stranger.sk })
        assert.strictEqual(foreign.status, 404)
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(foreign.body.error.code, unknown.body.error.code)
      }))

    it.effect("list: newest first, endUserRef filter, limit clamped to 200, stats on request", () =>
      Effect.gen(function*() {
        const { shopId, sk } = yield* merchant
        yield* enable(shopId, ["mx_spei_stp"])
        for (const ref of ["a", "b", "c"]) yield* create(sk, user(ref))
        const all = yield* call("GET", "/api/v1/me/deposit-accounts?limit=500", { bearer: sk })
        assert.deepStrictEqual(all.body.pagination, { total: 3, limit: 200, offset: 0 })
        assert.deepStrictEqual(all.body.accounts.map((x: { endUserRef: string }) => x.endUserRef), ["c", "b", "a"])
        assert.notProperty(all.body.accounts[0], "stats")
        const one = yield* call("GET", "/api/v1/me/deposit-accounts?endUserRef=b&include=stats", { bearer: sk })
        assert.strictEqual(one.body.pagination.total, 1)
        assert.deepStrictEqual(one.body.accounts[0].stats, { deposits: 0, credited: 0, totalUsd: 0, localTotals: [], lastDepositAt: null })
        const paged = yield* call("GET", "/api/v1/me/deposit-accounts?limit=1&offset=1", { bearer: sk })
        assert.deepStrictEqual(paged.body.accounts.map((x: { endUserRef: string }) => x.endUserRef), ["b"])
      }))

    it.effect("a deposit becomes a completed pay-in once, even when notified twice; disabled accounts record without crediting", () =>
      Effect.gen(function*() {
        const { keys, shopId, sk } = yield* merchant
        yield* enable(shopId, ["mx_spei_stp"])
        const account = (yield* create(sk, user("dep"))).body.account
        const before = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body.balance

        const first = yield* call("POST", `/api/v1/me/deposit-accounts/${account.id}/simulate-deposit`, {
          bearer: sk,
          body: { amount: 1850, payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" }
        })
        assert.strictEqual(first.status, 201)
        assert.isTrue(first.body.created)
        const deposit = first.body.deposit
        assert.deepInclude(deposit, { status: "credited", amount: 1850, currency: "MXN", payerName: "Juan Pérez", beneficiaryName: "María López", beneficiaryEmail: "dep@example.com" })
        const usd = Money.round(BigDecimal.multiply(BigDecimal.divideUnsafe(Money.decimal("1850"), Money.decimal("18.50")), Money.decimal("0.98")), "USD")
        assert.strictEqual(deposit.amountUsd, Money.toJsonNumber(usd))

        const payment = yield* call("GET", `/api/v1/payments/${deposit.transactionId}`, { bearer: sk })
        assert.strictEqual(payment.body.status, "completed")
        assert.strictEqual(payment.body.amountLocal, 1850)
        assert.strictEqual(payment.body.paymentMethod, "spei")
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(deposit.transactionId))
        assert.strictEqual(stored.userEmail, "dep@example.com")
        const net = BigDecimal.subtract(BigDecimal.subtract(usd, Money.decimal(String(payment.body.fees.total))), Money.decimal(String(payment.body.settlement.reserve)))
        const after = (yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body.balance
        assert.strictEqual(after.pending, Money.toJsonNumber(BigDecimal.sum(Money.decimal(String(before.pending)), net)))

        const repeat = yield* call("POST", `/api/v1/me/deposit-accounts/${account.id}/simulate-deposit`, {
          bearer: sk,
          body: { amount: 1850, trackingKey: "MBAN01002411220001" }
        })
        assert.isFalse(repeat.body.created)
        assert.strictEqual(repeat.body.deposit.id, deposit.id)
        assert.deepStrictEqual((yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body.balance, after)
        const types = (yield* (yield* OutboxStore).list("sandbox", shopId)).map((e) => e.type)
        assert.deepStrictEqual(types.filter((t) => t === "deposit.credited").length, 1)
        assert.include(types, "payment.completed")

        const disabled = yield* call("PUT", `/admin/v1/deposit-accounts/${account.id}/status`, { bearer: adminToken, body: { status: "disabled" } })
        assert.strictEqual(disabled.body.account.status, "disabled")
        const rejected = yield* call("POST", `/api/v1/me/deposit-accounts/${account.id}/simulate-deposit`, { bearer: sk, body: { amount: 500 } })
        assert.deepInclude(rejected.body.deposit, { status: "rejected", transactionId: null })
        assert.deepStrictEqual((yield* call("GET", "/api/v1/me/balance", { bearer: sk })).body.balance, after)
        yield* call("PUT", `/admin/v1/deposit-accounts/${account.id}/status`, { bearer: adminToken, body: { status: "active" } })

        const list = yield* call("GET", `/api/v1/me/deposit-accounts/${account.id}/deposits`, { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 2)
        assert.deepStrictEqual(list.body.deposits.map((d: { status: string }) => d.status), ["rejected", "credited"])
        const stats = (yield* call("GET", `/api/v1/me/deposit-accounts?endUserRef=dep&include=stats`, { bearer: sk })).body.accounts[0].stats
        assert.deepInclude(stats, { deposits: 2, credited: 1, totalUsd: Money.toJsonNumber(usd), localTotals: [{ currency: "MXN", amount: 1850 }] })

        const live = yield* call("POST", `/api/v1/me/deposit-accounts/${account.id}/simulate-deposit`, { bearer: keys.production.secretKey, body: { amount: 5 } })
        assert.strictEqual(live.status, 400)
        assert.strictEqual(live.body.error.code, "simulate_sandbox_only")
      }))

    it.effect("the network's signed notification credits once; a bad signature is 401", () =>
      Effect.gen(function*() {
        const { shopId, sk } = yield* merchant
        yield* enable(shopId, ["mx_spei_stp"])
        const account = (yield* create(sk, user("net"))).body.account
        const body = JSON.stringify({ clabe: account.clabe, amount: "999.50", currency: "MXN", trackingKey: "BNET0001", payerName: "Empresa SA", payerBank: "BBVA" })
        const sign = (secret: string) => stripe.webhooks.generateTestHeaderString({ payload: body, secret })
        const forged = yield* call("POST", "/api/v1/deposits/notifications/mx_spei_stp", { rawBody: body, headers: { "x-deposit-signature": sign("wrong") } })
        assert.strictEqual(forged.status, 401)
        for (let i = 0; i < 2; i++) {
          const ok = yield* call("POST", "/api/v1/deposits/notifications/mx_spei_stp", { rawBody: body, headers: { "x-deposit-signature": sign("deposit-callback-secret") } })
          assert.strictEqual(ok.status, 200)
          assert.strictEqual(ok.body.credited, i === 0)
          assert.strictEqual(ok.body.deposit.payerBank, "BBVA")
        }
        const list = yield* call("GET", `/api/v1/me/deposit-accounts/${account.id}/deposits`, { bearer: sk })
        assert.strictEqual(list.body.pagination.total, 1)
        const unknownClabe = yield* call("POST", "/api/v1/deposits/notifications/mx_spei_stp", {
          rawBody: body.replace(account.clabe, "646180000000000000"),
          headers: { "x-deposit-signature": stripe.webhooks.generateTestHeaderString({ payload: body.replace(account.clabe, "646180000000000000"), secret: "deposit-callback-secret" }) }
        })
        assert.strictEqual(unknownClabe.status, 404)

        // Absurd amounts are refused, never recorded (the signature is valid).
        for (const amount of ["1e21", "100000000000000", 1e21]) {
          const huge = JSON.stringify({ clabe: account.clabe, amount, currency: "MXN", trackingKey: `HUGE${String(amount)}`, payerName: "X", payerBank: "Y" })
          const refused = yield* call("POST", "/api/v1/deposits/notifications/mx_spei_stp", {
            rawBody: huge,
            headers: { "x-deposit-signature": stripe.webhooks.generateTestHeaderString({ payload: huge, secret: "deposit-callback-secret" }) }
          })
          assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
          assert.strictEqual(refused.body.error.code, "invalid_request")
        }
        assert.strictEqual((yield* call("GET", `/api/v1/me/deposit-accounts/${account.id}/deposits`, { bearer: sk })).body.pagination.total, 1)
        const rate = yield* call("PUT", "/admin/v1/fx-rates/MXN", { bearer: adminToken, body: { perUsd: 1e308 } })
        assert.strictEqual(rate.status, 400)
      }))
  })
})

for (const target of storeTargets("deposits")) {
  describe(`deposit accounts on ${target.name}`, () => {
    layer(testHost(target.layer()), { timeout: 60_000, excludeTestServices: true })((it) => {
      it.effect("50 simultaneous creates for one endUserRef yield one account", () =>
        Effect.gen(function*() {
          const { shopId, sk } = yield* merchant
          yield* enable(shopId, ["mx_spei_stp"])
          const replies = yield* Effect.all(Array.from({ length: 50 }, () => create(sk, user("racer"))), { concurrency: "unbounded" })
          assert.strictEqual(replies.filter((r) => r.status === 201).length, 1, JSON.stringify(replies.map((r) => r.status)))
          assert.strictEqual(replies.filter((r) => r.status === 200).length, 49)
          assert.strictEqual(new Set(replies.map((r) => r.body.account.id)).size, 1)
          assert.strictEqual((yield* call("GET", "/api/v1/me/deposit-accounts?endUserRef=racer", { bearer: sk })).body.pagination.total, 1)
        }))
    })
  })
}

/** A production notification for `clabe`, signed with `secret`. */
const productionNotification = (clabe: string, secret: string, trackingKey: string) => {
  const body = JSON.stringify({ clabe, amount: "100.00", currency: "MXN", trackingKey, payerName: "Empresa SA", payerBank: "BBVA" })
  return call("POST", "/api/v1/deposits/notifications/mx_spei_stp", {
    rawBody: body,
    headers: { "x-deposit-signature": stripe.webhooks.generateTestHeaderString({ payload: body, secret }) }
  })
}

const productionAccount = Effect.gen(function*() {
  const m = yield* createMerchant()
  yield* enable(m.shops[0]!.id, ["mx_spei_stp"], false, "production")
  const created = yield* create(m.keys.production.secretKey, user("prod"))
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return { clabe: created.body.account.clabe as string, id: created.body.account.id as string, sk: m.keys.production.secretKey }
})

describe("production deposit notifications and the development secret", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("are refused while DEPOSIT_CALLBACK_SECRET is the built-in development value, even when signed with it", () =>
      Effect.gen(function*() {
        const account = yield* productionAccount
        const refused = yield* productionNotification(account.clabe, "deposit-callback-secret", "PROD0001")
        assert.strictEqual(refused.status, 401, JSON.stringify(refused.body))
        assert.strictEqual(refused.body.error.code, "authentication_failed")
        assert.strictEqual((yield* call("GET", `/api/v1/me/deposit-accounts/${account.id}/deposits`, { bearer: account.sk })).body.pagination.total, 0)
      }))
  })
  layer(testHost(MemoryStore.layer, { depositCallbackSecret: Redacted.make("a-real-network-secret") }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("are credited once the host has its own secret", () =>
      Effect.gen(function*() {
        const account = yield* productionAccount
        assert.strictEqual((yield* productionNotification(account.clabe, "deposit-callback-secret", "PROD0002")).status, 401)
        const ok = yield* productionNotification(account.clabe, "a-real-network-secret", "PROD0003")
        assert.strictEqual(ok.status, 200, JSON.stringify(ok.body))
        assert.isTrue(ok.body.credited)
      }))
  })
})
