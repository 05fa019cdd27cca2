/**
 * The payer object dLocal receives (https://docs.dlocal.com/reference/the-payer-object,
 * https://docs.dlocal.com/reference/country-reference): `name` and `email`, and `document` in every
 * country this connector serves ("document required by country?": yes for AR, BR, CL, CO, MX, PE).
 * A field the engine does not know is left out, never sent empty; the fields dLocal needs beyond the
 * catalog's `method.requires` are declared through `requires(method)`, so the engine refuses a
 * charge without them (422) before any call. The buyer's address, when known, is the payer's.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { findMethod } from "../../core/catalog/methods.ts"
import type { ProviderError } from "../../core/ports/PaymentProvider.ts"
import { defaultChargeRequest } from "../../providers/kit/ProviderConformance.ts"
import { credentials, Live, optionsFor } from "../../providers/dlocal/ConformanceHarness.ts"
import { make } from "../../providers/dlocal/DLocalProvider.ts"
import { DLocalSimulator } from "../../providers/dlocal/DLocalSimulator.ts"
import * as Rails from "../../providers/dlocal/Rails.ts"
import { view } from "./Verdict.ts"

const errorOf = (exit: Exit.Exit<unknown, ProviderError>) => view(Option.getOrUndefined(Exit.findErrorOption(exit)))

describe("dLocal payer fields", () => {
  it.live("a field the engine does not know is left out of the payer, never sent as an empty string", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      yield* sim.dropCallbacks(true)
      const provider = yield* make(optionsFor(sim.baseUrl))
      const webpay = findMethod("1075")!
      const base = defaultChargeRequest(provider, webpay, "TXN-PAYER-1")
      const exit = yield* Effect.exit(provider.charge({ ...base, customer: { email: Redacted.make("ana@example.com") } }))
      const sent = JSON.parse(sim.paymentBodies.at(-1)!)
      assert.deepStrictEqual(sent.payer, { email: "ana@example.com" })
      // dLocal refuses the missing name (5001, final), not an empty one.
      assert.deepInclude(errorOf(exit), { reason: "5001", retryable: false })
    }).pipe(Effect.provide(Live)))

  it.live("requires(method) declares the payer fields dLocal needs that the catalog's method.requires lacks", () =>
    Effect.gen(function*() {
      const provider = yield* make(optionsFor("http://127.0.0.1:9"))
      assert.isDefined(provider.requires)
      for (const rail of Rails.rails) {
        const method = findMethod(rail.catalogId)!
        const all = new Set([...method.requires, ...(provider.requires?.(method) ?? [])])
        for (const field of ["userName", "userEmail", "documentId"] as const) assert.isTrue(all.has(field), `${rail.catalogId} ${field}`)
        for (const field of provider.requires?.(method) ?? []) assert.notInclude(method.requires, field, `${rail.catalogId} declares only what the catalog lacks`)
      }
      assert.deepStrictEqual([...(provider.requires?.(findMethod("1075")!) ?? [])].sort(), ["documentId", "userName"])
    }).pipe(Effect.provide(Live)))

  it.live("the buyer's address, when the engine has it, is the payer's address", () =>
    Effect.gen(function*() {
      const sim = yield* DLocalSimulator.start(credentials)
      yield* sim.dropCallbacks(true)
      const provider = yield* make(optionsFor(sim.baseUrl))
      const base = defaultChargeRequest(provider, findMethod("1002")!, "TXN-PAYER-2")
      const address = { street: "Avenida Paulista", number: "1234", complement: "cj 5", district: "Bela Vista", city: "São Paulo", state: "SP", postalCode: "01310-100", country: "BR" }
      const accepted = yield* provider.charge({ ...base, customer: { ...base.customer, address: Redacted.make(address) } })
      assert.deepStrictEqual(sim.charges.get(accepted.providerRef)!.body.payer.address, {
        street: "Avenida Paulista", number: "1234", city: "São Paulo", state: "SP", zip_code: "01310-100"
      })
    }).pipe(Effect.provide(Live)))
})
