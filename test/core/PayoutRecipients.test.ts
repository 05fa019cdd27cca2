import { assert, describe, it } from "@effect/vitest"
import { BigDecimal } from "effect"
import { decimal } from "../../core/Money.ts"
import type { PayoutMethodDef } from "../../core/payouts/PayoutMethod.ts"
import { findPayoutMethod, payoutMethods } from "../../core/payouts/payoutMethods.ts"
import {
  isValidCbu,
  isValidCci,
  isValidCnpj,
  isValidCpf,
  isValidRut,
  validateRecipient
} from "../../core/payouts/Recipients.ts"

const method = (id: string): PayoutMethodDef => {
  const found = findPayoutMethod(id)
  if (found === undefined) throw new Error(`no payout method ${id}`)
  return found
}

const paths = (id: string, recipient: unknown): ReadonlyArray<string> =>
  validateRecipient(method(id), recipient).issues.map((issue) => issue.path)

/** A valid recipient passes, and changing one field gives exactly one issue, at that field. */
const expectValid = (id: string, recipient: Record<string, unknown>) => {
  const result = validateRecipient(method(id), recipient)
  assert.deepStrictEqual(result.issues, [], `${id}: ${JSON.stringify(result.issues)}`)
  return result.recipient
}
const expectIssue = (id: string, valid: Record<string, unknown>, change: Record<string, unknown>, path: string) =>
  assert.deepStrictEqual(paths(id, { ...valid, ...change }), [path], `${id} with ${JSON.stringify(change)}`)

describe("payout methods", () => {
  it("lists the four sandbox rails first, sandbox only, with their real twin's fields", () => {
    const sandbox = ["sbx_po_mx_spei", "sbx_po_br_pix", "sbx_po_co_bank", "sbx_po_pe_bank"]
    assert.deepStrictEqual(payoutMethods.slice(0, 4).map((m) => m.id), sandbox)
    for (const id of sandbox) {
      const sbx = method(id)
      const twin = method(id.replace("sbx_", ""))
      assert.isTrue(sbx.sandboxOnly)
      assert.isFalse(twin.sandboxOnly)
      assert.deepStrictEqual(sbx.recipientFields, twin.recipientFields)
      assert.deepStrictEqual([sbx.country, sbx.currency, sbx.rail], [twin.country, twin.currency, twin.rail])
    }
    assert.deepStrictEqual(
      [method("sbx_po_mx_spei"), method("sbx_po_br_pix"), method("sbx_po_co_bank"), method("sbx_po_pe_bank")]
        .map((m) => `${m.country} ${m.currency} ${m.rail}`),
      ["MX MXN spei", "BR BRL pix", "CO COP bank_transfer", "PE PEN bank_transfer"]
    )
  })

  it("has unique ids, sbx_po_ exactly for sandbox rails, and USD bounds min < max", () => {
    assert.strictEqual(new Set(payoutMethods.map((m) => m.id)).size, payoutMethods.length)
    for (const m of payoutMethods) {
      assert.strictEqual(m.sandboxOnly, m.id.startsWith("sbx_po_"), m.id)
      assert.isTrue(m.sandboxOnly || m.id.startsWith("po_"), m.id)
      assert.isTrue(BigDecimal.isGreaterThan(decimal(m.minUsd), decimal("0")), m.id)
      assert.isTrue(BigDecimal.isLessThan(decimal(m.minUsd), decimal(m.maxUsd)), m.id)
    }
    assert.isUndefined(findPayoutMethod("po_nope"))
  })

  it("gives every rail name and documentId, options to every select, and unique keys", () => {
    for (const m of payoutMethods) {
      const keys = m.recipientFields.map((f) => f.key)
      assert.strictEqual(new Set(keys).size, keys.length, m.id)
      assert.includeMembers(keys, ["name", "documentId", "account", "email"], m.id)
      assert.isFalse(m.recipientFields.find((f) => f.key === "email")!.required, m.id)
      for (const field of m.recipientFields) {
        if (field.type === "select") {
          assert.isAbove(field.options?.length ?? 0, 1, `${m.id}.${field.key}`)
          const values = field.options!.map((o) => o.value)
          assert.strictEqual(new Set(values).size, values.length, `${m.id}.${field.key}`)
        } else {
          assert.isUndefined(field.options, `${m.id}.${field.key}`)
        }
      }
    }
    const bankCodes = (id: string) => method(id).recipientFields.find((f) => f.key === "bankCode")!.options!
    assert.deepInclude(bankCodes("po_co_bank"), { value: "1007", label: "Bancolombia" })
    assert.deepInclude(bankCodes("po_cl_bank"), { value: "012", label: "BancoEstado" })
    assert.deepInclude(bankCodes("po_pe_bank"), { value: "002", label: "Banco de Crédito del Perú (BCP)" })
    assert.notInclude(method("po_mx_spei").recipientFields.map((f) => f.key), "bankCode")
    assert.notInclude(method("po_ar_bank").recipientFields.map((f) => f.key), "bankCode")
  })
})

describe("check digits", () => {
  it("CPF", () => {
    assert.isTrue(isValidCpf("52998224725"))
    assert.isTrue(isValidCpf("11144477735"))
    assert.isFalse(isValidCpf("52998224724"))
    assert.isFalse(isValidCpf("529.982.247-25")) // helpers take digits; validateRecipient normalises
    assert.isFalse(isValidCpf("11111111111"))
    assert.isFalse(isValidCpf("5299822472"))
  })

  it("CNPJ", () => {
    assert.isTrue(isValidCnpj("11222333000181"))
    assert.isTrue(isValidCnpj("11444777000161"))
    assert.isFalse(isValidCnpj("11222333000182"))
    assert.isFalse(isValidCnpj("00000000000000"))
    assert.isFalse(isValidCnpj("1122233300018"))
  })

  it("CBU and CVU", () => {
    assert.isTrue(isValidCbu("2850590940090418135201"))
    assert.isTrue(isValidCbu("0000003110001234567898")) // a CVU: bank 000, same algorithm
    assert.isFalse(isValidCbu("2850590940090418135202")) // second block's check digit
    assert.isFalse(isValidCbu("2850591940090418135201")) // first block's check digit
    assert.isFalse(isValidCbu("285059094009041813520"))
  })

  it("CCI", () => {
    // Published CCIs (BBVA and Interbank accounts).
    assert.isTrue(isValidCci("01136600010003254221"))
    assert.isTrue(isValidCci("01124100019000658270"))
    assert.isTrue(isValidCci("00304101303091123415"))
    assert.isFalse(isValidCci("01136600010003254220"))
    assert.isFalse(isValidCci("01136600010003254231"))
    assert.isFalse(isValidCci("0113660001000325422"))
  })

  it("RUT", () => {
    assert.isTrue(isValidRut("123456785"))
    assert.isTrue(isValidRut("111111111"))
    assert.isFalse(isValidRut("12345678K"))
    assert.isFalse(isValidRut("12345678"))
  })
})

describe("validateRecipient, per rail", () => {
  const person = { name: "  Ana María López ", email: "ana@example.com" }

  it("MX SPEI: CLABE and an RFC or CURP matching documentType", () => {
    const valid = { ...person, documentType: "RFC", documentId: "GODE561231GR8", account: "032180000118359719" }
    assert.deepStrictEqual(expectValid("po_mx_spei", valid), {
      name: "Ana María López", email: "ana@example.com", documentType: "RFC", documentId: "GODE561231GR8",
      account: "032180000118359719"
    })
    expectValid("po_mx_spei", { ...valid, documentType: "CURP", documentId: "gode-561231-hdfrrn00" })
    expectValid("sbx_po_mx_spei", { ...valid, documentId: "ABC680524P76", account: "0321 8000 0118 3597 19" })
    expectIssue("po_mx_spei", valid, { documentType: "rfc" }, "recipient.documentType")
    expectIssue("po_mx_spei", valid, { documentType: "CURP" }, "recipient.documentId")
    expectIssue("po_mx_spei", valid, { documentId: "GODE561331GR8" }, "recipient.documentId")
    expectIssue("po_mx_spei", valid, { account: "032180000118359718" }, "recipient.account")
    expectIssue("po_mx_spei", valid, { account: "03218000011835971" }, "recipient.account")
    expectIssue("po_mx_spei", valid, { name: "12345" }, "recipient.name")
    expectIssue("po_mx_spei", valid, { email: "ana@" }, "recipient.email")
    expectValid("po_mx_spei", { ...valid, email: "" }) // optional
    const issue = validateRecipient(method("po_mx_spei"), { ...valid, account: "032180000118359718" }).issues[0]!
    assert.include(issue.message, "check digit")
  })

  it("BR PIX: CPF or CNPJ document, the key checked by its type", () => {
    const valid = { ...person, documentId: "529.982.247-25", accountType: "email", account: "ana@example.com" }
    assert.strictEqual(expectValid("po_br_pix", valid).documentId, "52998224725")
    expectValid("po_br_pix", { ...valid, documentId: "11.222.333/0001-81" })
    assert.strictEqual(expectValid("po_br_pix", { ...valid, accountType: "cpf", account: "529.982.247-25" }).account, "52998224725")
    expectValid("po_br_pix", { ...valid, accountType: "cnpj", account: "11222333000181" })
    assert.strictEqual(expectValid("po_br_pix", { ...valid, accountType: "phone", account: "+55 (11) 98765-4321" }).account, "+5511987654321")
    assert.strictEqual(
      expectValid("sbx_po_br_pix", { ...valid, accountType: "random", account: "3F2A6C1E-8B4D-4E2F-9A7B-1C2D3E4F5A6B" }).account,
      "3f2a6c1e-8b4d-4e2f-9a7b-1c2d3e4f5a6b"
    )
    expectIssue("po_br_pix", valid, { documentId: "52998224724" }, "recipient.documentId")
    expectIssue("po_br_pix", valid, { documentId: "5299822472" }, "recipient.documentId")
    expectIssue("po_br_pix", valid, { documentId: "529.982.247-2A" }, "recipient.documentId")
    expectIssue("po_br_pix", valid, { accountType: "CPF" }, "recipient.accountType")
    expectIssue("po_br_pix", valid, { accountType: "cpf", account: "52998224724" }, "recipient.account")
    expectIssue("po_br_pix", valid, { accountType: "cnpj", account: "52998224725" }, "recipient.account")
    expectIssue("po_br_pix", valid, { accountType: "phone", account: "11987654321" }, "recipient.account")
    expectIssue("po_br_pix", valid, { accountType: "random", account: "3f2a6c1e-8b4d-1e2f-9a7b-1c2d3e4f5a6b" }, "recipient.account")
    expectIssue("po_br_pix", valid, { account: "not-an-email" }, "recipient.account")
  })

  it("CO bank: ACH bank code, account type and account digits", () => {
    const valid = { ...person, documentId: "1.020.304.050", bankCode: "1007", accountType: "SAVINGS", account: "123-456789-01" }
    assert.deepInclude(expectValid("po_co_bank", valid), { documentId: "1020304050", account: "12345678901" })
    expectValid("sbx_po_co_bank", valid)
    expectIssue("po_co_bank", valid, { bankCode: "9999" }, "recipient.bankCode")
    expectValid("po_co_bank", { ...valid, bankCode: " 1007 " }) // trimmed, then exact
    expectIssue("po_co_bank", valid, { accountType: "savings" }, "recipient.accountType")
    expectIssue("po_co_bank", valid, { account: "12AB5678" }, "recipient.account")
    expectIssue("po_co_bank", valid, { account: "1".repeat(21) }, "recipient.account")
    expectIssue("po_co_bank", valid, { documentId: "CC 1020304050" }, "recipient.documentId")
  })

  it("PE bank: CCI with valid check digits, starting with the chosen bank", () => {
    const valid = { ...person, documentId: "45678912", bankCode: "011", accountType: "CHECKING", account: "011-366-000100032542-21" }
    assert.strictEqual(expectValid("po_pe_bank", valid).account, "01136600010003254221")
    expectValid("sbx_po_pe_bank", valid)
    expectIssue("po_pe_bank", valid, { bankCode: "002" }, "recipient.account")
    expectIssue("po_pe_bank", valid, { bankCode: "999" }, "recipient.bankCode")
    expectIssue("po_pe_bank", valid, { account: "01136600010003254220" }, "recipient.account")
    expectIssue("po_pe_bank", valid, { account: "0113660001000325422" }, "recipient.account")
    expectIssue("po_pe_bank", valid, { accountType: "CTS" }, "recipient.accountType")
    expectIssue("po_pe_bank", valid, { documentId: "4567891" }, "recipient.documentId")
  })

  it("CL bank: RUT with its check digit, SBIF bank code", () => {
    const valid = { ...person, documentId: "12.345.678-5", bankCode: "012", accountType: "CHECKING", account: "00012345678" }
    assert.strictEqual(expectValid("po_cl_bank", valid).documentId, "123456785")
    expectValid("po_cl_bank", { ...valid, documentId: "7.654.321-6" })
    expectIssue("po_cl_bank", valid, { documentId: "12.345.678-K" }, "recipient.documentId")
    expectIssue("po_cl_bank", valid, { bankCode: "12" }, "recipient.bankCode")
    expectIssue("po_cl_bank", valid, { account: "1234" }, "recipient.account")
  })

  it("AR bank: CBU or CVU, no bank code", () => {
    const valid = { ...person, documentId: "20-12345678-6", account: "2850590940090418135201" }
    assert.strictEqual(expectValid("po_ar_bank", valid).documentId, "20123456786")
    expectValid("po_ar_bank", { ...valid, documentId: "12345678", account: "0000003110001234567898" })
    expectIssue("po_ar_bank", valid, { account: "2850590940090418135202" }, "recipient.account")
    expectIssue("po_ar_bank", valid, { documentId: "1234567890" }, "recipient.documentId")
  })

  it("wallets: phone of the country, or email for the email type", () => {
    const valid = { ...person, documentId: "1020304050", account: "300 123 4567" }
    assert.strictEqual(expectValid("po_co_wallet_nequi", valid).account, "3001234567")
    assert.strictEqual(expectValid("po_co_wallet_nequi", { ...valid, account: "+57 300 123 4567" }).account, "3001234567")
    expectIssue("po_co_wallet_nequi", valid, { account: "300123456" }, "recipient.account")
    expectIssue("po_co_wallet_nequi", valid, { account: "6011234567" }, "recipient.account")

    const yape = { ...person, documentId: "45678912", account: "987 654 321" }
    assert.strictEqual(expectValid("po_pe_wallet_yape", yape).account, "987654321")
    expectIssue("po_pe_wallet_yape", yape, { account: "98765432" }, "recipient.account")

    const astropay = { ...valid, accountType: "email", account: "ana@example.com" }
    expectValid("po_co_wallet_astropay", astropay)
    expectValid("po_co_wallet_astropay", { ...astropay, accountType: "phone", account: "3001234567" })
    expectIssue("po_co_wallet_astropay", astropay, { account: "3001234567" }, "recipient.account")
    expectIssue("po_co_wallet_astropay", astropay, { accountType: "Email" }, "recipient.accountType")
  })
})

describe("validateRecipient, malformed input", () => {
  it("reports every problem at once, at each field", () => {
    assert.deepStrictEqual(
      paths("po_pe_bank", { name: "", documentId: "ABC", bankCode: "BCP", accountType: 1, account: "123" }),
      ["recipient.name", "recipient.documentId", "recipient.bankCode", "recipient.accountType", "recipient.account"]
    )
    const issues = validateRecipient(method("po_co_bank"), {}).issues
    assert.deepStrictEqual(issues.map((i) => i.path), [
      "recipient.name", "recipient.documentId", "recipient.bankCode", "recipient.accountType", "recipient.account"
    ])
    assert.include(issues[0]!.message, "is required")
  })

  it("gives issues and never throws on null, numbers, arrays, wrong types, huge strings", () => {
    const spei = method("po_mx_spei")
    const required = ["recipient.name", "recipient.documentType", "recipient.documentId", "recipient.account"]
    assert.deepStrictEqual(paths("po_mx_spei", null), required)
    assert.deepStrictEqual(paths("po_mx_spei", undefined), required)
    assert.deepStrictEqual(paths("po_mx_spei", 42), ["recipient", ...required])
    assert.deepStrictEqual(paths("po_mx_spei", []), ["recipient", ...required])
    assert.deepStrictEqual(paths("po_mx_spei", "ana"), ["recipient", ...required])
    assert.include(validateRecipient(spei, []).issues[0]!.message, "got array")
    const numeric = validateRecipient(spei, { account: 5 }).issues
    assert.deepInclude(numeric, { path: "recipient.account", message: "must be a string, got number" })
    const huge = validateRecipient(spei, { name: "a".repeat(1_000_000), account: "1".repeat(1_000_000) }).issues
    assert.include(huge.find((i) => i.path === "recipient.name")!.message, "at most 256")
    assert.include(huge.find((i) => i.path === "recipient.account")!.message, "at most 256")
    const inherited = Object.create({ name: "Ana" }) as object
    assert.include(paths("po_mx_spei", inherited), "recipient.name")

    const weird: ReadonlyArray<unknown> = [
      null, undefined, 0, 42, NaN, true, "", "x", [], [1, 2], {}, { name: null }, { name: {} }, { name: [] },
      { account: 5 }, { account: "\u0000".repeat(300) }, { documentId: "😀".repeat(50) }, { accountType: "__proto__" },
      { bankCode: "constructor" }, { __proto__: { account: "x" } }, { email: "@".repeat(250) },
      { name: " ".repeat(100_000) + "a" }, Object.create(null)
    ]
    for (const m of payoutMethods) {
      weird.forEach((input, index) => {
        const result = validateRecipient(m, input)
        assert.isAbove(result.issues.length, 0, `${m.id}, input ${index}`)
      })
    }
  })

  it("ignores keys that are not fields of the method", () => {
    const result = validateRecipient(method("po_ar_bank"), {
      name: "Ana", documentId: "12345678", account: "2850590940090418135201", bankCode: "285", extra: { deep: 1 }
    })
    assert.deepStrictEqual(result.issues, [])
    assert.deepStrictEqual(Object.keys(result.recipient).sort(), ["account", "documentId", "name"])
  })
})
