/**
 * `payment-orchestration-engine/adapters`: the engine's adapters for its non-storage ports: the
 * JWT token signer on `jose` (`JoseTokenSigner.layer(secret)`) and the webhook sender over
 * `node:http(s)` with SSRF-safe targets (`HttpWebhookSender.layer({ allowPrivateTargets })`).
 */
export { JoseTokenSigner } from "./auth/JoseTokenSigner.ts"
export { HttpWebhookSender, type Options as HttpWebhookSenderOptions } from "./webhooks/HttpWebhookSender.ts"
