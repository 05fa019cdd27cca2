/** The payout conformance kit against the dLocal payout connector and its simulator (`npm run conformance -- providers/dlocal`). */
import { payoutConformance } from "../kit/PayoutConformance.ts"
import { payoutsHarness } from "./PayoutsHarness.ts"
import { notificationMaxAgeSeconds } from "./Signing.ts"

// dLocal retries a notification for days with its first X-Date.
payoutConformance("dlocal", payoutsHarness, { callbackMaxAgeSeconds: notificationMaxAgeSeconds })
