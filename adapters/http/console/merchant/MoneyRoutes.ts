/** The merchant's money pages: balances and swaps, payouts, settlements. */
import type { ConsoleRoute } from "../Page.ts"
import { balanceRoutes } from "./Balances.ts"
import { payoutFundingRoutes } from "./PayoutFunding.ts"
import { payoutSendRoutes } from "./PayoutSend.ts"
import { payoutRoutes } from "./Payouts.ts"
import { settlementRoutes } from "./Settlements.ts"
import { swapRoutes } from "./Swaps.ts"

export const moneyRoutes: ReadonlyArray<ConsoleRoute> = [...balanceRoutes, ...swapRoutes, ...payoutFundingRoutes, ...payoutSendRoutes, ...payoutRoutes, ...settlementRoutes]
