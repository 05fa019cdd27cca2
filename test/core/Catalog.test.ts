/**
 * The shipped catalog data: permanent ids, the sandbox test methods, coverage per country, and
 * figures that the money code can read (known currencies, limits within the exponent, decimals).
 */
import { assert, describe, it } from "@effect/vitest"
import { BigDecimal } from "effect"
import { iconPath, iconSvg, initials } from "../../adapters/http/server/pages/Icons.ts"
import {
  catalogCountries,
  findMethod,
  methodsForCountry,
  paymentMethods,
  realMethods,
  retiredIds,
  sandboxMethods
} from "../../core/catalog/methods.ts"
import type { PaymentMethodDef } from "../../core/catalog/PaymentMethod.ts"
import * as Money from "../../core/Money.ts"

const countries = ["BR", "MX", "CO", "PE", "CL", "AR"] as const
const slugs = [
  "pix", "boleto", "spei", "codi", "oxxo", "cash", "pse", "pagoefectivo", "webpay", "khipu", "debin",
  "bank_transfer", "online_debit", "wallet", "card"
]
const decimalText = /^\d+(\.\d+)?$/
const sandboxIds = ["sbx_pix", "sbx_spei", "sbx_card", "sbx_pse", "sbx_cash"]

const real = (iso2: string) => methodsForCountry(iso2).filter((m) => !m.sandboxOnly)

describe("catalog ids", () => {
  it("are unique", () => {
    const ids = paymentMethods.map((m) => m.id)
    assert.strictEqual(new Set(ids).size, ids.length)
  })

  it("are 4 digits from 1001 for real rails, assigned in list order", () => {
    let previous = 1000
    for (const m of realMethods) {
      assert.match(m.id, /^\d{4}$/, m.id)
      const n = Number(m.id)
      assert.isAbove(n, previous, `${m.id} follows ${previous}: append new rails at the end with the next id`)
      previous = n
    }
    assert.strictEqual(realMethods[0]?.id, "1001")
  })

  it("never carry a retired id", () => {
    for (const id of retiredIds) assert.isUndefined(findMethod(id), id)
    for (const m of paymentMethods) assert.notInclude(retiredIds, m.id)
  })

  it("include the five sandbox test methods, and only those are sandbox-only", () => {
    for (const id of sandboxIds) {
      const m = findMethod(id)
      assert.isDefined(m, id)
      assert.isTrue(m!.sandboxOnly, id)
    }
    assert.sameMembers(sandboxMethods.map((m) => m.id), sandboxIds)
    assert.sameMembers(paymentMethods.filter((m) => m.sandboxOnly).map((m) => m.id), sandboxIds)
    assert.isTrue(realMethods.every((m) => !m.sandboxOnly))
  })

  it("sandbox methods are the rails the spec names", () => {
    const expect = (id: string, country: string, method: string, currency: string, channel: string) => {
      const m = findMethod(id)!
      assert.deepStrictEqual([m.country, m.method, m.currencies[0], m.channel], [country, method, currency, channel], id)
    }
    expect("sbx_pix", "BR", "pix", "BRL", "ONLINE")
    expect("sbx_spei", "MX", "spei", "MXN", "ONLINE")
    expect("sbx_card", "BR", "card", "BRL", "CREDIT_CARD")
    expect("sbx_pse", "CO", "pse", "COP", "ONLINE")
    expect("sbx_cash", "MX", "cash", "MXN", "CASH")
  })
})

describe("catalog coverage", () => {
  it("covers only the six countries, each paying first in its local currency", () => {
    for (const m of paymentMethods) {
      assert.include(countries, m.country, m.id)
      assert.strictEqual(m.currencies[0], catalogCountries[m.country as keyof typeof catalogCountries], m.id)
    }
  })

  it("ships about 30 Brazilian rails", () => {
    const n = real("BR").length
    assert.isAtLeast(n, 25)
    assert.isAtMost(n, 35)
  })

  it("has an ONLINE, a CASH and a CREDIT_CARD rail in every country", () => {
    // Cash vouchers exist in all six markets (boleto/lotérica, OXXO and stores, Efecty,
    // PagoEfectivo, Servipag, Rapipago/Pago Fácil), so no country is exempt.
    for (const country of countries) {
      const channels = new Set(real(country).map((m) => m.channel))
      for (const channel of ["ONLINE", "CASH", "CREDIT_CARD"]) assert.isTrue(channels.has(channel as never), `${country} ${channel}`)
    }
  })

  it("uses the documented slugs, cards exactly on the card channel", () => {
    for (const m of paymentMethods) {
      assert.include(slugs, m.method, m.id)
      assert.strictEqual(m.method === "card", m.channel === "CREDIT_CARD", m.id)
      assert.isAbove(m.methodLabel.length, 0)
      assert.isAbove(m.name.length, 0)
    }
    assert.strictEqual(paymentMethods.filter((m) => m.method === "oxxo").every((m) => m.name === "OXXO"), true)
  })

  it("finds by id and by country in any case", () => {
    assert.strictEqual(findMethod("1001")?.method, "pix")
    assert.isUndefined(findMethod("0999"))
    assert.deepStrictEqual(methodsForCountry("mx"), methodsForCountry("MX"))
    assert.isTrue(methodsForCountry("MX").every((m) => m.country === "MX"))
    assert.strictEqual(methodsForCountry("US").length, 0)
  })
})

describe("catalog figures", () => {
  const check = (m: PaymentMethodDef) => {
    assert.deepStrictEqual(m.currencyLimits.map((l) => l.currency), [...m.currencies], `${m.id} has one limit per currency`)
    for (const limit of m.currencyLimits) {
      assert.property(Money.currencyExponents, limit.currency, `${m.id} ${limit.currency}`)
      assert.match(limit.min, decimalText, `${m.id} min`)
      assert.match(limit.max, decimalText, `${m.id} max`)
      const min = Money.decimal(limit.min)
      const max = Money.decimal(limit.max)
      assert.isTrue(Money.fitsExponent(min, limit.currency), `${m.id} min ${limit.min} ${limit.currency}`)
      assert.isTrue(Money.fitsExponent(max, limit.currency), `${m.id} max ${limit.max} ${limit.currency}`)
      assert.isTrue(BigDecimal.isGreaterThan(min, Money.zero), `${m.id} min > 0`)
      assert.isTrue(BigDecimal.isLessThan(min, max), `${m.id} min < max`)
    }
    for (const bound of [m.minTxUsd, m.maxTxUsd]) if (bound !== null) assert.match(bound, decimalText, `${m.id} USD bound`)
    if (m.minTxUsd !== null && m.maxTxUsd !== null) {
      assert.isTrue(BigDecimal.isLessThan(Money.decimal(m.minTxUsd), Money.decimal(m.maxTxUsd)), m.id)
    }
    assert.match(m.fee.percent, decimalText, `${m.id} fee percent`)
    assert.match(m.fee.flat, decimalText, `${m.id} fee flat`)
    assert.isTrue(BigDecimal.isLessThan(Money.decimal(m.fee.percent), Money.decimal("10")), `${m.id} fee percent is a percent`)
    assert.isTrue(Money.fitsExponent(Money.decimal(m.fee.flat), "USD"), `${m.id} fee flat`)
    assert.strictEqual(m.fee.currency, "USD")
    assert.isTrue(Number.isInteger(m.expiresInMinutes) && m.expiresInMinutes > 0, `${m.id} expiry`)
    assert.isTrue(Number.isInteger(m.settlementDays) && m.settlementDays >= 0, `${m.id} settlement`)
    assert.strictEqual(new Set(m.requires).size, m.requires.length, `${m.id} requires`)
    assert.isTrue(m.enabled && m.online, m.id)
  }

  it("are known currencies, limits within the exponent with min < max, decimal fees", () => {
    for (const m of paymentMethods) check(m)
  })

  it("keep CLP limits whole", () => {
    const clp = paymentMethods.flatMap((m) => m.currencyLimits).filter((l) => l.currency === "CLP")
    assert.isAbove(clp.length, 0)
    for (const l of clp) assert.notInclude(l.min + l.max, ".")
  })

  it("ask for the buyer data the rails need upstream", () => {
    for (const m of paymentMethods) {
      if (m.channel === "CREDIT_CARD") assert.includeMembers([...m.requires], ["userName", "userEmail"], m.id)
      if (m.country === "BR") assert.include(m.requires, "documentId", `${m.id}: a CPF on every Brazilian rail`)
      if (m.country === "MX" && m.channel === "CASH") assert.include(m.requires, "documentId", `${m.id}: spec 4.5`)
    }
  })

  it("give PIX 30 minutes and boleto 3 days", () => {
    assert.strictEqual(findMethod("1001")?.expiresInMinutes, 30)
    assert.strictEqual(paymentMethods.find((m) => m.method === "boleto")?.expiresInMinutes, 4320)
  })
})

describe("rail icons", () => {
  it("are a self-contained SVG with a title", () => {
    for (const m of paymentMethods) {
      const svg = iconSvg(m)
      assert.isTrue(svg.startsWith("<svg"), m.id)
      assert.isTrue(svg.endsWith("</svg>"), m.id)
      assert.include(svg, "<title")
      assert.strictEqual(svg, iconSvg(m), "deterministic")
    }
    assert.include(iconSvg(findMethod("1033")!), "<title id=\"t\">OXXO · Cash voucher · MX</title>")
  })

  it("escape the name and show two or three initials", () => {
    const odd = { ...findMethod("1001")!, name: "A&B <Pay>" }
    const svg = iconSvg(odd)
    assert.include(svg, "A&amp;B &lt;Pay&gt;")
    assert.notInclude(svg, "<Pay>")
    assert.strictEqual(initials("Banco do Brasil"), "BB")
    assert.strictEqual(initials("Farmacias del Ahorro"), "FA")
    assert.strictEqual(initials("PIX"), "PIX")
    assert.strictEqual(initials("Visa"), "VI")
    assert.strictEqual(initials("PicPay"), "PP")
    assert.strictEqual(initials("OXXO"), "OX")
    assert.strictEqual(initials("PIX (sandbox)"), "PIX")
    for (const m of paymentMethods) {
      const n = Array.from(initials(m.name)).length
      assert.isTrue(n >= 2 && n <= 3, `${m.name}: ${initials(m.name)}`)
    }
  })

  it("live under /icons/payment-methods", () => {
    assert.strictEqual(iconPath("1001"), "/icons/payment-methods/1001.svg")
    assert.strictEqual(iconPath("sbx_pix"), "/icons/payment-methods/sbx_pix.svg")
  })
})
