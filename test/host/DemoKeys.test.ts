/**
 * The demo merchant of `npm start` without ADMIN_TOKEN: its sandbox keys are printed once, on
 * the first start of an empty store; later starts say how to get new ones, and `DEMO_KEYS=new`
 * creates a new demo merchant and prints its keys. With ADMIN_TOKEN no demo merchant is made.
 */
import { assert, describe, it } from "@effect/vitest"
import { Console, Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { TenancyStore } from "../../core/ports/TenancyStore.ts"
import { appLayer } from "../../host/Host.ts"
import { testConfig } from "../support/Host.ts"

describe("demo keys", () => {
  it.effect("printed on the first start only; DEMO_KEYS=new makes a new demo merchant; never with ADMIN_TOKEN", () =>
    Effect.scoped(Effect.gen(function*() {
      const store = yield* Layer.build(MemoryStore.layer)
      const printed: Array<string> = []
      const console = Layer.succeed(Console.Console, { ...globalThis.console, log: (...args: ReadonlyArray<unknown>) => void printed.push(args.join(" ")) })
      const start = (overrides: Parameters<typeof testConfig>[0]) =>
        Effect.scoped(Effect.gen(function*() {
          printed.length = 0
          yield* Layer.build(appLayer(testConfig(overrides), Layer.succeedContext(store)).pipe(Layer.provide(Layer.mergeAll(console, HttpRouter.layer, HttpServer.layerServices))))
          return { printed: printed.join("\n"), merchants: yield* Effect.provideContext(TenancyStore.use((t) => t.countMerchants), store) }
        }))
      const secretKeys = (text: string) => text.match(/sk_test_\w+/g) ?? []

      const first = yield* start({ adminToken: Option.none() })
      assert.strictEqual(first.merchants, 1)
      assert.lengthOf(secretKeys(first.printed), 2, "the secret key and the curl line to try it")
      assert.include(first.printed, "Created demo merchant")

      const again = yield* start({ adminToken: Option.none() })
      assert.strictEqual(again.merchants, 1)
      assert.lengthOf(secretKeys(again.printed), 0, "keys are shown once")
      assert.include(again.printed, "DEMO_KEYS=new npm start")

      const renewed = yield* start({ adminToken: Option.none(), newDemoKeys: true })
      assert.strictEqual(renewed.merchants, 2)
      assert.notStrictEqual(secretKeys(renewed.printed)[0], secretKeys(first.printed)[0])

      const operated = yield* start({ adminToken: Option.some(Redacted.make("an-operator-token")), newDemoKeys: true })
      assert.strictEqual(operated.merchants, 2, "an operated host makes no demo merchant")
      assert.lengthOf(secretKeys(operated.printed), 0)
    })), 60_000)
})
