/**
 * What the reference page is built from tells the truth: the security scheme is
 * `bearer` as OpenAPI tools compare it, an amount says it is above 0 and its real bound, the main
 * responses carry real examples that validate against their own schemas, `/docs` is a small page
 * whose script is cached apart from it, and `/docs/errors` gives each code an example envelope
 * and what to do.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { errorCodes } from "../../core/ApiError.ts"
import { adminToken, baseUrl, call, testHost } from "../support/Host.ts"

describe("the documents behind /docs", () => {
  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("the security schemes are `bearer` in lower case (OpenAPI tools compare it so)", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        assert.strictEqual(spec.components.securitySchemes.bearer.type, "http")
        assert.strictEqual(spec.components.securitySchemes.bearer.scheme, "bearer")
        assert.match(spec.components.securitySchemes.bearer.description, /access token/)
        const admin = (yield* call("GET", "/admin/openapi.json", { bearer: adminToken })).body
        assert.strictEqual(admin.components.securitySchemes.adminBearer.scheme, "bearer")
      }))

    it.effect("an amount is documented above 0 and at most its input bound, never as negative", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        const amount = spec.components.schemas.CreatePayment.properties.amount
        assert.strictEqual(amount.exclusiveMinimum, 0)
        assert.strictEqual(amount.maximum, 1e12)
        assert.isUndefined(amount.minimum, "no negative minimum")
        assert.match(amount.description, /100,000 USD/)
      }))

    it.effect("the main responses carry real examples that validate against their schemas", () =>
      Effect.gen(function*() {
        const spec = (yield* call("GET", "/openapi.json")).body
        const ajv = new Ajv2020({ strict: false, allErrors: true })
        ajv.addSchema({ $id: "doc", components: spec.components })
        for (const name of ["CreatedPayment", "Payment", "Refund", "Balance", "WebhookWithSecret", "Error_amount_out_of_limits", "Error_invalid_request"]) {
          const schema = spec.components.schemas[name]
          assert.isArray(schema.examples, `${name} has examples`)
          assert.isAbove(schema.examples.length, 0, name)
          const validate = ajv.compile(JSON.parse(JSON.stringify({ ...schema, examples: undefined }).replace(/"#\/components/g, "\"doc#/components")))
          for (const example of schema.examples) {
            assert.isTrue(validate(example), `${name}: ${JSON.stringify(validate.errors)}`)
            assert.notInclude(JSON.stringify(example), "\"string\"", `${name}: no placeholder`)
          }
        }
      }))

    it.effect("/docs is a small page; its script is served apart, compressed once and cached for good", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const page = yield* Effect.promise(() => fetch(`${base}/docs`, { headers: { "accept-encoding": "br" } }))
        const html = yield* Effect.promise(() => page.text())
        assert.strictEqual(page.status, 200)
        assert.isBelow(html.length, 20_000, `the page is ${html.length} characters`)
        const src = /<script src="(\/docs\/[^"]+\.js)"/.exec(html)?.[1]
        assert.isDefined(src, "a same-origin script")
        const script = yield* Effect.promise(() => fetch(`${base}${src}`, { headers: { "accept-encoding": "br" } }))
        assert.strictEqual(script.status, 200)
        assert.match(script.headers.get("cache-control") ?? "", /immutable/)
        assert.strictEqual(script.headers.get("content-encoding"), "br")
        assert.match(script.headers.get("content-type") ?? "", /javascript/)
        yield* Effect.promise(() => script.arrayBuffer())
      }))

    it.effect("/docs/errors gives every code an example envelope and what to do", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const html = yield* Effect.promise(() => fetch(`${base}/docs/errors`).then((r) => r.text()))
        for (const code of errorCodes) {
          const row = new RegExp(`id="${code}"[\\s\\S]*?</section>`).exec(html)?.[0]
          assert.isDefined(row, code)
          assert.include(row, `&quot;code&quot;: &quot;${code}&quot;`, `${code}: an example envelope`)
          assert.match(row!, /class="advice"/, `${code}: advice`)
        }
      }))
  })
})
