/** Every operator page of the console, by area. */
import type { ConsoleRoute } from "../Page.ts"
import { connectorRoutes } from "./Connectors.ts"
import { depositSettingRoutes } from "./DepositSettings.ts"
import { fxRateRoutes } from "./FxRates.ts"
import { merchantRoutes } from "./Merchants.ts"
import { queueActionRoutes } from "./QueueActions.ts"
import { queueRoutes } from "./Queues.ts"
import { reconciliationRoutes } from "./Reconciliation.ts"
import { routeActionRoutes } from "./RouteActions.ts"
import { routingRoutes } from "./Routing.ts"

export const operatorRoutes: ReadonlyArray<ConsoleRoute> = [
  ...merchantRoutes,
  ...depositSettingRoutes,
  ...queueRoutes,
  ...queueActionRoutes,
  ...routingRoutes,
  ...routeActionRoutes,
  ...fxRateRoutes,
  ...connectorRoutes,
  ...reconciliationRoutes
]
