/**
 * Embedding the engine in your own server: one runtime holds the engine on the store of your
 * choice (here the in-memory one); your code calls its services directly, and the HTTP API is a
 * Fetch handler (`Request` -> `Response`) on the same runtime that you mount wherever you route.
 *
 * It imports only the package's public subpaths, so it runs as it is in your own project:
 * `npm install effect payment-orchestration-engine` (or the tarball `npm pack` makes), copy this
 * file into an ES module package (`"type": "module"` in its package.json, `npm pkg set
 * type=module`), and run `npx tsx main.ts`. Secrets come from `JWT_SECRET`,
 * `DEPOSIT_CALLBACK_SECRET` and `SANDBOX_CALLBACK_SECRET` when set; otherwise development ones
 * are generated for this run (tokens and signatures then last as long as the process).
 *
 * Rate limits: the HTTP API limits requests per credential and per client IP like the host does
 * (`HttpConfig`'s `rateLimits`: `productionPerSecond` 100, `sandboxPerSecond` 25 and
 * `authPerMinute` 30 by default, counted in this process on the memory store). Pass `rateLimits`
 * with your own figures, or `rateLimits: false` to lift them (a load test, or a server whose own
 * gateway already throttles): the limiter then allows a billion requests a second per credential
 * and a billion a minute per IP, so no client reaches it, though it still counts and still sends
 * the `RateLimit-*` headers. Leaving it out keeps the defaults.
 */
import { randomBytes } from "node:crypto"
import { ManagedRuntime, Option, Redacted } from "effect"
import { HttpWebhookSender, JoseTokenSigner } from "payment-orchestration-engine/adapters"
import { Engine, Merchants, Money } from "payment-orchestration-engine/core"
import { type HttpConfig, toFetchHandler } from "payment-orchestration-engine/http"
import { SandboxProvider } from "payment-orchestration-engine/providers/sandbox"
import { MemoryStore } from "payment-orchestration-engine/store/memory"

const secret = (name: string) => Redacted.make(process.env[name] || randomBytes(32).toString("hex"))

/** Requests allowed per credential (a second) and per client IP on the auth endpoints (a minute). */
export type RateLimits = NonNullable<HttpConfig["Service"]["rateLimits"]>

/** `rateLimits: false`: limits no client reaches. */
const unlimited: RateLimits = { productionPerSecond: 1e9, sandboxPerSecond: 1e9, authPerMinute: 1e9 }

export const makeEmbeddedEngine = (options: {
  readonly jwtSecret?: string
  readonly publicUrl: string
  /** The HTTP API's rate limits; `false` lifts them; absent, the defaults (sandbox keys: 25 a second). */
  readonly rateLimits?: RateLimits | false
}) => {
  const sandboxCallbackSecret = secret("SANDBOX_CALLBACK_SECRET")
  // The engine with the sandbox provider (so sandbox payments have somewhere to go) and its two
  // background loops: jobs (expiry, sandbox outcomes, settlement, reconcile) and webhook deliveries.
  const engine = Engine.make({
    config: {
      publicUrl: options.publicUrl,
      checkoutUrl: options.publicUrl,
      fxMarkupPct: Money.decimal("2"),
      depositCallbackSecret: secret("DEPOSIT_CALLBACK_SECRET")
    },
    store: MemoryStore.layer,
    tokenSigner: JoseTokenSigner.layer(options.jwtSecret === undefined ? secret("JWT_SECRET") : Redacted.make(options.jwtSecret)),
    // Production embedders keep private targets refused; this example delivers to localhost.
    webhookSender: HttpWebhookSender.layer({ allowPrivateTargets: true }),
    providers: [SandboxProvider.layer({ formBaseUrl: options.publicUrl, callbackSecret: sandboxCallbackSecret })]
    // Logs: Effect's default logger on the console, an Info entry per request. `loggers: [yours]`
    // (`Logger.make`) routes them into your application's logger; `logLevel: "Warn"` quiets them.
  })
  const runtime = ManagedRuntime.make(engine)
  // Sharing the runtime's memo map makes the handler use the very same engine and store.
  const web = toFetchHandler(engine, {
    adminToken: Option.none(),
    sandboxCallbackSecret,
    trustedProxies: 0,
    rateLimits: options.rateLimits === false ? unlimited : options.rateLimits
  }, { memoMap: runtime.memoMap })
  return {
    handler: web.handler,
    onboard: (name: string, email: string) => runtime.runPromise(Merchants.use((m) => m.create({ name, email }))),
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const engine = makeEmbeddedEngine({ publicUrl: "http://localhost" })
  const { keys } = await engine.onboard("Acme", "ops@acme.example")
  const me = await engine.handler(new Request("http://localhost/api/v1/me", {
    headers: { authorization: `Bearer ${keys.sandbox.secretKey}` }
  }))
  console.log(me.status, await me.json())
  // A sandbox payment that the sandbox pays: the job worker completes it within a second or two.
  const created = await engine.handler(new Request("http://localhost/api/v1/payments", {
    method: "POST",
    headers: { authorization: `Bearer ${keys.sandbox.secretKey}`, "content-type": "application/json", "idempotency-key": "order-1", "sandbox-simulate": "paid" },
    body: JSON.stringify({ amount: 100, paymentMethodId: "sbx_pix", merchantOrderId: "order-1", userName: "Ana Souza", userEmail: "ana@example.com" })
  }))
  const { transactionId } = await created.json() as { transactionId: string }
  let status = "pending"
  for (let i = 0; i < 20 && status === "pending"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const paid = await engine.handler(new Request(`http://localhost/api/v1/payments/${transactionId}`, {
      headers: { authorization: `Bearer ${keys.sandbox.secretKey}` }
    }))
    status = (await paid.json() as { status: string }).status
  }
  console.log(transactionId, status)
  await engine.dispose()
}
