/** Every operator page of the console, by area. */
import type { ConsoleRoute } from "../Page.ts"

export const operatorRoutes: ReadonlyArray<ConsoleRoute> = []
