/**
 * `payment-orchestration-engine/adapters`: the engine's adapters for its non-storage ports: the
 * JWT token signer on `jose` (`JoseTokenSigner.layer(secret)`) and the webhook sender over
 * `node:http(s)` with SSRF-safe targets (`HttpWebhookSender.layer({ allowPrivateTargets })`), and
 * the store's secret sealing (`EnvelopeSealing.layer([key])`, AES-256-GCM envelopes; provide it to
 * `SqlStore` so what it seals survives a restart).
 */
export { EnvelopeSealing } from "./auth/EnvelopeSealing.ts"
export { JoseTokenSigner } from "./auth/JoseTokenSigner.ts"
export { HttpWebhookSender, type Options as HttpWebhookSenderOptions } from "./webhooks/HttpWebhookSender.ts"
