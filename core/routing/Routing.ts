/**
 * Which providers may charge a rail for a shop, and in which order the cascade tries them.
 *
 * - **Candidates**: the first rule of the shop's routing configuration that matches the payment
 *   (`core/routing/Config.ts`), else the shop's configured routes (ascending priority); only
 *   providers registered, allowed in the environment, supporting that exact rail and, when a route
 *   names methods, named there. In sandbox the sandbox provider serves every rail of a shop that
 *   has no routes of its own, so a new shop can charge in sandbox at once; a shop with routes is
 *   served by it only when one of them names it.
 * - **Skips**: every provider of the rule or routes that is passed over is returned with why
 *   (`core/routing/Skips.ts`), to be recorded on the payment with its attempts.
 * - **Order** (`plan`): the configuration's strategy (`core/routing/Strategy.ts`), `health` when the
 *   shop has none: providers whose circuit is open, judged from every replica's recorded outcomes
 *   (`RoutingStore`), are skipped; `success_rate` orders by Thompson sampling over recent
 *   conversions. Each planned provider carries why it is there, recorded on its attempt.
 */
import * as Metrics from "../Metrics.ts"
import { Context, Effect, Layer, Metric, Option, Random, Schema } from "effect"
import { realMillis } from "../clock/RealClock.ts"
import { apiError, type ApiErrorOf, invalidRequest } from "../ApiError.ts"
import { findMethod, paymentMethods } from "../catalog/methods.ts"
import { type RoutingOutcome, type RoutingSnapshot, RoutingStore } from "../ports/RoutingStore.ts"
import { cardRailFits, cardRuleIssues, railConditions, railFacts } from "./CardRules.ts"
import { type Facts, matches, namedProviders, RoutingConfig, select } from "./Config.ts"
import { type Circuit, type CircuitState, circuitOf } from "./Health.ts"
import { order, type StrategyName } from "./Strategy.ts"
import { makeSnapshots } from "./Snapshots.ts"
import type { Skipped } from "./Skips.ts"
import { defaultSuccessRatePolicy, seeded, type Stats } from "./SuccessRate.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import type { Environment } from "../Environment.ts"
import type { PaymentProvider } from "../ports/PaymentProvider.ts"
import { type ProviderRoute, ProviderRouteStore } from "../ports/ProviderRouteStore.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import { Transactions } from "../ports/Transactions.ts"
import { Audit } from "../audit/Audit.ts"
import { sandboxProviderId } from "../ports/SandboxForm.ts"

/** The reason a listed method cannot be charged, as `unroutableReason` and `details.reason` say it. */
export const noProviderReason = "no_provider_for_method_region"

/** Why an attempt went where it went (stored on the attempt). */
export interface AttemptRouting {
  readonly ruleId: string | null
  readonly strategy: StrategyName
  readonly circuit: CircuitState
  readonly score: number | null
}

export interface Planned {
  readonly provider: PaymentProvider
  readonly routing: AttemptRouting
}

/** What a payment tries, in order, and the providers passed over with why. */
export interface Plan {
  readonly providers: ReadonlyArray<Planned>
  readonly skipped: ReadonlyArray<Skipped>
}

/** A shop's routes for one method: the providers in order, and those passed over. */
interface Routed {
  readonly providers: ReadonlyArray<PaymentProvider>
  readonly skipped: ReadonlyArray<Skipped>
}

/**
 * How long an engine keeps what it read of a shop's routing: its routes for the catalog
 * (`Routing.routerFor`), and the snapshot a payment is routed from (`plan`).
 */
export const routesCacheMs = 1000
/** Shops whose routes an engine keeps at most; past that the cache starts over. */
const maxCachedShops = 10_000

/** How many recent outcomes the circuit of a provider on a rail is folded from. */
const healthWindow = 50

export class Routing extends Context.Service<Routing, {
  readonly candidates: (
    environment: Environment,
    shopId: string,
    method: PaymentMethodDef
  ) => Effect.Effect<ReadonlyArray<PaymentProvider>>
  /**
   * The shop's routes, answering for many methods (the catalog listing). Read from the store at
   * most once per `routesCacheMs` by this engine: a change made through `putRoute` or
   * `removeRoute` applies here at once, and on other replicas within `routesCacheMs`.
   */
  readonly routerFor: (
    environment: Environment,
    shopId: string
  ) => Effect.Effect<(method: PaymentMethodDef) => ReadonlyArray<PaymentProvider>>
  /** Adds or replaces a shop's route to a provider. */
  readonly putRoute: (route: ProviderRoute) => Effect.Effect<void>
  /** Removes a shop's route to a provider; answers whether there was one. */
  readonly removeRoute: (environment: Environment, shopId: string, providerId: string) => Effect.Effect<boolean>
  /**
   * The providers a payment tries, in order, each with why. Routed from a snapshot of the shop's
   * configuration, routes and providers' health that this engine keeps for `routesCacheMs`
   * (`core/routing/Snapshots.ts`): its own outcomes (`record`) and changes count at once, other
   * replicas' within `routesCacheMs`. A payment that would probe a half-open circuit reads afresh
   * first, so that replicas do not probe a provider together.
   */
  readonly plan: (environment: Environment, shopId: string, method: PaymentMethodDef, facts: Facts) => Effect.Effect<Plan>
  /** Records what routing learns from a payment (`core/routing/Learn.ts`), for every replica and at once here. */
  readonly record: (outcome: RoutingOutcome) => Effect.Effect<void>
  /** The shop's routing configuration and its version (0 and none when never configured). */
  readonly config: (environment: Environment, shopId: string) => Effect.Effect<{ readonly version: number; readonly config: RoutingConfig | null }>
  /**
   * Validates and stores a new version of the configuration. An invalid one is a 400 naming the
   * rule and field; `expectedVersion` (optional) refuses a write over another's (409).
   */
  readonly configure: (
    environment: Environment,
    shopId: string,
    config: RoutingConfig,
    expectedVersion: number | undefined
  ) => Effect.Effect<{ readonly version: number; readonly config: RoutingConfig }, ApiErrorOf<"invalid_request" | "routing_rule_invalid" | "routing_version_conflict">>
}>()("core/routing/Routing") {
  static readonly layer = Layer.effect(
    Routing,
    Effect.gen(function*() {
      const routes = yield* ProviderRouteStore
      const registry = yield* ProviderRegistry
      const store = yield* RoutingStore
      const audit = yield* Audit
      const tx = yield* Transactions
      const routeRecord = (environment: Environment, shopId: string, providerId: string, changes: Record<string, unknown>) =>
        audit.recordForShop(environment, shopId, { object: { type: "route", id: `${shopId}/${providerId}` }, changes })

      /**
       * The providers of a shop's routes, in order, for any method, with the ones passed over and
       * why; worked out once per method for a list of routes read.
       */
      const routerFrom = Effect.fnUntraced(function*(environment: Environment, configured: ReadonlyArray<ProviderRoute>) {
        const ordered: Array<{ readonly id: string; readonly provider: PaymentProvider | undefined; readonly route: ProviderRoute | null }> = []
        for (const route of configured) {
          const provider = Option.getOrUndefined(yield* registry.forShop(route.providerId, route.shopId))
          ordered.push({ id: route.providerId, provider: provider?.environments.includes(environment) === true ? provider : undefined, route })
        }
        // The built-in simulator serves a sandbox shop that has no routes of its own: one routed
        // to a real connector is served by it only when one of its routes names it.
        if (environment === "sandbox" && configured.length === 0) {
          const sandbox = yield* registry.get(sandboxProviderId)
          if (Option.isSome(sandbox)) ordered.push({ id: sandboxProviderId, provider: sandbox.value, route: null })
        }
        const none: Routed = { providers: [], skipped: [] }
        const known = new Map<string, Routed>()
        return (method: PaymentMethodDef): Routed => {
          if (method.sandboxOnly && environment !== "sandbox") return none
          const hit = known.get(method.id)
          if (hit !== undefined) return hit
          const providers: Array<PaymentProvider> = []
          const skipped: Array<Skipped> = []
          for (const { id, provider, route } of ordered) {
            if (route !== null && !route.enabled) skipped.push({ provider: id, reason: "route_disabled" })
            else if (provider === undefined) skipped.push({ provider: id, reason: "provider_not_configured" })
            else if (!provider.supports(method)) skipped.push({ provider: id, reason: "method_not_supported" })
            else if (route !== null && route.methodIds !== null && !route.methodIds.includes(method.id)) skipped.push({ provider: id, reason: "method_not_in_route" })
            else providers.push(provider)
          }
          const routed = { providers, skipped }
          known.set(method.id, routed)
          return routed
        }
      })

      const cachedRoutes = new Map<string, { readonly routes: ReadonlyArray<ProviderRoute>; readonly until: number }>()
      const routesKey = (environment: Environment, shopId: string) => `${environment}|${shopId}`
      const routesOf = (environment: Environment, shopId: string) =>
        Effect.flatMap(realMillis, (now) => {
          const key = routesKey(environment, shopId)
          const hit = cachedRoutes.get(key)
          if (hit !== undefined && hit.until > now) return Effect.succeed(hit.routes)
          return Effect.tap(routes.list(environment, shopId), (list) =>
            Effect.sync(() => {
              if (cachedRoutes.size >= maxCachedShops) cachedRoutes.clear()
              cachedRoutes.set(key, { routes: list, until: now + routesCacheMs })
            }))
        })
      const snapshots = makeSnapshots(store, routesCacheMs)
      const forget = (environment: Environment, shopId: string) =>
        Effect.andThen(Effect.sync(() => void cachedRoutes.delete(routesKey(environment, shopId))), snapshots.forget(environment, shopId))

      // One router per list of routes read: the catalog, GET /me and the payments routed from a
      // kept snapshot ask for it on every request, and while the list is kept they get the same
      // function (and whatever is memoized on it).
      const routers = new WeakMap<ReadonlyArray<ProviderRoute>, {
        readonly routed: (method: PaymentMethodDef) => Routed
        readonly providers: (method: PaymentMethodDef) => ReadonlyArray<PaymentProvider>
      }>()
      const routerOf = Effect.fnUntraced(function*(environment: Environment, configured: ReadonlyArray<ProviderRoute>) {
        const known = routers.get(configured)
        if (known !== undefined) return known
        const routed = yield* routerFrom(environment, configured)
        const router = { routed, providers: (method: PaymentMethodDef) => routed(method).providers }
        routers.set(configured, router)
        return router
      })
      const routerFor = (environment: Environment, shopId: string) =>
        Effect.flatMap(routesOf(environment, shopId), (configured) => Effect.map(routerOf(environment, configured), (r) => r.providers))

      const decode = Schema.decodeUnknownOption(RoutingConfig)
      const readConfig = (environment: Environment, shopId: string) =>
        Effect.map(store.config(environment, shopId), (stored) =>
          Option.match(stored, {
            onNone: () => ({ version: 0, config: null }),
            onSome: (s) => ({ version: s.version, config: Option.getOrNull(decode(s.document)) })
          }))

      const circuitOfOutcomes = (outcomes: ReadonlyArray<RoutingOutcome>, now: number) =>
        circuitOf(outcomes.map((o) => ({ at: o.at, kind: o.kind === "bad" || o.kind === "probe" ? o.kind : "ok" as const, latencyMs: o.latencyMs })), now)

      const statsFor = (environment: Environment, providerId: string, methodId: string) =>
        Effect.map(store.recent({ environment, providerId, methodId }, "conversion", defaultSuccessRatePolicy.window), (outcomes) => {
          const converted = outcomes.filter((o) => o.kind === "converted").length
          return { provider: providerId, converted, notConverted: outcomes.length - converted }
        })

      /** The providers in order, from one snapshot. */
      const planFrom = Effect.fnUntraced(function*(
        snapshot: RoutingSnapshot,
        environment: Environment,
        shopId: string,
        method: PaymentMethodDef,
        facts: Facts,
        now: number
      ) {
        const config = Option.getOrNull(Option.flatMap(snapshot.config, (s) => decode(s.document)))
        const uniform = seeded(yield* Random.nextInt)
        const selected = select(config ?? undefined, facts, uniform)
        // A rule's providers, or else the shop's routes; with the providers passed over.
        const routes = (yield* routerOf(environment, snapshot.routes)).routed(method)
        let candidates: ReadonlyArray<PaymentProvider> = routes.providers
        let skipped: Array<Skipped> = [...routes.skipped]
        if (selected.providers !== null && !method.sandboxOnly) {
          const named: Array<PaymentProvider> = []
          skipped = []
          for (const id of selected.providers) {
            const found = Option.getOrUndefined(yield* registry.forShop(id, shopId))
            if (found === undefined || !found.environments.includes(environment)) skipped.push({ provider: id, reason: "provider_not_configured" })
            else if (!found.supports(method)) skipped.push({ provider: id, reason: "method_not_supported" })
            else named.push(found)
          }
          // The shop's own routes a rule left out (not the built-in simulator's fallback).
          for (const p of snapshot.routes.length === 0 ? [] : routes.providers) {
            if (!selected.providers.includes(p.id)) skipped.push({ provider: p.id, reason: "excluded_by_rule" })
          }
          candidates = named
        }
        const circuits = new Map<string, Circuit>()
        const stats = new Map<string, Stats>()
        for (const c of candidates) {
          const circuit = circuitOfOutcomes(snapshot.health.filter((o) => o.providerId === c.id), now)
          circuits.set(c.id, circuit)
          yield* Metric.update(Metrics.labelled(Metrics.circuitOpen, { provider: c.id, rail: method.id }), circuit.state === "closed" ? 0 : 1)
          if (selected.strategy === "success_rate") stats.set(c.id, yield* statsFor(environment, c.id, method.id))
        }
        const byId = new Map(candidates.map((c) => [c.id, c]))
        const providers = order(selected.strategy, {
          candidates: candidates.map((c) => c.id),
          circuits: (id) => circuits.get(id)!,
          stats: (id) => stats.get(id) ?? { provider: id, converted: 0, notConverted: 0 },
          uniform
        }).map((c): Planned => ({
          provider: byId.get(c.provider)!,
          routing: { ruleId: selected.ruleId, strategy: c.strategy, circuit: c.circuit, score: c.score }
        }))
        if (providers.length < candidates.length) {
          const kept = new Set(providers.map((p) => p.provider.id))
          for (const c of candidates) {
            if (!kept.has(c.id)) skipped.push({ provider: c.id, reason: "circuit_open" })
          }
        }
        return { providers, skipped } satisfies Plan
      })

      // No span of its own: a plan is a few microseconds of work on the kept snapshot, inside its
      // payment's span; the read of a fresh snapshot, its only I/O, is a span (`Routing.snapshot`).
      const plan = Effect.fnUntraced(function*(environment: Environment, shopId: string, method: PaymentMethodDef, facts: Facts) {
        // One read at most: the configuration, the routes and the health of every provider that serves the rail.
        const serving = (yield* registry.allForShop(shopId)).filter((p) => p.environments.includes(environment) && p.supports(method)).map((p) => p.id)
        const key = { environment, shopId, methodId: method.id }
        const now = yield* realMillis
        const { kept, snapshot } = yield* snapshots.read(key, serving, healthWindow, now)
        let planned = yield* planFrom(snapshot, environment, shopId, method, facts, now)
        // A probe is decided on what every replica recorded: another may be probing already.
        if (kept && planned.providers[0]?.routing.circuit === "half_open") {
          planned = yield* planFrom(yield* snapshots.fresh(key, serving, healthWindow, now), environment, shopId, method, facts, now)
        }
        // A payment that leads with a half-open circuit is its probe: the others wait for its answer.
        const first = planned.providers[0]
        if (first?.routing.circuit === "half_open") {
          yield* snapshots.record({ environment, providerId: first.provider.id, methodId: method.id, kind: "probe", at: now, latencyMs: 0 })
        }
        return planned
      })

      const configure = Effect.fn("Routing.configure")(function*(
        environment: Environment,
        shopId: string,
        config: RoutingConfig,
        expectedVersion: number | undefined
      ) {
        const cardIssues = cardRuleIssues(config)
        if (cardIssues.length > 0) {
          return yield* apiError("routing_rule_invalid", `Invalid routing configuration: ${cardIssues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, { issues: cardIssues })
        }
        const issues: Array<{ readonly path: string; readonly message: string }> = []
        const seen = new Set<string>()
        config.rules.forEach((rule, i) => {
          if (seen.has(rule.id)) issues.push({ path: `rules[${i}].id`, message: `Rule id '${rule.id}' is used twice` })
          seen.add(rule.id)
        })
        const selections = [...config.rules.map((r, i) => [r, `rules[${i}]`] as const), ...(config.default === undefined ? [] : [[config.default, "default"] as const])]
        for (const [selection, at] of selections) {
          if ((selection.providers === undefined) === (selection.split === undefined)) {
            issues.push({ path: at, message: "Give exactly one of providers (an ordered list) or split (weights)" })
          }
        }
        for (const { path, provider, rule } of namedProviders(config)) {
          const found = yield* registry.forShop(provider, shopId)
          if (Option.isNone(found) || !found.value.environments.includes(environment)) {
            issues.push({ path, message: `No provider '${provider}' serving this shop is configured in ${environment}` })
            continue
          }
          for (const methodId of rule?.when.paymentMethodIds ?? []) {
            const method = findMethod(methodId)
            if (method === undefined) issues.push({ path: `${path.replace(/\.(providers|split).*$/, "")}.when.paymentMethodIds`, message: `Unknown payment method '${methodId}'` })
            else if (!found.value.supports(method)) issues.push({ path, message: `Provider '${provider}' does not serve ${method.name} (${method.id})` })
          }
          // A rule on countries, slugs or currencies: the provider must serve at least one rail it can match.
          if (rule !== undefined && rule.when.paymentMethodIds === undefined) {
            const rails = paymentMethods.filter((m) =>
              (environment === "sandbox" || !m.sandboxOnly) &&
              matches(railConditions(rule.when), railFacts(m)) &&
              cardRailFits(rule.when, m))
            if (!rails.some((m) => found.value.supports(m))) {
              issues.push({ path, message: `Provider '${provider}' serves none of the payment methods rule '${rule.id}' can match` })
            }
          }
        }
        if (issues.length > 0) {
          return yield* invalidRequest(`Invalid routing configuration: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues)
        }
        const current = (yield* readConfig(environment, shopId)).version
        if (expectedVersion !== undefined && expectedVersion !== current) {
          return yield* apiError("routing_version_conflict", `The routing configuration is at version ${current}, not ${expectedVersion}: read it again`, { version: current })
        }
        const written = yield* tx.run(Effect.flatMap(store.putConfig(environment, shopId, current, config), (ok) =>
          ok
            ? Effect.as(audit.recordForShop(environment, shopId, { object: { type: "routing", id: shopId }, changes: { version: current + 1, config } }), true)
            : Effect.succeed(false)))
        if (!written) {
          return yield* apiError("routing_version_conflict", "Another change to the routing configuration came first: read it again", {})
        }
        return { version: current + 1, config }
      })

      return Routing.of({
        routerFor,
        putRoute: (route) =>
          Effect.andThen(
            tx.run(Effect.andThen(
              routes.put(route),
              routeRecord(route.environment, route.shopId, route.providerId, { set: { priority: route.priority, methodIds: route.methodIds, enabled: route.enabled } })
            )),
            forget(route.environment, route.shopId)
          ),
        removeRoute: (environment, shopId, providerId) =>
          Effect.tap(
            tx.run(Effect.tap(routes.remove(environment, shopId, providerId), (removed) => removed ? routeRecord(environment, shopId, providerId, { removed: true }) : Effect.void)),
            () => forget(environment, shopId)
          ),
        candidates: (environment, shopId, method) => Effect.map(routerFor(environment, shopId), (route) => route(method)),
        plan,
        record: snapshots.record,
        config: readConfig,
        configure: (environment, shopId, config, expectedVersion) =>
          Effect.tap(configure(environment, shopId, config, expectedVersion), () => forget(environment, shopId))
      })
    })
  )
}
