/** The payout conformance kit against the dLocal payout connector and its simulator (`npm run conformance -- providers/dlocal`). */
import { payoutConformance } from "../kit/PayoutConformance.ts"
import { payoutsHarness } from "./PayoutsHarness.ts"

payoutConformance("dlocal", payoutsHarness)
