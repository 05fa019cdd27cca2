/**
 * Document numbers per country and type (`core/DocumentNumbers.ts`): published valid numbers (the
 * issuers' own where they publish one) pass, a changed character fails, generated bodies with computed
 * check digits pass and every change of a check digit fails; and a payment whose buyer
 * document is invalid is refused before any provider is asked or anything is written.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Redacted } from "effect"
import * as Money from "../../core/Money.ts"
import { checkDocument, isValidCnpj, isValidCpf, isValidCuit, isValidCurp, isValidNit, isValidRfc, isValidRut } from "../../core/DocumentNumbers.ts"
import type { ChargeRequest } from "../../core/ports/PaymentProvider.ts"
import { Payments } from "../../core/payments/Payments.ts"
import { EngineTest, newScope, routeShopTo, stubProvider } from "../support/Engine.ts"
import { prng } from "../support/Random.ts"

/** Every number made from `valid` by changing one character of `positions` to another of `alphabet`. */
const oneOff = (valid: string, alphabet: string, positions: ReadonlyArray<number>) =>
  positions.flatMap((i) => [...alphabet].filter((c) => c !== valid[i]).map((c) => valid.slice(0, i) + c + valid.slice(i + 1)))
const range = (n: number) => Array.from({ length: n }, (_, i) => i)
/** The number `body` + the check characters that make `valid` accept it. */
const completed = (body: string, suffixes: ReadonlyArray<string>, valid: (s: string) => boolean) => suffixes.map((s) => body + s).find(valid)
const twoDigits = range(100).map((n) => String(n).padStart(2, "0"))

describe("document numbers", () => {
  it("CPF and CNPJ, numeric and alphanumeric (Receita Federal, July 2026)", () => {
    for (const cpf of ["52998224725", "11144477735", "12345678909"]) assert.isTrue(isValidCpf(cpf), cpf)
    for (const cnpj of ["11222333000181", "11444777000161", "12ABC34501DE35"]) assert.isTrue(isValidCnpj(cnpj), cnpj)
    for (const bad of ["52998224724", "11111111111", "123", "5299822472"]) assert.isFalse(isValidCpf(bad), bad)
    for (const bad of ["11222333000182", "12ABC34501DE36", "12ABC34501DE3A", "00000000000000", "12abc34501de35"]) assert.isFalse(isValidCnpj(bad), bad)
    assert.isFalse(isValidCnpj("12ABC34501DF35"), "a letter changed")
  })

  it("property: generated bodies with their check digits pass, and no change of a check digit does", () => {
    const random = prng(44)
    const pick = (alphabet: string, n: number) => range(n).map(() => alphabet[Math.floor(random() * alphabet.length)]).join("")
    const digits = "0123456789"
    const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for (let run = 0; run < 40; run++) {
      const cpf = completed(pick(digits, 9), twoDigits, isValidCpf)
      if (cpf !== undefined) for (const changed of oneOff(cpf, digits, [9, 10])) assert.isFalse(isValidCpf(changed), `${cpf} -> ${changed}`)
      const cnpj = completed(pick(alnum, 12), twoDigits, isValidCnpj)!
      assert.isDefined(cnpj)
      assert.deepStrictEqual(checkDocument("BR", `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`), { value: cnpj })
      for (const changed of oneOff(cnpj, digits, [12, 13])) assert.isFalse(isValidCnpj(changed), `${cnpj} -> ${changed}`)
      const rut = completed(pick(digits, 8), [...digits, "K"], isValidRut)!
      for (const changed of oneOff(rut, `${digits}K`, [8])) assert.isFalse(isValidRut(changed), `${rut} -> ${changed}`)
      const nit = completed(pick(digits, 9), [...digits], isValidNit)!
      for (const changed of oneOff(nit, digits, [9])) assert.isFalse(isValidNit(changed), `${nit} -> ${changed}`)
    }
  })

  it("RUT, CURP, RFC, NIT, CUIT: issuers' examples", () => {
    assert.isTrue(isValidRut("123456785"))
    assert.isTrue(isValidRut("111111111"))
    assert.isFalse(isValidRut("12345678K"))
    assert.isTrue(isValidCurp("BOXW310820HNERXN09"))
    assert.isFalse(isValidCurp("BOXW310820HNERXN08"), "check digit")
    assert.isFalse(isValidCurp("BOXW311320HNERXN09"), "month 13")
    assert.isTrue(isValidRfc("GODE561231GR8"))
    assert.isTrue(isValidRfc("ABC680524P76"))
    assert.isFalse(isValidRfc("GODE561331GR8"), "month 13")
    assert.isTrue(isValidNit("8001972684"), "DIAN's own NIT, 800.197.268-4")
    assert.isTrue(isValidNit("8909039388"))
    assert.isFalse(isValidNit("8001972685"))
    assert.isTrue(isValidCuit("33693450239"), "AFIP's CUIT, 33-69345023-9")
    assert.isFalse(isValidCuit("33693450238"))
  })

  it("by country: what a buyer types, normalised, or what is wrong, never the number itself", () => {
    const cases: ReadonlyArray<readonly [string, string, string | null]> = [
      ["BR", "529.982.247-25", "52998224725"],
      ["BR", "12.ABC.345/01DE-35", "12ABC34501DE35"],
      ["BR", "123", null],
      ["BR", "529.982.247-24", null],
      ["MX", "boxw310820hnerxn09", "BOXW310820HNERXN09"],
      ["MX", "BOXW310820HNERXN08", null],
      ["MX", "GODE561231GR8", "GODE561231GR8"],
      ["MX", "12345", null],
      ["CL", "12.345.678-5", "123456785"],
      ["CL", "12.345.678-K", null],
      ["CO", "1.020.304.050", "1020304050"],
      ["CO", "800.197.268-4", "8001972684"],
      ["CO", "800.197.268-5", null],
      ["CO", "12", null],
      ["AR", "45678912", "45678912"],
      ["AR", "33-69345023-9", "33693450239"],
      ["AR", "33-69345023-8", null],
      ["AR", "1234567890", null],
      ["PE", "45678912", "45678912"],
      ["PE", "1234", null],
      ["US", "anything", "anything"]
    ]
    for (const [country, typed, normal] of cases) {
      const result = checkDocument(country, typed)
      if (normal === null) {
        assert.isTrue("problem" in result, `${country} ${typed}`)
        if ("problem" in result && typed.length > 4) assert.notInclude(result.problem, typed)
      } else assert.deepStrictEqual(result, { value: normal }, `${country} ${typed}`)
    }
  })

  it.effect("a payment with an invalid document is refused before any provider is asked or anything is written", () =>
    Effect.gen(function*() {
      const calls: Array<ChargeRequest> = []
      const provider = stubProvider(`recording_${Math.random()}`, {
        charge: (request) => Effect.sync(() => {
          calls.push(request)
          return { providerRef: `p_${request.transactionId}`, status: "pending" as const, paymentFormUrl: "https://pay.example/x", paymentData: {} }
        })
      })
      const scope = yield* newScope()
      yield* routeShopTo(scope, [provider], { sandboxLast: false })
      const payments = yield* Payments
      const exit = yield* Effect.exit(payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", userName: Redacted.make("Ana Souza"), documentId: Redacted.make("123") }))
      const error = Exit.isFailure(exit) ? exit.cause.reasons.find(Cause.isFailReason)?.error as { code?: string; details?: any } : undefined
      assert.strictEqual(error?.code, "invalid_request")
      assert.deepStrictEqual(error?.details?.issues.map((i: { path: string }) => i.path), ["documentId"])
      assert.strictEqual(calls.length, 0)
      assert.strictEqual((yield* payments.list(scope, {}, { limit: 10, offset: 0 })).total, 0)
      yield* payments.create(scope, { amount: Money.decimal("20"), paymentMethodId: "sbx_pix", userName: Redacted.make("Ana Souza"), documentId: Redacted.make("529.982.247-25") })
      assert.strictEqual(calls.length, 1)
    }).pipe(Effect.provide(EngineTest)))
})
