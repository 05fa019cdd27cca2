/**
 * Embedding the engine in your own server: one runtime holds the engine on the store of your
 * choice (here the in-memory one); your code calls its services directly, and the HTTP API is a
 * Fetch handler (`Request` -> `Response`) on the same runtime that you mount wherever you route.
 * Run: `npx tsx examples/embed-engine/main.ts`.
 */
import { Layer, ManagedRuntime, Option, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { HttpApp } from "../../adapters/http/server/HttpApp.ts"
import { HttpConfig } from "../../adapters/http/server/HttpConfig.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { HttpWebhookSender } from "../../adapters/webhooks/HttpWebhookSender.ts"
import { Engine } from "../../core/Engine.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import * as Money from "../../core/Money.ts"
import { Jobs } from "../../core/jobs/Jobs.ts"
import { Merchants } from "../../core/tenancy/Merchants.ts"
import { Webhooks } from "../../core/webhooks/Webhooks.ts"
import { SandboxProvider } from "../../providers/sandbox/SandboxProvider.ts"

export const makeEmbeddedEngine = (options: { readonly jwtSecret: string; readonly publicUrl: string }) => {
  const sandboxCallbackSecret = Redacted.make("sandbox-callback-secret")
  const services = Engine.layer.pipe(
    Layer.provideMerge(JoseTokenSigner.layer(Redacted.make(options.jwtSecret))),
    // Production embedders keep private targets refused; this example delivers to localhost.
    Layer.provideMerge(HttpWebhookSender.layer({ allowPrivateTargets: true })),
    Layer.provideMerge(Layer.succeed(EngineConfig, EngineConfig.of({
      publicUrl: options.publicUrl,
      checkoutUrl: options.publicUrl,
      fxMarkupPct: Money.decimal("2"),
      depositCallbackSecret: Redacted.make("change-me")
    }))),
    Layer.provideMerge(MemoryStore.layer)
  )
  // The sandbox provider (so sandbox payments have somewhere to go) and the two background loops
  // the engine needs: jobs (expiry, sandbox outcomes, settlement, reconcile) and webhook deliveries.
  const engine = Layer.mergeAll(
    SandboxProvider.layer({ formBaseUrl: options.publicUrl, callbackSecret: sandboxCallbackSecret }),
    Jobs.worker("1 second"),
    Webhooks.worker("1 second")
  ).pipe(Layer.provideMerge(services))
  const runtime = ManagedRuntime.make(engine)
  const config = Layer.succeed(HttpConfig, HttpConfig.of({ adminToken: Option.none(), sandboxCallbackSecret, trustedProxies: 0 }))
  // Sharing the runtime's memo map makes the handler use the very same engine and store.
  const web = HttpRouter.toWebHandler(
    HttpApp.pipe(Layer.provide(Layer.mergeAll(engine, config, HttpServer.layerServices))),
    { memoMap: runtime.memoMap, disableLogger: true }
  )
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
  const engine = makeEmbeddedEngine({ jwtSecret: "change-me-to-32-random-bytes-please", publicUrl: "http://localhost" })
  const { keys } = await engine.onboard("Acme", "ops@acme.example")
  const me = await engine.handler(new Request("http://localhost/api/v1/me", {
    headers: { authorization: `Bearer ${keys.sandbox.secretKey}` }
  }))
  console.log(me.status, await me.json())
  // A sandbox payment that the sandbox pays: the job worker completes it within a second.
  const created = await engine.handler(new Request("http://localhost/api/v1/payments", {
    method: "POST",
    headers: { authorization: `Bearer ${keys.sandbox.secretKey}`, "content-type": "application/json", "idempotency-key": "order-1", "sandbox-simulate": "paid" },
    body: JSON.stringify({ amount: 100, paymentMethodId: "sbx_pix", merchantOrderId: "order-1", userName: "Ana Souza", userEmail: "ana@example.com" })
  }))
  const { transactionId } = await created.json() as { transactionId: string }
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const paid = await engine.handler(new Request(`http://localhost/api/v1/payments/${transactionId}`, {
    headers: { authorization: `Bearer ${keys.sandbox.secretKey}` }
  }))
  console.log(transactionId, (await paid.json() as { status: string }).status)
  await engine.dispose()
}
