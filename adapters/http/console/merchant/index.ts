/** Every merchant page of the console, by area. */
import type { ConsoleRoute } from "../Page.ts"
import { paymentRoutes } from "./Payments.ts"
import { moneyRoutes } from "./MoneyRoutes.ts"
import { developerAreaRoutes } from "./DeveloperRoutes.ts"

export const merchantRoutes: ReadonlyArray<ConsoleRoute> = [...paymentRoutes, ...moneyRoutes, ...developerAreaRoutes]
