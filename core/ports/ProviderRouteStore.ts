import { Context, type Effect } from "effect"
import type { Environment } from "../Environment.ts"

/**
 * Routing configuration: provider `providerId` serves the shop in `environment` for the listed
 * catalog method ids (null: every method it supports), tried in ascending `priority`.
 */
export interface ProviderRoute {
  readonly environment: Environment
  readonly shopId: string
  readonly providerId: string
  readonly priority: number
  readonly methodIds: ReadonlyArray<string> | null
  readonly enabled: boolean
}

export class ProviderRouteStore extends Context.Service<ProviderRouteStore, {
  /** Ascending priority. */
  readonly list: (environment: Environment, shopId: string) => Effect.Effect<ReadonlyArray<ProviderRoute>>
  /** Inserts or replaces the route of (environment, shop, provider). */
  readonly put: (route: ProviderRoute) => Effect.Effect<void>
  readonly remove: (environment: Environment, shopId: string, providerId: string) => Effect.Effect<boolean>
  /** How many routes, of any shop, name the provider. */
  readonly countNaming: (providerId: string) => Effect.Effect<number>
}>()("core/ports/ProviderRouteStore") {}
