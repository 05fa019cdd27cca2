/**
 * `defineConnector` (providers/kit/Connector.ts): what a connector declares becomes the host's
 * descriptor (its plugin built from the instance's settings through `options`), a layer that
 * registers the plugin, and the standalone simulator entry with the host's variables for it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted, Schema } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import type { PaymentProvider } from "../../core/ports/index.ts"
import { CardVault, ProviderRegistry } from "../../core/ports/index.ts"
import { defineConnector, type StatusMap, statusOf } from "../../providers/kit/index.ts"

const DocumentedStatus = Schema.Literals(["OPEN", "DONE"])
const statusMap = { OPEN: "pending", DONE: "completed" } satisfies StatusMap<typeof DocumentedStatus, "pending" | "completed">

interface Options {
  readonly id: string
  readonly apiKey: Redacted.Redacted<string>
  readonly region: string | undefined
}

const Live = Layer.mergeAll(FetchHttpClient.layer, Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)), CardVault.unconfigured)
const made: Array<Options> = []
const make = (options: Options) =>
  Effect.sync((): PaymentProvider => {
    made.push(options)
    return {
      id: options.id,
      displayName: "Acme",
      environments: ["sandbox"],
      supports: () => true,
      requires: () => [],
      charge: () => Effect.die("not charged here"),
      status: () => Effect.die("not polled here"),
      verifyCallback: () => Effect.succeed([]),
      refund: () => Effect.die("not refunded here")
    }
  })

const Acme = defineConnector({
  kind: "acme",
  secrets: ["API_KEY"],
  settings: ["REGION"],
  rails: [{ catalogId: "1001", word: "pix" }],
  wire: { DocumentedStatus },
  statusMaps: { payments: statusMap },
  make,
  options: (settings): Options => ({ id: settings.id, apiKey: settings.secrets["API_KEY"]!, region: settings.values["REGION"] })
})

// The simulator's credentials are typed by the declared secrets: one left out does not compile.
// @ts-expect-error API_KEY is a declared secret and is missing
const missingCredential = Acme.standalone(Effect.succeed({ baseUrl: "http://127.0.0.1:1", credentials: {} }))

describe("defineConnector", () => {
  it.effect("the host's descriptor: its settings as declared, the plugin built through options", () =>
    Effect.gen(function*() {
      assert.strictEqual(Acme.connector.kind, "acme")
      assert.deepStrictEqual(Acme.connector.secrets, ["API_KEY"])
      assert.deepStrictEqual(Acme.connector.settings, ["REGION"])
      assert.isFalse("rails" in Acme.connector || "make" in Acme.connector || "statusMaps" in Acme.connector)
      const provider = yield* Acme.connector.paymentProvider!({
        id: "acme-eu",
        environment: "sandbox",
        baseUrl: undefined,
        timeoutMs: undefined,
        secrets: { API_KEY: Redacted.make("k") },
        values: { REGION: "eu" }
      }).pipe(Effect.provide(Live))
      assert.strictEqual(provider.id, "acme-eu")
      assert.strictEqual(made.at(-1)!.region, "eu")
      assert.strictEqual(statusOf(Acme.statusMaps["payments"]!, "DONE", "pending"), "completed")
      assert.deepStrictEqual(Acme.rails, [{ catalogId: "1001", word: "pix" }])
    }))

  it.effect("the layer registers the plugin", () =>
    Effect.gen(function*() {
      const registry = yield* ProviderRegistry
      const found = yield* registry.get("acme")
      assert.isTrue(found._tag === "Some")
    }).pipe(
      Effect.provide(Acme.layer({ id: "acme", apiKey: Redacted.make("k"), region: undefined }).pipe(Layer.provideMerge(ProviderRegistry.layer)))
    ))

  it.effect("the standalone entry: the host's variables for an instance named after the kind, credentials then settings", () =>
    Effect.gen(function*() {
      const standalone = Acme.standalone(Effect.succeed({
        baseUrl: "http://127.0.0.1:4010",
        credentials: { API_KEY: "test_key" },
        settings: { REGION: "eu" }
      }))
      assert.strictEqual(standalone.kind, "acme")
      assert.strictEqual(missingCredential.kind, "acme")
      const started = yield* Effect.scoped(standalone.start)
      assert.strictEqual(started.baseUrl, "http://127.0.0.1:4010")
      assert.deepStrictEqual(started.environment, [
        ["CONNECTORS", "acme"],
        ["ACME_ENVIRONMENT", "sandbox"],
        ["ACME_BASE_URL", "http://127.0.0.1:4010"],
        ["ACME_API_KEY", "test_key"],
        ["ACME_REGION", "eu"]
      ])
    }))
})
