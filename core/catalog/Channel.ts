import { Schema } from "effect"

export const Channel = Schema.Literals(["ONLINE", "CASH", "CREDIT_CARD"])
export type Channel = typeof Channel.Type
