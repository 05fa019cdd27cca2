/**
 * Deposit accounts through the API (spec 2.13, 3.5, 4.10): every get-or-create rule and error,
 * CLABE check digits, 50 concurrent creates for one user, paging and stats, simulated and signed
 * deposits credited as pay-ins once, disabled accounts, and another shop's id. Requests go
 * through the typed client (TypedApi.ts); `call` stays for bodies it would not send (the field
 * limits, an absurd FX rate) and for the networks' signed notifications, whose raw body and
 * signature header are the point.
 */
import { assert, describe, layer } from "@effect/vitest"
import { BigDecimal, Effect, Option, Redacted } from "effect"
import { revealed } from "../../core/payments/BuyerData.ts"
import Stripe from "stripe"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import type { CreateDepositAccountBody } from "../../adapters/http/api/DepositsApi.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { isValidClabe } from "../../core/deposits/Clabe.ts"
import * as Money from "../../core/Money.ts"
import { OutboxStore } from "../../core/ports/OutboxStore.ts"
import { PaymentStore } from "../../core/ports/PaymentStore.ts"
import { adminToken, call, createMerchant, testHost } from "../support/Host.ts"
import { storeTargets } from "../support/Stores.ts"
import { apiAs, refused, withResponse } from "../support/TypedApi.ts"

const stripe = new Stripe("sk_test_unused")

/** The operator's deposit settings for a shop; answers the raw response, for its status. */
const enable = (shopId: string, depositMethodIds: ReadonlyArray<string>, requirePhone = false, environment: "sandbox" | "production" = "sandbox") =>
  Effect.flatMap(apiAs(adminToken), (admin) =>
    Effect.map(admin.depositAdmin.putSettings({ params: { shopId }, payload: { environment, depositMethodIds, requirePhone }, ...withResponse }), ([, response]) => response))

const merchant = Effect.map(createMerchant(), (m) => ({ ...m, sk: m.keys.sandbox.secretKey, shopId: m.shops[0]!.id }))

/** Get-or-create: the decoded answer and the raw response. */
const create = (sk: string, payload: typeof CreateDepositAccountBody.Type) =>
  Effect.flatMap(apiAs(sk), (api) => api.deposits.getOrCreate({ payload, ...withResponse }))

/** The same request, raw: for bodies the typed client would not send. */
const createRaw = (sk: string, body: Record<string, unknown>) => call("POST", "/api/v1/me/deposit-accounts", { bearer: sk, body })

const d = Money.decimal

const user = (ref: string) => ({ endUserRef: ref, name: "María López", email: `${ref}@example.com` })
/** `user` as the typed client sends it: the end user's data `Redacted`, as the API decodes it. */
const typedUser = (ref: string) => ({ ...user(ref), name: Redacted.make("María López"), email: Redacted.make(`${ref}@example.com`) })

describe("deposit accounts", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("get-or-create: sandbox has the Mexican method until an operator chooses, production needs the operator; 201 with a valid CLABE, then 200 for the same user", () =>
      Effect.gen(function*() {
        const { keys, shopId, sk } = yield* merchant
        const api = yield* apiAs(sk)
        const methodIds = (bearer: string) =>
          Effect.flatMap(apiAs(bearer), (as) => Effect.map(as.deposits.methods(), (r) => r.methods.map((m) => m.depositMethodId)))
        assert.deepStrictEqual(yield* methodIds(sk), ["mx_spei_stp"], "a new sandbox shop can open deposit accounts")
        assert.deepStrictEqual(yield* methodIds(keys.production.secretKey), [], "production waits for the operator")
        const live = yield* refused(create(keys.production.secretKey, typedUser("u0")))
        assert.deepStrictEqual([httpStatus[live.code], live.code], [422, "deposit_accounts_unavailable"])

        // The operator's choice wins over the default, even when it is none.
        assert.strictEqual((yield* enable(shopId, [])).status, 200)
        const unavailable = yield* refused(create(sk, typedUser("u1")))
        assert.strictEqual(httpStatus[unavailable.code], 422)
        assert.strictEqual(unavailable.code, "deposit_accounts_unavailable")

        assert.strictEqual((yield* enable(shopId, ["mx_spei_stp"])).status, 200)
        const methods = yield* api.deposits.methods()
        assert.deepStrictEqual(methods.methods, [{ depositMethodId: "mx_spei_stp", method: "spei", name: "SPEI (STP)", country: "MX", currency: "MXN" }])

        const noEmail = yield* refused(create(sk, { endUserRef: "u1", name: Redacted.make("María López") }))
        assert.strictEqual(httpStatus[noEmail.code], 400)
        assert.strictEqual(noEmail.code, "invalid_request")
        assert.deepStrictEqual(noEmail.details["required"], ["email"])

        const [created, createdReply] = yield* create(sk, { ...typedUser("u1"), phone: Redacted.make("+525512345678"), documentType: "CURP", documentId: Redacted.make("LOMM800101MDFPRR09"), country: "mx", metadata: { tier: "gold", source: "app" } })
        assert.strictEqual(createdReply.status, 201)
        assert.isTrue(created.created)
        const a = created.account
        assert.match(a.id, /^eda_/)
        assert.match(a.clabe, /^646180\d{12}$/)
        assert.isTrue(isValidClabe(a.clabe))
        assert.isNull(a.bank)
        assert.deepInclude(a, { currency: "MXN", country: "MX", methodName: "SPEI (STP)", status: "active", environment: "sandbox", endUserRef: "u1" })
        assert.deepStrictEqual(a.beneficiary, { name: "María López", email: "u1@example.com" })
        assert.strictEqual(a.customer.country, "MX")
        assert.deepStrictEqual(a.metadata, { tier: "gold", source: "app" })

        const [again, againReply] = yield* create(sk, { endUserRef: "u1", name: Redacted.make("Someone Else") })
        assert.strictEqual(againReply.status, 200)
        assert.isFalse(again.created)
        assert.strictEqual(again.account.id, a.id)
        assert.strictEqual(again.account.clabe, a.clabe)
        assert.deepStrictEqual(yield* api.deposits.get({ params: { id: a.id } }), { account: a })
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
        // Raw: bodies the typed client would not send.
        for (const [body, status, code] of bad) {
          const reply = yield* createRaw(sk, body)
          assert.strictEqual(reply.status, status, JSON.stringify(body).slice(0, 80))
          assert.strictEqual(reply.body.error.code, code)
        }
        const needsBoth = yield* refused(create(sk, { endUserRef: "p1", name: Redacted.make("Ana Pérez") }))
        assert.deepStrictEqual(needsBoth.details["required"], ["email", "phone"])
        const needsPhone = yield* refused(create(sk, typedUser("p1")))
        assert.deepStrictEqual(needsPhone.details["required"], ["phone"])

        const choose = yield* refused(create(sk, { ...typedUser("p1"), phone: Redacted.make("+525512345678") }))
        assert.strictEqual(httpStatus[choose.code], 422)
        assert.strictEqual(choose.code, "deposit_method_required")
        assert.sameMembers((choose.details["depositMethods"] as ReadonlyArray<{ depositMethodId: string }>).map((m) => m.depositMethodId), ["mx_spei_stp", "mx_spei_arcus"])
        const unavailable = yield* refused(create(sk, { ...typedUser("p1"), phone: Redacted.make("+525512345678"), depositMethodId: "br_pix_fixed" }))
        assert.strictEqual(httpStatus[unavailable.code], 422)
        assert.strictEqual(unavailable.code, "deposit_method_unavailable")
        const [arcus, arcusReply] = yield* create(sk, { ...typedUser("p1"), phone: Redacted.make("+525512345678"), depositMethodId: "mx_spei_arcus" })
        assert.strictEqual(arcusReply.status, 201)
        assert.match(arcus.account.clabe, /^706180/)
        assert.isTrue(isValidClabe(arcus.account.clabe))

        // A merchant-wide key names no shop: 400. Another shop's account: the same 404 as an unknown id.
        const wide = yield* createMerchant({ shops: [{ name: "A" }, { name: "B" }] })
        const wideRefusal = yield* refused(create(wide.keys.sandbox.secretKey, typedUser("w1")))
        assert.strictEqual(httpStatus[wideRefusal.code], 400)
        assert.strictEqual(wideRefusal.code, "invalid_request")
        const stranger = yield* apiAs((yield* merchant).sk)
        const foreign = yield* refused(stranger.deposits.get({ params: { id: arcus.account.id } }))
        const unknown = yield* refused(stranger.deposits.get({ params: { id: "eda_unknown" } }))
        assert.strictEqual(httpStatus[foreign.code], 404)
        assert.strictEqual(httpStatus[unknown.code], 404)
        assert.strictEqual(foreign.code, unknown.code)
      }))

    it.effect("list: newest first, endUserRef filter, limit clamped to 200, stats on request", () =>
      Effect.gen(function*() {
        const { shopId, sk } = yield* merchant
        yield* enable(shopId, ["mx_spei_stp"])
        for (const ref of ["a", "b", "c"]) yield* create(sk, typedUser(ref))
        const api = yield* apiAs(sk)
        const all = yield* api.deposits.list({ query: { limit: 500 } })
        assert.deepStrictEqual(all.pagination, { total: 3, limit: 200, offset: 0 })
        assert.deepStrictEqual(all.accounts.map((x) => x.endUserRef), ["c", "b", "a"])
        assert.notProperty(all.accounts[0], "stats")
        const one = yield* api.deposits.list({ query: { endUserRef: "b", include: "stats" } })
        assert.strictEqual(one.pagination.total, 1)
        assert.deepStrictEqual(one.accounts[0]!.stats, { deposits: 0, credited: 0, totalUsd: 0, localTotals: [], lastDepositAt: null })
        const paged = yield* api.deposits.list({ query: { limit: 1, offset: 1 } })
        assert.deepStrictEqual(paged.accounts.map((x) => x.endUserRef), ["b"])
      }))

    it.effect("a deposit becomes a completed pay-in once, even when notified twice; disabled accounts record without crediting", () =>
      Effect.gen(function*() {
        const { keys, shopId, sk } = yield* merchant
        const api = yield* apiAs(sk)
        const admin = yield* apiAs(adminToken)
        yield* enable(shopId, ["mx_spei_stp"])
        const account = (yield* create(sk, typedUser("dep")))[0].account
        const balance = Effect.map(api.identity.balance({ query: {} }), (r) => r.balance)
        const simulate = (payload: { readonly amount: string; readonly payerName?: string; readonly trackingKey?: string }) =>
          api.deposits.simulate({ params: { id: account.id }, payload: { ...payload, amount: d(payload.amount) }, ...withResponse })
        const before = yield* balance

        const [first, firstReply] = yield* simulate({ amount: "1850", payerName: "Juan Pérez", trackingKey: "MBAN01002411220001" })
        assert.strictEqual(firstReply.status, 201)
        assert.isTrue(first.created)
        const deposit = first.deposit
        assert.deepInclude(deposit, { status: "credited", amount: 1850, currency: "MXN", payerName: "Juan Pérez", beneficiaryName: "María López", beneficiaryEmail: "dep@example.com" })
        const usd = Money.round(BigDecimal.multiply(BigDecimal.divideUnsafe(d("1850"), d("18.50")), d("0.98")), "USD")
        assert.strictEqual(deposit.amountUsd, Money.toJsonNumber(usd))

        const payment = yield* api.payments.get({ params: { id: deposit.transactionId! } })
        assert.strictEqual(payment.status, "completed")
        assert.strictEqual(payment.amountLocal, 1850)
        assert.strictEqual(payment.paymentMethod, "spei")
        const stored = Option.getOrThrow(yield* (yield* PaymentStore).findById(deposit.transactionId!))
        assert.strictEqual(revealed(stored.userEmail), "dep@example.com")
        const net = BigDecimal.subtract(BigDecimal.subtract(usd, d(String(payment.fees.total))), d(String(payment.settlement.reserve)))
        const after = yield* balance
        assert.strictEqual(after.pending, Money.toJsonNumber(BigDecimal.sum(d(String(before.pending)), net)))

        const [repeat] = yield* simulate({ amount: "1850", trackingKey: "MBAN01002411220001" })
        assert.isFalse(repeat.created)
        assert.strictEqual(repeat.deposit.id, deposit.id)
        assert.deepStrictEqual(yield* balance, after)
        const types = (yield* (yield* OutboxStore).list("sandbox", shopId)).map((e) => e.type)
        assert.deepStrictEqual(types.filter((t) => t === "deposit.credited").length, 1)
        assert.include(types, "payment.completed")

        const disabled = yield* admin.depositAdmin.setAccountStatus({ params: { id: account.id }, payload: { status: "disabled" } })
        assert.strictEqual(disabled.account.status, "disabled")
        const [rejected] = yield* simulate({ amount: "500" })
        assert.deepInclude(rejected.deposit, { status: "rejected", transactionId: null })
        assert.deepStrictEqual(yield* balance, after)
        yield* admin.depositAdmin.setAccountStatus({ params: { id: account.id }, payload: { status: "active" } })

        const list = yield* api.deposits.deposits({ params: { id: account.id }, query: {} })
        assert.strictEqual(list.pagination.total, 2)
        assert.deepStrictEqual(list.deposits.map((x) => x.status), ["rejected", "credited"])
        const stats = (yield* api.deposits.list({ query: { endUserRef: "dep", include: "stats" } })).accounts[0]!.stats
        assert.deepInclude(stats, { deposits: 2, credited: 1, totalUsd: Money.toJsonNumber(usd), localTotals: [{ currency: "MXN", amount: 1850 }] })

        const live = yield* refused(Effect.flatMap(apiAs(keys.production.secretKey), (prod) => prod.deposits.simulate({ params: { id: account.id }, payload: { amount: d("5") } })))
        assert.strictEqual(httpStatus[live.code], 400)
        assert.strictEqual(live.code, "simulate_sandbox_only")
      }))

    it.effect("the network's signed notification credits once; a bad signature is 401", () =>
      Effect.gen(function*() {
        const { shopId, sk } = yield* merchant
        yield* enable(shopId, ["mx_spei_stp"])
        const account = (yield* create(sk, typedUser("net")))[0].account
        const depositCount = Effect.flatMap(apiAs(sk), (api) => Effect.map(api.deposits.deposits({ params: { id: account.id }, query: {} }), (r) => r.pagination.total))
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
        assert.strictEqual(yield* depositCount, 1)
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
        assert.strictEqual(yield* depositCount, 1)
        // Raw: a rate the typed client would not send.
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
          // One client for all 50: building one per request stalls the event loop the host shares.
          const api = yield* apiAs(sk)
          const replies = yield* Effect.all(Array.from({ length: 50 }, () => api.deposits.getOrCreate({ payload: typedUser("racer"), ...withResponse })), { concurrency: "unbounded" })
          assert.strictEqual(replies.filter(([, r]) => r.status === 201).length, 1, JSON.stringify(replies.map(([, r]) => r.status)))
          assert.strictEqual(replies.filter(([, r]) => r.status === 200).length, 49)
          assert.strictEqual(new Set(replies.map(([x]) => x.account.id)).size, 1)
          const listed = yield* api.deposits.list({ query: { endUserRef: "racer" } })
          assert.strictEqual(listed.pagination.total, 1)
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
  const [created, reply] = yield* create(m.keys.production.secretKey, typedUser("prod"))
  assert.strictEqual(reply.status, 201, JSON.stringify(created))
  return { clabe: created.account.clabe, id: created.account.id, sk: m.keys.production.secretKey }
})

describe("production deposit notifications and the development secret", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("are refused while DEPOSIT_CALLBACK_SECRET is the built-in development value, even when signed with it", () =>
      Effect.gen(function*() {
        const account = yield* productionAccount
        const refused = yield* productionNotification(account.clabe, "deposit-callback-secret", "PROD0001")
        assert.strictEqual(refused.status, 401, JSON.stringify(refused.body))
        assert.strictEqual(refused.body.error.code, "authentication_failed")
        const deposits = yield* Effect.flatMap(apiAs(account.sk), (api) => api.deposits.deposits({ params: { id: account.id }, query: {} }))
        assert.strictEqual(deposits.pagination.total, 0)
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
