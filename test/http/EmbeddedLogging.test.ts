/**
 * The package's Fetch handler (`toFetchHandler`, subpath `/http`) logs through the embedder's
 * loggers at the embedder's minimum level: with the level at `None` not one line reaches a custom
 * logger or the console; with the default level its request lines reach the embedder's logger.
 * `Engine.make`'s `loggers` and `logLevel` are the documented way to say so: the engine's lines go
 * to the embedder's logger (one entry a request, nothing on the console), or stay below the level.
 * The request spans the embedder's tracer records name the route's template and carry nothing of
 * the URL, the query or the user agent (the client's address only when asked for).
 */
import { assert, describe, it } from "@effect/vitest"
import { Layer, Logger, ManagedRuntime, Option, Redacted, References, Tracer } from "effect"
import { afterEach, vi } from "vitest"
import { JoseTokenSigner } from "../../adapters/auth/JoseTokenSigner.ts"
import { type FetchHandlerOptions, toFetchHandler } from "../../adapters/http/index.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { SandboxProvider } from "../../providers/sandbox/SandboxProvider.ts"
import { HttpWebhookSender } from "../../adapters/webhooks/HttpWebhookSender.ts"
import { Engine } from "../../core/Engine.ts"
import { EngineConfig } from "../../core/EngineConfig.ts"
import * as Money from "../../core/Money.ts"
import { Merchants } from "../../core/tenancy/Merchants.ts"

/** The embedder's engine with its own logger (and, when given, its own minimum level). */
const embed = (lines: Array<string>, level?: "None") => {
  const capture = Logger.make(({ message }) => {
    lines.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  const logging = Layer.mergeAll(
    Logger.layer([capture]),
    level === undefined ? Layer.empty : Layer.succeed(References.MinimumLogLevel, level)
  )
  const engine = Engine.layer.pipe(
    Layer.provideMerge(JoseTokenSigner.layer(Redacted.make("an-embedder-secret-of-32-bytes!!"))),
    Layer.provideMerge(HttpWebhookSender.layer({ allowPrivateTargets: false })),
    Layer.provideMerge(Layer.succeed(EngineConfig, EngineConfig.of({
      publicUrl: "https://shop.example",
      checkoutUrl: "https://shop.example",
      fxMarkupPct: Money.decimal("2"),
      depositCallbackSecret: Redacted.make("an-embedder-deposit-secret")
    }))),
    Layer.provideMerge(MemoryStore.layer),
    Layer.provideMerge(logging)
  )
  const runtime = ManagedRuntime.make(engine)
  const api = toFetchHandler(engine, { adminToken: Option.none(), sandboxCallbackSecret: Redacted.make("sbx"), trustedProxies: 0 }, { memoMap: runtime.memoMap })
  return {
    runtime,
    api,
    dispose: async () => {
      await api.dispose()
      await runtime.dispose()
    }
  }
}

/** The engine as `Engine.make` assembles it (`docs/embedding.md`), with the given logging parts. */
const made = (
  logging: Pick<Parameters<typeof Engine.make>[0], "loggers" | "logLevel">,
  tracer?: Tracer.Tracer,
  handlerOptions: Omit<FetchHandlerOptions, "memoMap"> = {}
) => {
  const parts = Engine.make({
    config: {
      publicUrl: "https://shop.example",
      checkoutUrl: "https://shop.example",
      fxMarkupPct: Money.decimal("2"),
      depositCallbackSecret: Redacted.make("an-embedder-deposit-secret")
    },
    store: MemoryStore.layer,
    tokenSigner: JoseTokenSigner.layer(Redacted.make("an-embedder-secret-of-32-bytes!!")),
    webhookSender: HttpWebhookSender.layer({ allowPrivateTargets: false }),
    providers: [SandboxProvider.layer({ formBaseUrl: "https://shop.example", callbackSecret: Redacted.make("sbx") })],
    workerInterval: false,
    ...logging
  })
  // The embedder's own tracer (its exporter), beside the engine.
  const engine = tracer === undefined ? parts : parts.pipe(Layer.provideMerge(Layer.succeed(Tracer.Tracer, tracer)))
  const runtime = ManagedRuntime.make(engine)
  const api = toFetchHandler(engine, { adminToken: Option.none(), sandboxCallbackSecret: Redacted.make("sbx"), trustedProxies: 0 }, {
    memoMap: runtime.memoMap,
    ...handlerOptions
  })
  return {
    runtime,
    api,
    dispose: async () => {
      await api.dispose()
      await runtime.dispose()
    }
  }
}

/** What reaches the console while the test runs. */
const spyConsole = () => {
  const printed: Array<string> = []
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
      printed.push(args.map(String).join(" "))
    })
  }
  return printed
}

/** Three requests: a success, an authentication error and an unknown route. */
const traffic = async (embedded: ReturnType<typeof embed>) => {
  const { keys } = await embedded.runtime.runPromise(Merchants.use((m) => m.create({ name: "Acme", email: "ops@acme.example" })))
  const me = await embedded.api.handler(new Request("https://shop.example/api/v1/me", { headers: { authorization: `Bearer ${keys.sandbox.secretKey}` } }))
  assert.strictEqual(me.status, 200)
  assert.strictEqual((await embedded.api.handler(new Request("https://shop.example/api/v1/me"))).status, 401)
  assert.strictEqual((await embedded.api.handler(new Request("https://shop.example/api/v1/nowhere"))).status, 404)
}

describe("toFetchHandler's logging", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it("the embedder's minimum level None: no line reaches the embedder's logger nor the console", async () => {
    const printed: Array<string> = []
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
        printed.push(args.map(String).join(" "))
      })
    }
    const lines: Array<string> = []
    const embedded = embed(lines, "None")
    try {
      await traffic(embedded)
    } finally {
      await embedded.dispose()
    }
    assert.deepStrictEqual(lines, [])
    assert.deepStrictEqual(printed.filter((p) => p.includes("/api/v1/")), [])
  })

  it("at the default level the request lines go to the embedder's logger", async () => {
    const lines: Array<string> = []
    const embedded = embed(lines)
    try {
      await traffic(embedded)
    } finally {
      await embedded.dispose()
    }
    const requests = lines.filter((l) => /^GET (\/api\/v1\/\S+|other) \d{3} \d+ms$/.test(l))
    assert.deepStrictEqual(requests.map((l) => l.split(" ").slice(0, 3).join(" ")), [
      "GET /api/v1/me 200",
      "GET /api/v1/me 401",
      "GET other 404"
    ])
  })
})

describe("Engine.make's loggers and logLevel", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it("loggers: the embedder's logger gets one entry a request, with its fields; nothing reaches the console", async () => {
    const printed = spyConsole()
    const entries: Array<{ readonly message: string; readonly route: unknown }> = []
    const own = Logger.make(({ fiber, message }) => {
      const annotations = fiber.getRef(References.CurrentLogAnnotations)
      entries.push({ message: (Array.isArray(message) ? message : [message]).map(String).join(" "), route: annotations["route"] })
    })
    const embedded = made({ loggers: [own] })
    try {
      await traffic(embedded)
    } finally {
      await embedded.dispose()
    }
    const requests = entries.filter((e) => e.route !== undefined)
    assert.deepStrictEqual(requests.map((e) => e.message.split(" ").slice(0, 3).join(" ")), ["GET /api/v1/me 200", "GET /api/v1/me 401", "GET other 404"])
    assert.deepStrictEqual(requests.map((e) => e.route), ["/api/v1/me", "/api/v1/me", "other"])
    assert.deepStrictEqual(printed, [])
  })

  it("logLevel Warn: the line per request is not logged, on the console or anywhere", async () => {
    const printed = spyConsole()
    const embedded = made({ logLevel: "Warn" })
    try {
      await traffic(embedded)
    } finally {
      await embedded.dispose()
    }
    assert.deepStrictEqual(printed.filter((p) => p.includes("/api/v1/") || p.includes("other")), [])
  })
})

describe("toFetchHandler's spans, under the embedder's tracer", () => {
  /** A tracer that keeps every span it makes (an embedder's exporter would send them). */
  const recording = () => {
    const spans: Array<Tracer.Span> = []
    const tracer = Tracer.make({
      span: (options) => {
        const span = Tracer.nativeTracer.span(options)
        spans.push(span)
        return span
      },
      context: Tracer.nativeTracer.context
    })
    return { spans, tracer }
  }
  const token = "cs_EmbeddedCapabilityToken0123456789"
  const visit = (embedded: ReturnType<typeof made>) =>
    embedded.api.handler(new Request(`https://shop.example/checkout/${token}?email=ana.leaky%40example.com`, { headers: { "user-agent": "LeakyBrowser/9.1" } }))

  it("a request's span names the route's template; no URL, query, user agent or client address", async () => {
    const { spans, tracer } = recording()
    const embedded = made({ logLevel: "None" }, tracer)
    try {
      await visit(embedded)
    } finally {
      await embedded.dispose()
    }
    const server = spans.filter((s) => s.kind === "server")
    assert.strictEqual(server.length, 1)
    assert.strictEqual(server[0]!.attributes.get("http.route"), "/checkout/:token")
    const rendered = JSON.stringify(spans.map((s) => [s.name, [...s.attributes]]))
    for (const secret of [token, "ana.leaky", "LeakyBrowser"]) assert.notInclude(rendered, secret)
    for (const key of ["url.full", "url.query", "user_agent.original", "client.address"]) assert.isFalse(server[0]!.attributes.has(key), key)
  })
})
