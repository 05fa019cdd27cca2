/**
 * `payment-orchestration-engine/webhooks`: what a webhook receiver needs, on `effect` only:
 * `verifyWebhook(rawBody, header, secret, toleranceSeconds = 300)` (constant time, accepts the
 * `v0` signature of a rotation, refuses stale timestamps, never throws) and the event types.
 */
export { type Verification, verifyWebhook } from "./verifyWebhook.ts"
export { type EventType, eventTypes } from "./Webhook.ts"
