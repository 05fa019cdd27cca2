/**
 * The payment-method catalog as a shop sees it in one environment: every rail of the shipped
 * data (sandbox test methods in sandbox only), each marked `routable` only when a configured
 * provider can charge that exact rail for this shop now, with the buyer data each of its providers
 * needs to charge it. A card rail in production is routable only on a host with a card vault
 * (`EngineConfig.cardVaultConfigured`): the engine charges cards only by the vault's tokens.
 */
import { Context, Effect, Layer, Option } from "effect"
import { EngineConfig } from "../EngineConfig.ts"
import type { Environment } from "../Environment.ts"
import { type FieldName, fieldName, neededByAll, providerNeeds } from "../payments/BuyerData.ts"
import type { PaymentProvider } from "../ports/PaymentProvider.ts"
import { noProviderReason, Routing } from "../routing/Routing.ts"
import type { Channel } from "./Channel.ts"
import { paymentMethods } from "./methods.ts"
import type { PaymentMethodDef } from "./PaymentMethod.ts"

/** Why a production card rail a provider serves is not routable: the host has no card vault. */
export const cardVaultNotConfiguredReason = "card_vault_not_configured"

export interface CatalogEntry {
  readonly method: PaymentMethodDef
  readonly routable: boolean
  readonly unroutableReason: string | null
  /** Ids of the providers that would be tried, in order. */
  readonly providers: ReadonlyArray<string>
  /**
   * Buyer data without which none of those providers can charge the method, by the API's names
   * (`userAddress`, `userPhone`...): a charge without it answers 422 `missing_required_fields`.
   */
  readonly requiredFields: ReadonlyArray<FieldName>
  /** Each of those providers with the buyer data it needs for the method (a provider without it is passed over). */
  readonly providerFields: ReadonlyArray<{ readonly provider: string; readonly requiredFields: ReadonlyArray<FieldName> }>
}

export interface CatalogFilter {
  /** ISO-2. */
  readonly country?: string | undefined
  readonly channel?: Channel | undefined
  readonly method?: string | undefined
}

export class Catalog extends Context.Service<Catalog, {
  /** Every method visible in the environment, whatever the shop. */
  readonly methods: (environment: Environment) => ReadonlyArray<PaymentMethodDef>
  readonly find: (environment: Environment, id: string) => PaymentMethodDef | undefined
  /** The shop's listing: visible methods with their routability, filtered. */
  readonly listing: (
    environment: Environment,
    shopId: string,
    filter: CatalogFilter
  ) => Effect.Effect<{ readonly entries: ReadonlyArray<CatalogEntry>; readonly totalAvailable: number }>
}>()("core/catalog/Catalog") {
  static readonly layer = Layer.effect(
    Catalog,
    Effect.gen(function*() {
      const routing = yield* Routing
      const vaultConfigured = Option.match(yield* Effect.serviceOption(EngineConfig), { onNone: () => false, onSome: (c) => c.cardVaultConfigured === true })
      /** A production card rail with no vault to charge its cards through. */
      const needsVault = (environment: Environment, method: PaymentMethodDef) =>
        environment === "production" && method.channel === "CREDIT_CARD" && !vaultConfigured
      const visible = (environment: Environment) => paymentMethods.filter((m) => environment === "sandbox" || !m.sandboxOnly)
      const byEnvironment = { sandbox: visible("sandbox"), production: visible("production") }
      const methods = (environment: Environment) => byEnvironment[environment]

      /**
       * Every visible method with its routability, computed once per router: `Routing.routerFor`
       * hands out the same router while the shop's routes are cached, so a listing (and GET /me,
       * which reads one) filters a ready list instead of asking each provider about 100 rails.
       */
      const everyEntry = new WeakMap<(method: PaymentMethodDef) => ReadonlyArray<unknown>, ReadonlyArray<CatalogEntry>>()
      const entriesOf = (environment: Environment, route: (method: PaymentMethodDef) => ReadonlyArray<PaymentProvider>) => {
        const known = everyEntry.get(route)
        if (known !== undefined) return known
        const entries = methods(environment).map((method): CatalogEntry => {
          const routed = route(method)
          const withoutVault = routed.length > 0 && needsVault(environment, method)
          return {
            method,
            routable: routed.length > 0 && !withoutVault,
            unroutableReason: withoutVault ? cardVaultNotConfiguredReason : routed.length > 0 ? null : noProviderReason,
            providers: routed.map((p) => p.id),
            requiredFields: neededByAll(routed, method).map((field) => fieldName[field]),
            providerFields: routed.map((p) => ({ provider: p.id, requiredFields: providerNeeds(p, method).map((field) => fieldName[field]) }))
          }
        })
        everyEntry.set(route, entries)
        return entries
      }

      const listing = Effect.fn("Catalog.listing")(function*(environment: Environment, shopId: string, filter: CatalogFilter) {
        const all = entriesOf(environment, yield* routing.routerFor(environment, shopId))
        const entries = filter.country === undefined && filter.channel === undefined && filter.method === undefined
          ? all
          : all.filter(({ method: m }) =>
            (filter.country === undefined || m.country === filter.country) &&
            (filter.channel === undefined || m.channel === filter.channel) &&
            (filter.method === undefined || m.method === filter.method)
          )
        return { entries, totalAvailable: all.length }
      })

      return Catalog.of({
        methods,
        find: (environment, id) => methods(environment).find((m) => m.id === id),
        listing
      })
    })
  )
}
