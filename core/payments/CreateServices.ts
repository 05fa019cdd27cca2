/**
 * What the steps of a create use (`CreateRequest.ts`, `CreateRoute.ts`), gathered once when the
 * engine starts: each step names the part it takes, so a test can call one with just that.
 */
import { Effect } from "effect"
import { Catalog } from "../catalog/Catalog.ts"
import { EngineConfig } from "../EngineConfig.ts"
import { Fx } from "../fx/Fx.ts"
import { Ids } from "../Ids.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { PaymentStore } from "../ports/PaymentStore.ts"
import { ProviderRegistry } from "../ports/ProviderRegistry.ts"
import { Transactions } from "../ports/Transactions.ts"
import { Routing } from "../routing/Routing.ts"
import { makeChecks } from "./Checks.ts"
import { engineVault } from "./CreateCard.ts"
import type { CardVault } from "../ports/CardVault.ts"
import { makeLearning } from "./Learn.ts"
import type { Lifecycle } from "./Lifecycle.ts"

export interface CreateServices {
  readonly store: PaymentStore["Service"]
  readonly routing: Routing["Service"]
  readonly fx: Fx["Service"]
  readonly ids: Ids["Service"]
  readonly jobs: Jobs["Service"]
  readonly tx: Transactions["Service"]
  readonly config: EngineConfig["Service"]
  readonly checks: Effect.Success<typeof makeChecks>
  readonly catalog: Catalog["Service"]
  readonly registry: ProviderRegistry["Service"]
  readonly learn: Effect.Success<typeof makeLearning>
  /** The payment's life cycle: its writes, its events, a provider's word about it. */
  readonly lifecycle: Lifecycle
  /** The card vault: a create's card token is described before anything is written. */
  readonly vault: CardVault["Service"]
}

export const makeCreateServices = Effect.fnUntraced(function*(lifecycle: Lifecycle) {
  return {
    store: yield* PaymentStore,
    routing: yield* Routing,
    fx: yield* Fx,
    ids: yield* Ids,
    jobs: yield* Jobs,
    tx: yield* Transactions,
    config: yield* EngineConfig,
    checks: yield* makeChecks,
    catalog: yield* Catalog,
    registry: yield* ProviderRegistry,
    learn: yield* makeLearning,
    lifecycle,
    vault: yield* engineVault
  } satisfies CreateServices
})
