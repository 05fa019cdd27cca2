/**
 * The checkout page collects the buyer's address and phone exactly when the chosen method's
 * providers need them: a shop routed to a provider plugin that needs both for the boleto and
 * nothing for PIX (configured in the host as `CONNECTORS` configures one). The address block
 * appears only for the boleto, is validated in the page, is sent as `customer.address`, and reaches
 * the provider; a 422 `missing_required_fields` the page did not foresee is shown next to the
 * fields. Labelled, reachable by keyboard, with `autocomplete` tokens, axe-clean, nothing loaded
 * from another host, no overflow at 390 px, in the three languages.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import type { RequiredField } from "../../core/catalog/PaymentMethod.ts"
import type { ChargeRequest, PaymentProvider } from "../../core/ports/PaymentProvider.ts"
import type { Connector } from "../../providers/kit/Connector.ts"
import { browser, chromiumPath, violations } from "../support/Browser.ts"
import { adminToken, baseUrl, call, connectorInstance, createMerchant, reachableHost } from "../support/Host.ts"
import { clear } from "../../providers/kit/Buyer.ts"

const pix = "1001"
const boleto = "1002"

/** What the provider plugin was asked, where it sends the buyer, and what PIX needs (the test changes it). */
const upstream = {
  charges: [] as Array<ChargeRequest>,
  formUrl: "http://127.0.0.1:9/boleto",
  pixNeeds: [] as ReadonlyArray<RequiredField>
}

/** A boleto provider as Mercado Pago's and EBANX's are: the buyer's address and phone for a boleto, nothing for PIX. */
const boletoProvider: PaymentProvider = {
  id: "boletos",
  displayName: "Boletos",
  environments: ["sandbox"],
  supports: (method) => method.id === pix || method.id === boleto,
  requires: (method) => method.id === boleto ? ["userAddress", "userPhone"] : upstream.pixNeeds,
  charge: (request) =>
    Effect.sync(() => {
      upstream.charges.push(request)
      return { providerRef: `bol_${request.transactionId}`, status: "pending" as const, paymentFormUrl: `${upstream.formUrl}?tx=${request.transactionId}`, paymentData: {} }
    }),
  status: (providerRef) => Effect.succeed({ providerRef, status: "pending" as const }),
  verifyCallback: () => Effect.succeed([]),
  refund: (request) => Effect.succeed({ providerRef: request.refundId, status: "succeeded" as const })
}

const boletoConnector: Connector = { kind: "boletos", secrets: [], paymentProvider: () => Effect.succeed(boletoProvider) }

/** Every tile, label and heading of the page that is wider inside than it shows. */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".methods label, .methods span, legend, h1, h2, button, label, small, .error")]
      .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.tagName} "${(e.textContent ?? "").trim().slice(0, 40)}" ${e.scrollWidth}>${e.clientWidth}`)
      .concat(document.documentElement.scrollWidth > document.documentElement.clientWidth ? ["the page scrolls sideways"] : []))

const addressIds = ["street", "number", "complement", "district", "city", "state", "postalCode"] as const

const visible = (page: Page, selector: string) => page.locator(selector).isVisible()

describe.skipIf(chromiumPath === undefined)("the checkout page collects the address a method's providers need", () => {
  layer(reachableHost(MemoryStore.layer, { connectors: [connectorInstance(boletoConnector, { id: "boletos", environment: "sandbox", baseUrl: "http://127.0.0.1:9" }, {})] }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    /** A merchant whose shop is routed to the boleto provider only. */
    const shop = Effect.gen(function*() {
      const merchant = yield* createMerchant()
      const shopId = merchant.shops[0]!.id
      const route = (providerId: string, priority: number, enabled: boolean) =>
        call("PUT", `/admin/v1/shops/${shopId}/routes/${providerId}`, { bearer: adminToken, body: { environment: "sandbox", priority, enabled } })
      assert.strictEqual((yield* route("boletos", 1, true)).status, 200)
      assert.strictEqual((yield* route("sandbox", 2, false)).status, 200)
      const sk = merchant.keys.sandbox.secretKey
      const open = (merchantOrderId: string) =>
        Effect.map(
          call("POST", "/api/v1/checkout/sessions", {
            bearer: sk,
            body: { amount: 50, country: "BR", merchantOrderId, customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com" } }
          }),
          (r) => {
            assert.strictEqual(r.status, 201, JSON.stringify(r.body))
            return new URL(r.body.checkoutUrl).pathname
          }
        )
      return { sk, open }
    })

    it.effect("shown only for the boleto, validated in the page, sent, and received by the provider", () =>
      Effect.gen(function*() {
        const { open, sk } = yield* shop
        const base = yield* baseUrl
        upstream.formUrl = `${base}/shop/boleto`
        const path = yield* open("address-1")
        const listed = (yield* call("GET", "/api/v1/payment-methods?country=BR", { bearer: sk })).body.methods as ReadonlyArray<{ paymentMethodId: string; requiredFields: ReadonlyArray<string> }>
        assert.deepStrictEqual(listed.find((m) => m.paymentMethodId === boleto)?.requiredFields, ["userAddress", "userPhone"], "the catalog says what the page asks")

        const chromium = yield* browser
        const context = yield* Effect.promise(() => chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale: "pt-BR" }))
        const page = yield* Effect.promise(() => context.newPage())
        const foreign: Array<string> = []
        page.on("request", (request) => {
          if (!request.url().startsWith(base) && !request.url().startsWith("data:")) foreign.push(request.url())
        })
        yield* Effect.promise(async () => {
          assert.strictEqual((await page.goto(base + path))?.status(), 200)
          assert.deepStrictEqual(
            (await page.locator("input[name=paymentMethodId]").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).sort(),
            [pix, boleto]
          )
          assert.isFalse(await visible(page, "#street"), "no method chosen: no address")
          assert.isFalse(await visible(page, "#phone"), "no method chosen: no phone")
          assert.deepStrictEqual(await violations(page), [])

          await page.locator(`input[value="${pix}"]`).check()
          assert.isFalse(await visible(page, "#street"), "PIX's provider needs no address")
          assert.isFalse(await visible(page, "#phone"))

          // By keyboard: the arrow moves the choice from PIX to the boleto, and the address appears.
          await page.locator(`input[value="${pix}"]`).focus()
          await page.keyboard.press("ArrowDown")
          assert.isTrue(await page.locator(`input[value="${boleto}"]`).isChecked())
          for (const id of addressIds) assert.isTrue(await visible(page, `#${id}`), `${id} shown for the boleto`)
          assert.isTrue(await visible(page, "#phone"))
          assert.strictEqual(await page.textContent("fieldset[data-needed-for=userAddress] legend"), "Seu endereço")
          assert.deepStrictEqual(
            await Promise.all(addressIds.map((id) => page.getAttribute(`#${id}`, "autocomplete"))),
            ["address-line1", null, "address-line2", "address-level3", "address-level2", "address-level1", "postal-code"]
          )
          // Every input is named by its label.
          for (const [label, id] of [["Rua ou avenida", "street"], ["Número", "number"], ["Complemento (opcional)", "complement"], ["Bairro", "district"], [
            "Cidade",
            "city"
          ], ["Estado (UF)", "state"], ["CEP", "postalCode"]] as const) {
            assert.strictEqual(await page.getByLabel(label, { exact: true }).getAttribute("id"), id)
          }
          assert.deepStrictEqual(await violations(page), [])
          assert.deepStrictEqual(await overflowing(page), [])
          await page.screenshot({ path: "/tmp/checkout-address-390.png", fullPage: true })

          // Without them: each says what is missing, the first is focused, nothing is sent.
          await page.fill("#documentId", "52998224725")
          await page.click("button[type=submit]")
          assert.strictEqual((await page.textContent("#error-phone"))?.trim(), "Informe seu telefone com o código do país, como +5511987654321.")
          assert.strictEqual((await page.textContent("#error-street"))?.trim(), "Informe a rua ou avenida.")
          assert.strictEqual((await page.textContent("#error-postalCode"))?.trim(), "Informe um CEP válido, como 01310-100.")
          for (const id of ["street", "number", "district", "city", "state", "postalCode"]) {
            assert.notStrictEqual((await page.textContent(`#error-${id}`))?.trim(), "", `${id} has its error`)
            assert.strictEqual(await page.getAttribute(`#${id}`, "aria-invalid"), "true", id)
          }
          assert.strictEqual((await page.textContent("#error-complement"))?.trim(), "", "the complement is optional")
          assert.strictEqual(await page.evaluate(() => document.activeElement?.id), "phone", "the first field in error has the focus")
          assert.strictEqual(new URL(page.url()).pathname, path)
          assert.deepStrictEqual(await overflowing(page), [])
          await page.screenshot({ path: "/tmp/checkout-address-errors-390.png", fullPage: true })

          // Brazil's shapes: the state's two letters and an 8-digit CEP.
          await page.fill("#phone", "+55 11 98765-4321")
          await page.fill("#street", "Avenida Paulista")
          await page.fill("#number", "1000")
          await page.fill("#complement", "Conjunto 42")
          await page.fill("#district", "Bela Vista")
          await page.fill("#city", "São Paulo")
          await page.fill("#state", "São Paulo")
          await page.fill("#postalCode", "0131")
          await page.click("button[type=submit]")
          assert.strictEqual((await page.textContent("#error-state"))?.trim(), "Informe a sigla do estado, como SP.")
          assert.strictEqual((await page.textContent("#error-postalCode"))?.trim(), "Informe um CEP válido, como 01310-100.")
          assert.strictEqual((await page.textContent("#error-street"))?.trim(), "")
          assert.strictEqual(upstream.charges.filter((c) => clear(c.customer.email) === "ana@example.com" && c.method.id === boleto).length, 0)

          await page.fill("#state", "sp")
          await page.fill("#postalCode", "01310-100")
          await Promise.all([page.waitForURL(/\/shop\/boleto\?tx=TXN-/), page.click("button[type=submit]")])
        })
        const transactionId = new URL(yield* Effect.sync(() => page.url())).searchParams.get("tx")!
        const charge = upstream.charges.find((c) => c.transactionId === transactionId)
        assert.isDefined(charge, "the provider was asked")
        assert.strictEqual(charge!.method.id, boleto)
        assert.deepStrictEqual(clear(charge!.customer.address), {
          street: "Avenida Paulista",
          number: "1000",
          complement: "Conjunto 42",
          district: "Bela Vista",
          city: "São Paulo",
          state: "SP",
          postalCode: "01310-100"
        })
        assert.strictEqual(clear(charge!.customer.phone), "+55 11 98765-4321")
        const payment = yield* call("GET", `/api/v1/payments/${transactionId}`, { bearer: sk })
        assert.strictEqual(payment.body.status, "pending")
        assert.strictEqual(payment.body.paymentMethodId, boleto)
        assert.deepStrictEqual(foreign, [], "nothing is loaded from another host")
        yield* Effect.promise(() => context.close())
      }))

    it.effect("a 422 naming the address is shown next to the fields; English and Spanish fit a phone; desktop", () =>
      Effect.gen(function*() {
        const { open, sk } = yield* shop
        const base = yield* baseUrl
        upstream.formUrl = `${base}/shop/pix`
        const chromium = yield* browser
        const visit = (path: string, locale: string, width = 390) =>
          Effect.promise(async () => {
            const context = await chromium.newContext({ viewport: { width, height: 900 }, isMobile: width < 600, locale })
            const page = await context.newPage()
            assert.strictEqual((await page.goto(base + path))?.status(), 200)
            return page
          })

        // The page was drawn when PIX needed nothing; its provider now needs the address.
        const spanish = yield* visit(yield* open("address-2"), "es-MX")
        yield* Effect.promise(async () => {
          await spanish.locator(`input[value="${pix}"]`).check()
          assert.isFalse(await visible(spanish, "#street"))
          await spanish.fill("#documentId", "52998224725")
          upstream.pixNeeds = ["userAddress"]
          const [answer] = await Promise.all([
            spanish.waitForResponse((r) => r.url().endsWith("/select")),
            spanish.click("button[type=submit]")
          ])
          assert.strictEqual(answer.status(), 422)
          assert.deepStrictEqual((await answer.json()).error.details.missingFields, ["userAddress"])
          await spanish.locator("#street").waitFor({ state: "visible" })
          assert.strictEqual((await spanish.textContent("#error-address"))?.trim(), "El medio de pago elegido pide tu dirección.")
          assert.strictEqual((await spanish.textContent("#error-street"))?.trim(), "Ingresa la calle.")
          assert.strictEqual((await spanish.textContent("#error-district"))?.trim(), "Ingresa la colonia o el barrio.")
          assert.strictEqual(await spanish.getAttribute("#street", "aria-invalid"), "true")
          assert.strictEqual(await spanish.evaluate(() => document.activeElement?.id), "street")
          assert.strictEqual(await spanish.getByLabel("Colonia o barrio", { exact: true }).getAttribute("id"), "district")
          assert.deepStrictEqual(await overflowing(spanish), [])
          assert.deepStrictEqual(await violations(spanish), [])
          await spanish.screenshot({ path: "/tmp/checkout-address-422-es-390.png", fullPage: true })

          // Filled in, the same select goes through and the provider gets the address.
          await spanish.fill("#street", "Rua Augusta")
          await spanish.fill("#number", "S/N")
          await spanish.fill("#district", "Consolação")
          await spanish.fill("#city", "São Paulo")
          await spanish.fill("#state", "SP")
          await spanish.fill("#postalCode", "01305000")
          await Promise.all([spanish.waitForURL(/\/shop\/pix\?tx=TXN-/), spanish.click("button[type=submit]")])
          const transactionId = new URL(spanish.url()).searchParams.get("tx")
          const charge = upstream.charges.find((c) => c.transactionId === transactionId)
          assert.deepStrictEqual(clear(charge?.customer.address), {
            street: "Rua Augusta",
            number: "S/N",
            district: "Consolação",
            city: "São Paulo",
            state: "SP",
            postalCode: "01305000"
          })
          assert.isUndefined(charge?.customer.phone, "PIX needs no phone: none is asked or sent")
        })
        upstream.pixNeeds = []

        for (const [locale, legend] of [["en-US", "Your address"], ["es-MX", "Tu dirección"], ["pt-BR", "Seu endereço"]] as const) {
          const page = yield* visit(yield* open(`address-${locale}`), locale)
          yield* Effect.promise(async () => {
            await page.locator(`input[value="${boleto}"]`).check()
            assert.strictEqual(await page.textContent("fieldset[data-needed-for=userAddress] legend"), legend)
            await page.click("button[type=submit]")
            assert.deepStrictEqual(await overflowing(page), [], locale)
            assert.deepStrictEqual(await violations(page), [], locale)
            await page.screenshot({ path: `/tmp/checkout-address-${locale}-390.png`, fullPage: true })
          })
        }

        // A one-shot session for the boleto waiting for them: the page asks for them at once.
        const oneShot = yield* call("POST", "/api/v1/checkout/sessions", {
          bearer: sk,
          body: { amount: 50, paymentMethodId: boleto, userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" }
        })
        assert.strictEqual(oneShot.body.status, "awaiting_details")
        assert.deepStrictEqual(oneShot.body.missingFields, ["userPhone", "userAddress"])
        const waiting = yield* visit(new URL(oneShot.body.checkoutUrl).pathname, "pt-BR")
        yield* Effect.promise(async () => {
          assert.isTrue(await waiting.locator(`input[value="${boleto}"]`).isChecked())
          assert.isTrue(await visible(waiting, "#street"))
          assert.isTrue(await visible(waiting, "#phone"))
        })

        const desktop = yield* visit(yield* open("address-desktop"), "en-US", 1280)
        yield* Effect.promise(async () => {
          await desktop.locator(`input[value="${boleto}"]`).check()
          const street = await desktop.locator("#street").boundingBox()
          const number = await desktop.locator("#number").boundingBox()
          assert.isTrue(street !== null && number !== null && Math.abs(street.y - number.y) < 2 && number.x > street.x, "street and number share a row")
          assert.deepStrictEqual(await overflowing(desktop), [])
          assert.deepStrictEqual(await violations(desktop), [])
          await desktop.screenshot({ path: "/tmp/checkout-address-desktop.png", fullPage: true })
        })
      }))
  })
})
