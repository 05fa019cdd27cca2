/** Sandbox test clocks: read and advance the calling shop's sandbox time. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { maxAdvanceSeconds } from "../../../core/clock/SandboxClocks.ts"
import { IdempotencyHeaders, IsoDateTime, Text } from "./Fields.ts"
import { SecretKey } from "./Security.ts"
import { idempotent, secretKey, withErrors } from "./EndpointErrors.ts"

export const ClockView = Schema.Struct({
  now: IsoDateTime.annotate({ description: "The shop's sandbox time now" }),
  offsetSeconds: Schema.Finite.annotate({ description: "How far the shop's sandbox clock runs ahead of real time, in total" })
}).annotate({ identifier: "SandboxClock" })

const ShopId = Text(64).annotate({ description: "With a merchant-wide credential, the shop whose clock (default: the first shop)" })

export class SandboxApi extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.get("clock", "/sandbox/clock", {
      query: { shopId: Schema.optional(ShopId) },
      success: ClockView
    }).annotate(OpenApi.Description, "The shop's sandbox time (sandbox secret key; production: 400 sandbox_only)."),
    HttpApiEndpoint.post("advance", "/sandbox/clock/advance", {
      headers: IdempotencyHeaders,
      payload: Schema.Struct({
        seconds: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: maxAdvanceSeconds })).annotate({
          description: `How far to move the shop's sandbox time forward: an integer from 1 to ${maxAdvanceSeconds} (400 days)`
        }),
        shopId: Schema.optional(ShopId)
      }),
      success: ClockView
    }).annotate(
      OpenApi.Description,
      "Moves the calling shop's sandbox time forward (a test clock, like Stripe's) and runs, before answering, everything that came due for " +
        "that shop: payment expiry and `Sandbox-Simulate` outcomes, settlement T+n and reserve release, refund resolution, payout and withdrawal " +
        "timers (every job the shop scheduled), webhook deliveries and their retries, and the reconcile poll of its pending payments. So an " +
        "advance by the settlement days answers once the shop's payments read `settlement.status: settled`. From then on the shop's sandbox " +
        "timestamps, expiry dates, schedules and events are in its time; webhook signatures keep real time (`t=`). Time never goes back; " +
        "production time never moves (400 sandbox_only) and other shops' clocks are their own. Errors: invalid_request naming `seconds` " +
        "(not an integer from 1 to 34560000). With an `Idempotency-Key`, a repeated request (a double click) answers the first one's reading and moves nothing more."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Sandbox test clock")
  .pipe(withErrors({
    clock: [...secretKey, "sandbox_only"],
    advance: [...secretKey, "sandbox_only", ...idempotent]
  }))
{}
