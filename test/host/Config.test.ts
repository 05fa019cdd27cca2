/** The host's configuration parsed from real environment variables, as `npm start` reads them. */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import { HostConfig } from "../../host/Config.ts"

const withEnv = (env: Record<string, string>) => Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))

describe("host configuration", () => {
  it.effect("REFERENCE_PROVIDERS as the README documents it: JSON with secrets as strings, kept Redacted", () =>
    Effect.gen(function*() {
      const config = yield* HostConfig.pipe(withEnv({
        REFERENCE_PROVIDERS: JSON.stringify([{
          id: "ref-a",
          baseUrl: "http://127.0.0.1:9999",
          apiKey: "key-a",
          callbackSecret: "whsec-a",
          environments: ["sandbox", "production"],
          timeoutMs: 5000
        }])
      }))
      const [provider] = config.referenceProviders
      assert.strictEqual(provider?.id, "ref-a")
      assert.isTrue(Redacted.isRedacted(provider?.apiKey))
      assert.strictEqual(Redacted.value(provider!.apiKey), "key-a")
      assert.strictEqual(Redacted.value(provider!.callbackSecret), "whsec-a")
      assert.notInclude(JSON.stringify(provider), "whsec-a")
    }))

  it.effect("an invalid REFERENCE_PROVIDERS is a configuration error, not a crash later", () =>
    Effect.gen(function*() {
      const result = yield* HostConfig.pipe(withEnv({ REFERENCE_PROVIDERS: "[{\"id\": 1}]" }), Effect.result)
      assert.strictEqual(result._tag, "Failure")
    }))
})
