/**
 * The engine as an embedder runs it, on the memory store, with deterministic ids and the sandbox
 * provider registered: for library-level tests driven by `TestClock`.
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { Engine, FoundationTest } from "../../core/Engine.ts"
import { ProviderReports } from "../../core/ports/ProviderReports.ts"
import { SettlementPayoutProviders } from "../../core/ports/SettlementPayoutProvider.ts"
import { Settlements } from "../../core/settlements/Settlements.ts"
import { Payouts } from "../../core/payouts/Payouts.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import * as Money from "../../core/Money.ts"
import type { PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import type { PayoutProviders } from "../../core/ports/PayoutProvider.ts"
import { ProviderRouteStore } from "../../core/ports/ProviderRouteStore.ts"
import { ProviderRegistry } from "../../core/ports/ProviderRegistry.ts"
import { sandboxProviderId } from "../../core/ports/SandboxForm.ts"
import { TenancyStore } from "../../core/ports/TenancyStore.ts"
import { type SendResult, WebhookSender } from "../../core/ports/WebhookSender.ts"
import { Merchants, type NewMerchant } from "../../core/tenancy/Merchants.ts"
import type { ShopScope } from "../../core/tenancy/Scopes.ts"
import { SandboxProvider } from "../../providers/sandbox/SandboxProvider.ts"

export const testEngineConfig = EngineConfig.of({
  publicUrl: "http://api.test.local",
  checkoutUrl: "http://pay.test.local",
  fxMarkupPct: Money.decimal("2"),
  depositCallbackSecret: Redacted.make("deposit-callback-secret")
})

/** A webhook sender that answers from a script and records what it was asked to send. */
export class ScriptedSender extends Context.Service<ScriptedSender, {
  readonly sent: Array<{ readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body: string }>
  /** What the next sends answer, in order; then 200. A string is a network error. */
  readonly script: Array<SendResult | string>
}>()("test/ScriptedSender") {
  static readonly layer = Layer.effectContext(Effect.sync(() => {
    const recorder = ScriptedSender.of({ sent: [], script: [] })
    const sender = WebhookSender.of({
      checkTarget: () => Effect.succeed(undefined),
      send: (url, headers, body) =>
        Effect.suspend(() => {
          recorder.sent.push({ url, headers, body })
          const next = recorder.script.shift() ?? { status: 200, retryAfterSeconds: null }
          return typeof next === "string" ? Effect.fail(next) : Effect.succeed(next)
        })
    })
    return Context.make(ScriptedSender, recorder).pipe(Context.add(WebhookSender, sender))
  }))
}

/**
 * The test engine with the given payout provider plugins (`EngineTest` has none), on its own
 * memory store or on `store` (two engines on one store are two replicas).
 */
export const EngineTestWith = (
  payoutProviders: Layer.Layer<PayoutProviders>,
  store: typeof MemoryStore.layer = MemoryStore.layer,
  settlementPayoutProviders: Layer.Layer<SettlementPayoutProviders> = SettlementPayoutProviders.none,
  providerReports: Layer.Layer<ProviderReports> = ProviderReports.none
) =>
  SandboxProvider.layer({ formBaseUrl: "http://api.test.local", callbackSecret: Redacted.make("sandbox-secret") }).pipe(
    Layer.provideMerge(
      Engine.services.pipe(Layer.provideMerge(Layer.mergeAll(payoutProviders, settlementPayoutProviders, providerReports)), Layer.provideMerge(FoundationTest))
    ),
    Layer.provideMerge(JoseTokenSigner.layer(Redacted.make("a-test-secret-that-is-long-enough"))),
    Layer.provideMerge(ScriptedSender.layer),
    Layer.provideMerge(Layer.succeed(EngineConfig, testEngineConfig)),
    Layer.provideMerge(store)
  )

export const EngineTest = EngineTestWith(Payouts.noProviders)

/** A new merchant with one shop, and the scope a sandbox (or production) request acts in. */
export const newScope = (environment: "sandbox" | "production" = "sandbox", input: Partial<NewMerchant> = {}) =>
  Effect.gen(function*() {
    const { merchant, shops } = yield* (yield* Merchants).create({ name: "Acme", email: "ops@acme.test", ...input })
    const shop = Option.getOrThrow(yield* (yield* TenancyStore).findShop(shops[0]!.id))
    return { environment, merchant, shop } satisfies ShopScope
  })

/**
 * A provider plugin for library tests: it supports every rail in sandbox, takes charges as
 * pending, knows of no change, verifies nothing and refunds at once; `overrides` script the rest.
 */
export const stubProvider = (id: string, overrides: Partial<PaymentProvider> = {}): PaymentProvider => ({
  id,
  displayName: id,
  environments: ["sandbox"],
  supports: () => true,
  charge: (request) => Effect.succeed({ providerRef: `${id}_${request.transactionId}`, status: "pending", paymentFormUrl: "", paymentData: {} }),
  status: (providerRef) => Effect.succeed({ providerRef, status: "pending" }),
  verifyCallback: () => Effect.succeed([]),
  refund: (request) => Effect.succeed({ providerRef: `${id}_refund_${request.refundId}`, status: "succeeded" }),
  ...overrides
})

/**
 * Registers `providers` and routes the shop's sandbox payments to them, in that order; with
 * `sandboxLast: false` the sandbox provider is not appended after them.
 */
export const routeShopTo = (scope: ShopScope, providers: ReadonlyArray<PaymentProvider>, options: { readonly sandboxLast?: boolean } = {}) =>
  Effect.gen(function*() {
    const registry = yield* ProviderRegistry
    const routes = yield* ProviderRouteStore
    const route = (providerId: string, priority: number, enabled: boolean) =>
      routes.put({ environment: "sandbox", shopId: scope.shop.id, providerId, priority, methodIds: null, enabled })
    for (const [i, provider] of providers.entries()) {
      yield* registry.register(provider)
      yield* route(provider.id, i + 1, true)
    }
    if (options.sandboxLast === false) yield* route(sandboxProviderId, providers.length + 1, false)
  })

/**
 * Sets the shop's settlement schedule to `manual`: its money stays `available` (no daily sweep),
 * for tests of balances, settlement of payments and withdrawals that read `available` across days.
 */
export const keepAvailable = (scope: ShopScope) =>
  Effect.flatMap(Settlements, (settlements) =>
    settlements.setSchedule({ environment: scope.environment, merchantId: scope.merchant.id, shopId: scope.shop.id }, {
      frequency: "manual",
      time: "00:00",
      destination: { kind: "bank", accountHolder: "Test Holder", bankName: "Test Bank", accountNumber: "000011112222" }
    }))
