/**
 * "A rail is routable only if a charge on it can succeed with the data the API accepts": each
 * connector in the host, configured from the environment its standalone simulator prints (as
 * `npm start` reads it), on a shop routed to it alone. Every method the catalog lists routable
 * is charged with complete buyer data (what `requiredFields` names included) and must be accepted
 * by the simulator, which refuses what the provider's documentation says the API refuses. A
 * charge without what `requiredFields` names is refused with 422 before any upstream call.
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Redacted } from "effect"
import type { CreatePaymentBody } from "../../adapters/http/api/PaymentsApi.ts"
import { httpStatus } from "../../adapters/http/api/ErrorStatus.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import * as Money from "../../core/Money.ts"
import { readConnectors } from "../../host/Connectors.ts"
import type { StandaloneSimulator } from "../../providers/kit/Standalone.ts"
import conekta from "../../providers/conekta/Standalone.ts"
import dlocal from "../../providers/dlocal/Standalone.ts"
import ebanx from "../../providers/ebanx/Standalone.ts"
import mercadopago from "../../providers/mercadopago/Standalone.ts"
import pagarme from "../../providers/pagarme/Standalone.ts"
import { adminToken, createMerchant, testHost } from "../support/Host.ts"
import { apiAs, refused } from "../support/TypedApi.ts"

const simulators: ReadonlyArray<StandaloneSimulator> = [dlocal, mercadopago, ebanx, pagarme, conekta]

class Kinds extends Context.Service<Kinds, ReadonlyArray<string>>()("test/RoutableRails/Kinds") {}

/** One host with every connector, each configured from what its simulator prints. */
const HostWithEveryConnector = Layer.unwrap(Effect.gen(function*() {
  const started = yield* Effect.forEach(simulators, (s) => s.start)
  const env: Record<string, string> = Object.assign({}, ...started.map((s) => Object.fromEntries(s.environment)))
  env["CONNECTORS"] = simulators.map((s) => s.kind).join(",")
  const connectors = yield* readConnectors().pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
  return Layer.merge(testHost(MemoryStore.layer, { connectors }), Layer.succeed(Kinds, simulators.map((s) => s.kind)))
}))

/** A buyer whose data fits every rail's country. */
const documents: Readonly<Record<string, string>> = {
  BR: "52998224725",
  MX: "GODE561231GR8",
  CO: "1020304050",
  PE: "12345678",
  CL: "11111111-1",
  AR: "20123456786"
}
/** The buyer as the typed client sends it: `Redacted`, as the API decodes it. */
const buyerIn = (country: string) => ({
  userName: Redacted.make("Ana Souza"),
  userEmail: Redacted.make("ana@example.com"),
  documentId: Redacted.make(documents[country] ?? "12345678"),
  userPhone: Redacted.make(country === "MX" ? "+525512345678" : "+5511987654321"),
  userAddress: Redacted.make(country === "MX"
    ? { street: "Avenida Reforma", number: "222", district: "Juárez", city: "Ciudad de México", state: "CMX", postalCode: "06600", country: "MX" }
    : { street: "Avenida Paulista", number: "1000", district: "Bela Vista", city: "São Paulo", state: "SP", postalCode: "01310-100", country })
})

describe("every rail a connector makes routable", () => {
  layer(HostWithEveryConnector, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("is charged with the data the API accepts; without what requiredFields names, 422 before any call", () =>
      Effect.gen(function*() {
        const charged: Array<string> = []
        const admin = yield* apiAs(adminToken)
        for (const kind of yield* Kinds) {
          const merchant = yield* createMerchant()
          const shopId = merchant.shops[0]!.id
          const api = yield* apiAs(merchant.keys.sandbox.secretKey)
          for (const [providerId, priority, enabled] of [[kind, 1, true], ["sandbox", 2, false]] as const) {
            const [, routed] = yield* admin.admin.putRoute({ params: { shopId, providerId }, payload: { environment: "sandbox", priority, enabled }, responseMode: "decoded-and-response" })
            assert.strictEqual(routed.status, 200)
          }
          const catalog = yield* api.catalog.paymentMethods({ query: {} })
          const routable = catalog.methods.filter((m) => m.routable && !m.paymentMethodId.startsWith("sbx_"))
          assert.isAbove(routable.length, 0, `${kind} makes some rail routable`)
          for (const m of routable) {
            // 30 USD: above every rail's fees and minimum, below its maximum.
            const body: typeof CreatePaymentBody.Type = { amount: Money.decimal("30"), paymentMethodId: m.paymentMethodId, ...buyerIn(m.country) }
            const [created, response] = yield* api.payments.create({ payload: body, headers: {}, responseMode: "decoded-and-response" })
            assert.strictEqual(response.status, 201, `${kind} ${m.paymentMethodId} (${m.name}, ${m.country})`)
            assert.strictEqual(created.status, "pending", `${kind} ${m.paymentMethodId}`)
            charged.push(`${kind}:${m.paymentMethodId}`)
            // Without what the catalog says every provider of the rail needs: refused, nothing written.
            const without = Object.fromEntries(Object.entries(body).filter(([key]) => !(m.requiredFields as ReadonlyArray<string>).includes(key === "userEmail" ? "email" : key))) as typeof CreatePaymentBody.Type
            if (m.requiredFields.length > 0) {
              const refusal = yield* refused(api.payments.create({ payload: without, headers: {} }))
              assert.strictEqual(httpStatus[refusal.code], 422, `${kind} ${m.paymentMethodId} without ${m.requiredFields}`)
              assert.strictEqual(refusal.code, "missing_required_fields")
            }
          }
        }
        // The boletos need the address: listed, and charged with it.
        for (const kind of ["mercadopago", "ebanx", "pagarme"]) assert.include(charged, `${kind}:1002`)
      }))
  })
})
