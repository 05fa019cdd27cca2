/**
 * The shipped payment-method catalog: the real Latin-American rails, as data.
 *
 * SERVICE IDS ARE PERMANENT
 * -------------------------
 * A real rail has a 4-digit service id, assigned in order from "1001". Merchants store these ids
 * (the spec tells them to take ids from the listing), payments record them, and provider routes
 * name them, so an id means one rail forever:
 *   - add a rail at the END of the real list with the next unused id (the ids of the list are
 *     strictly increasing; the catalog test checks it);
 *   - never renumber, never reuse. A rail that goes away is removed from the list and its id is
 *     added to `retiredIds`, which the test checks no entry carries;
 *   - a provider change behind a rail changes nothing here: the id stays.
 * The sandbox test methods use the fixed ids `sbx_pix`, `sbx_spei`, `sbx_card`, `sbx_pse` and
 * `sbx_cash` and are listed in sandbox only.
 *
 * METHOD SLUGS (`method`, the legacy routing key, lowercase)
 *   pix            Brazil's instant payment (Banco Central do Brasil), QR / copy-paste code
 *   boleto         Brazilian boleto bancário, paid at banks, lotéricas or in internet banking
 *   spei           Mexico's interbank transfer (Banxico), paid to a CLABE reference
 *   codi           Mexico's QR / push request on top of SPEI (Banxico), 8,000 MXN cap
 *   oxxo           OXXO stores only (the largest cash network in Mexico gets its own slug)
 *   cash           every other cash-voucher network (7-Eleven, Efecty, Rapipago, Servipag, ...)
 *   pse            Colombia's PSE (ACH Colombia) online debit
 *   pagoefectivo   Peru's PagoEfectivo CIP code, paid in cash at agents or in banking apps
 *   webpay         Chile's Transbank Webpay Plus (Redcompra debit, credit and prepaid cards)
 *   khipu          Chile's Khipu bank-transfer initiation
 *   debin          Argentina's DEBIN (débito inmediato) pull from a CBU/CVU
 *   bank_transfer  a transfer from a named bank (or the national CBU/CVU scheme in Argentina)
 *   online_debit   a bank's own online-debit redirect (Brazil's débito online)
 *   wallet         a digital wallet (PicPay, Mercado Pago, Nequi, Yape, MACH, MODO, ...)
 *   card           a card brand; channel CREDIT_CARD
 *
 * Channels: ONLINE (the buyer pays from a bank or wallet), CASH (a voucher paid over a counter;
 * boleto counts here, as it is paid at banks and lotéricas with a barcode), CREDIT_CARD (cards).
 *
 * Figures: limits are in major units of the local currency (CLP has no decimals), fees are the
 * provider cost of the rail (percent of the USD amount plus a flat USD amount), USD bounds are
 * set only where the rail has its own (cards, cash vouchers). They are realistic defaults of a
 * cross-border processor; an operator tunes pricing per shop elsewhere.
 *
 * Required fields: every Brazilian rail needs the buyer's CPF (`documentId`), which Brazilian
 * cross-border (eFX) processing reports for every payment; PIX and boleto name the payer too.
 * Mexican cash needs `documentId` (spec 4.5). Colombian PSE, cash and Argentinian rails need the
 * national id (cédula / DNI-CUIT). Push rails (CoDi, Nequi, Daviplata, Yape, Plin) need the
 * phone number the request is sent to. Cards need the cardholder name and an email.
 */
import type { PaymentMethodDef } from "./PaymentMethod.ts"
import { bankTransfer, buyer, buyerWithId, card, cash, def, type Limit, minutes, type Rail, wallet } from "./RailKinds.ts"

export { type CatalogCountry, catalogCountries } from "./RailKinds.ts"

/** Ids of rails that were removed. They stay here forever so that no new rail takes them. */
export const retiredIds: ReadonlyArray<string> = []

// --- Brazil (BRL) ----------------------------------------------------------------------------

const BR = {
  pix: {
    method: "pix", methodLabel: "PIX", channel: "ONLINE", requires: ["userName", "documentId"],
    expiresInMinutes: 30, settlementDays: 1, fee: ["0.9", "0"]
  },
  boleto: {
    method: "boleto", methodLabel: "Boleto", channel: "CASH", requires: ["userName", "userEmail", "documentId"],
    expiresInMinutes: minutes.threeDays, settlementDays: 2, fee: ["0", "0.6"], usd: ["1", null]
  },
  loterica: cash(["userName", "documentId"], ["2", "0.5"], minutes.threeDays),
  card: card(buyerWithId, ["3.9", "0.3"]),
  bank: bankTransfer(buyerWithId, ["1.2", "0.2"], 2),
  debit: {
    method: "online_debit", methodLabel: "Online debit", channel: "ONLINE", requires: buyerWithId,
    expiresInMinutes: minutes.hour, settlementDays: 1, fee: ["1.5", "0.2"]
  },
  wallet: wallet(["userEmail", "documentId"], ["2.9", "0"])
} satisfies Record<string, Rail>

const brl = (min: string, max: string): ReadonlyArray<Limit> => [["BRL", min, max]]

const brazil: ReadonlyArray<PaymentMethodDef> = [
  def("1001", "BR", "PIX", BR.pix, brl("1", "50000")),
  def("1002", "BR", "Boleto bancário", BR.boleto, brl("5", "50000")),
  def("1003", "BR", "Lotérica (Caixa)", BR.loterica, brl("5", "3000")),
  def("1004", "BR", "Visa", BR.card, brl("1", "30000")),
  def("1005", "BR", "Mastercard", BR.card, brl("1", "30000")),
  def("1006", "BR", "Elo", BR.card, brl("1", "30000")),
  def("1007", "BR", "Hipercard", BR.card, brl("1", "30000")),
  def("1008", "BR", "American Express", BR.card, brl("1", "30000"), { fee: ["4.5", "0.3"] }),
  def("1009", "BR", "Diners Club", BR.card, brl("1", "30000"), { fee: ["4.5", "0.3"] }),
  def("1010", "BR", "Itaú", BR.bank, brl("10", "100000")),
  def("1011", "BR", "Bradesco", BR.bank, brl("10", "100000")),
  def("1012", "BR", "Banco do Brasil", BR.bank, brl("10", "100000")),
  def("1013", "BR", "Caixa", BR.bank, brl("10", "100000")),
  def("1014", "BR", "Santander", BR.bank, brl("10", "100000")),
  def("1015", "BR", "Nubank", BR.bank, brl("10", "100000")),
  def("1016", "BR", "Banco Inter", BR.bank, brl("10", "100000")),
  def("1017", "BR", "C6 Bank", BR.bank, brl("10", "100000")),
  def("1018", "BR", "BTG Pactual", BR.bank, brl("10", "100000")),
  def("1019", "BR", "Sicredi", BR.bank, brl("10", "100000")),
  def("1020", "BR", "Sicoob", BR.bank, brl("10", "100000")),
  def("1021", "BR", "Banco Safra", BR.bank, brl("10", "100000")),
  def("1022", "BR", "Itaú", BR.debit, brl("5", "10000")),
  def("1023", "BR", "Bradesco", BR.debit, brl("5", "10000")),
  def("1024", "BR", "Banco do Brasil", BR.debit, brl("5", "10000")),
  def("1025", "BR", "Banrisul", BR.debit, brl("5", "10000")),
  def("1026", "BR", "PicPay", BR.wallet, brl("1", "5000")),
  def("1027", "BR", "Mercado Pago", BR.wallet, brl("1", "10000")),
  def("1028", "BR", "PagBank", BR.wallet, brl("1", "10000")),
  def("1029", "BR", "NuPay", BR.wallet, brl("1", "10000")),
  def("1030", "BR", "Ame Digital", BR.wallet, brl("1", "5000"))
]

// --- Mexico (MXN) ----------------------------------------------------------------------------

const MX = {
  spei: {
    method: "spei", methodLabel: "SPEI", channel: "ONLINE", requires: buyer,
    expiresInMinutes: minutes.day, settlementDays: 1, fee: ["0.8", "0.2"]
  },
  codi: {
    method: "codi", methodLabel: "CoDi", channel: "ONLINE", requires: ["userName", "userPhone"],
    expiresInMinutes: 30, settlementDays: 1, fee: ["0.8", "0"]
  },
  oxxo: cash(buyerWithId, ["3.5", "0.25"], minutes.threeDays, "oxxo"),
  cash: cash(buyerWithId, ["3.5", "0.25"], minutes.threeDays),
  card: card(buyer, ["3.6", "0.25"]),
  wallet: wallet(["userEmail"], ["3.5", "0"])
} satisfies Record<string, Rail>

const mxn = (min: string, max: string): ReadonlyArray<Limit> => [["MXN", min, max]]

const mexico: ReadonlyArray<PaymentMethodDef> = [
  def("1031", "MX", "SPEI", MX.spei, mxn("10", "500000")),
  def("1032", "MX", "CoDi", MX.codi, mxn("1", "8000")),
  def("1033", "MX", "OXXO", MX.oxxo, mxn("10", "10000")),
  def("1034", "MX", "7-Eleven", MX.cash, mxn("10", "10000")),
  def("1035", "MX", "Walmart", MX.cash, mxn("10", "10000")),
  def("1036", "MX", "Bodega Aurrera", MX.cash, mxn("10", "10000")),
  def("1037", "MX", "Farmacias del Ahorro", MX.cash, mxn("10", "10000")),
  def("1038", "MX", "Farmacias Guadalajara", MX.cash, mxn("10", "10000")),
  def("1039", "MX", "Soriana", MX.cash, mxn("10", "10000")),
  def("1040", "MX", "Circle K", MX.cash, mxn("10", "10000")),
  def("1041", "MX", "Chedraui", MX.cash, mxn("10", "10000")),
  def("1042", "MX", "Visa", MX.card, mxn("10", "200000")),
  def("1043", "MX", "Mastercard", MX.card, mxn("10", "200000")),
  def("1044", "MX", "American Express", MX.card, mxn("10", "200000"), { fee: ["4.5", "0.25"] }),
  def("1045", "MX", "Carnet", MX.card, mxn("10", "200000")),
  def("1046", "MX", "Mercado Pago", MX.wallet, mxn("10", "50000"))
]

// --- Colombia (COP) --------------------------------------------------------------------------

const CO = {
  pse: {
    method: "pse", methodLabel: "Online debit", channel: "ONLINE", requires: buyerWithId,
    expiresInMinutes: minutes.hour, settlementDays: 1, fee: ["1.5", "0.2"]
  },
  bank: bankTransfer(buyerWithId, ["1.2", "0.15"], 1),
  wallet: wallet(["userPhone"], ["1.8", "0"], 1),
  cash: cash(["userName", "documentId"], ["2.5", "0.3"], minutes.twoDays),
  card: card(buyerWithId, ["3.5", "0.25"])
} satisfies Record<string, Rail>

const cop = (min: string, max: string): ReadonlyArray<Limit> => [["COP", min, max]]

const colombia: ReadonlyArray<PaymentMethodDef> = [
  def("1047", "CO", "PSE", CO.pse, cop("1000", "20000000")),
  def("1048", "CO", "Bancolombia", CO.bank, cop("1000", "10000000")),
  def("1049", "CO", "Nequi", CO.wallet, cop("1000", "3000000")),
  def("1050", "CO", "Daviplata", CO.wallet, cop("1000", "3000000"), { requires: ["userPhone", "documentId"] }),
  def("1051", "CO", "Efecty", CO.cash, cop("5000", "3000000")),
  def("1052", "CO", "Baloto", CO.cash, cop("5000", "3000000")),
  def("1053", "CO", "SuRed", CO.cash, cop("5000", "3000000")),
  def("1054", "CO", "Gana", CO.cash, cop("5000", "3000000")),
  def("1055", "CO", "Apostar", CO.cash, cop("5000", "3000000")),
  def("1056", "CO", "Supergiros", CO.cash, cop("5000", "3000000")),
  def("1057", "CO", "Visa", CO.card, cop("5000", "20000000")),
  def("1058", "CO", "Mastercard", CO.card, cop("5000", "20000000")),
  def("1059", "CO", "American Express", CO.card, cop("5000", "20000000"), { fee: ["4.2", "0.25"] }),
  def("1060", "CO", "Diners Club", CO.card, cop("5000", "20000000"), { fee: ["4.2", "0.25"] })
]

// --- Peru (PEN; PagoEfectivo and bank transfers also take USD, as Peruvian accounts do) -----

const PE = {
  pagoefectivo: cash(buyer, ["2.5", "0.25"], minutes.twoDays, "pagoefectivo"),
  bank: bankTransfer(buyer, ["1.5", "0.2"], 2),
  cash: cash(buyer, ["2.5", "0.25"], minutes.twoDays),
  wallet: wallet(["userPhone"], ["2", "0"], 1),
  card: card(buyer, ["3.5", "0.25"])
} satisfies Record<string, Rail>

const pen = (min: string, max: string): ReadonlyArray<Limit> => [["PEN", min, max]]
const penUsd = (min: string, max: string, usdMax: string): ReadonlyArray<Limit> => [["PEN", min, max], ["USD", "1", usdMax]]

const peru: ReadonlyArray<PaymentMethodDef> = [
  def("1061", "PE", "PagoEfectivo", PE.pagoefectivo, penUsd("1", "20000", "5000")),
  def("1062", "PE", "BCP", PE.bank, penUsd("1", "50000", "15000")),
  def("1063", "PE", "Interbank", PE.bank, penUsd("1", "50000", "15000")),
  def("1064", "PE", "BBVA", PE.bank, penUsd("1", "50000", "15000")),
  def("1065", "PE", "Scotiabank", PE.bank, penUsd("1", "50000", "15000")),
  def("1066", "PE", "Agente BCP", PE.cash, pen("1", "3000")),
  def("1067", "PE", "Kasnet", PE.cash, pen("1", "3000")),
  def("1068", "PE", "Tambo+", PE.cash, pen("1", "3000")),
  def("1069", "PE", "Yape", PE.wallet, pen("1", "2000")),
  def("1070", "PE", "Plin", PE.wallet, pen("1", "500")),
  def("1071", "PE", "Visa", PE.card, pen("1", "30000")),
  def("1072", "PE", "Mastercard", PE.card, pen("1", "30000")),
  def("1073", "PE", "American Express", PE.card, pen("1", "30000"), { fee: ["4.2", "0.25"] }),
  def("1074", "PE", "Diners Club", PE.card, pen("1", "30000"), { fee: ["4.2", "0.25"] })
]

// --- Chile (CLP, no decimals) ----------------------------------------------------------------

const CL = {
  webpay: {
    method: "webpay", methodLabel: "Webpay", channel: "ONLINE", requires: ["userEmail"],
    expiresInMinutes: 30, settlementDays: 2, fee: ["2.5", "0.1"]
  },
  khipu: {
    method: "khipu", methodLabel: "Bank transfer", channel: "ONLINE", requires: buyer,
    expiresInMinutes: minutes.day, settlementDays: 1, fee: ["1", "0.1"]
  },
  bank: bankTransfer(buyer, ["1", "0.15"], 1),
  cash: cash(buyer, ["2.5", "0.2"], minutes.twoDays),
  wallet: wallet(["userEmail"], ["2", "0"]),
  card: card(buyer, ["3.2", "0.2"])
} satisfies Record<string, Rail>

const clp = (min: string, max: string): ReadonlyArray<Limit> => [["CLP", min, max]]

const chile: ReadonlyArray<PaymentMethodDef> = [
  def("1075", "CL", "Webpay", CL.webpay, clp("500", "5000000")),
  def("1076", "CL", "Khipu", CL.khipu, clp("500", "5000000")),
  def("1077", "CL", "BancoEstado", CL.bank, clp("1000", "5000000")),
  def("1078", "CL", "Banco de Chile", CL.bank, clp("1000", "5000000")),
  def("1079", "CL", "BCI", CL.bank, clp("1000", "5000000")),
  def("1080", "CL", "Santander", CL.bank, clp("1000", "5000000")),
  def("1081", "CL", "Servipag", CL.cash, clp("500", "2000000")),
  def("1082", "CL", "Caja Vecina", CL.cash, clp("500", "500000")),
  def("1083", "CL", "MACH", CL.wallet, clp("500", "2000000")),
  def("1084", "CL", "Mercado Pago", CL.wallet, clp("500", "2000000"), { fee: ["3.2", "0"] }),
  def("1085", "CL", "Visa", CL.card, clp("500", "5000000")),
  def("1086", "CL", "Mastercard", CL.card, clp("500", "5000000")),
  def("1087", "CL", "American Express", CL.card, clp("500", "5000000"), { fee: ["4", "0.2"] }),
  def("1088", "CL", "Diners Club", CL.card, clp("500", "5000000"), { fee: ["4", "0.2"] })
]

// --- Argentina (ARS) -------------------------------------------------------------------------

const AR = {
  cash: cash(buyerWithId, ["3.5", "0.25"], minutes.threeDays),
  bank: bankTransfer(buyerWithId, ["1.5", "0"], 1),
  debin: {
    method: "debin", methodLabel: "Online debit", channel: "ONLINE", requires: buyerWithId,
    expiresInMinutes: minutes.day, settlementDays: 1, fee: ["1.5", "0"]
  },
  wallet: wallet(["userEmail", "documentId"], ["3.5", "0"]),
  card: card(buyerWithId, ["4", "0.25"])
} satisfies Record<string, Rail>

const ars = (min: string, max: string): ReadonlyArray<Limit> => [["ARS", min, max]]

const argentina: ReadonlyArray<PaymentMethodDef> = [
  def("1089", "AR", "Rapipago", AR.cash, ars("1000", "1000000")),
  def("1090", "AR", "Pago Fácil", AR.cash, ars("1000", "1000000")),
  def("1091", "AR", "Cobro Express", AR.cash, ars("1000", "1000000")),
  def("1092", "AR", "Provincia NET", AR.cash, ars("1000", "1000000")),
  def("1093", "AR", "Transferencia CBU/CVU", AR.bank, ars("100", "20000000")),
  def("1094", "AR", "DEBIN", AR.debin, ars("100", "10000000")),
  def("1095", "AR", "Mercado Pago", AR.wallet, ars("100", "5000000")),
  def("1096", "AR", "MODO", AR.wallet, ars("100", "5000000"), { fee: ["2.5", "0"] }),
  def("1097", "AR", "Visa", AR.card, ars("100", "10000000")),
  def("1098", "AR", "Mastercard", AR.card, ars("100", "10000000")),
  def("1099", "AR", "American Express", AR.card, ars("100", "10000000"), { fee: ["4.5", "0.25"] }),
  def("1100", "AR", "Naranja X", AR.card, ars("100", "10000000")),
  def("1101", "AR", "Cabal", AR.card, ars("100", "10000000"))
]

// --- the list --------------------------------------------------------------------------------

/** Every real rail, in id order. Append new rails at the end (see the top of this file). */
export const realMethods: ReadonlyArray<PaymentMethodDef> = [...brazil, ...mexico, ...colombia, ...peru, ...chile, ...argentina]

const sandbox = (id: string, real: PaymentMethodDef, name: string): PaymentMethodDef => ({ ...real, id, name, sandboxOnly: true })

const real = (id: string): PaymentMethodDef => {
  const found = realMethods.find((m) => m.id === id)
  if (found === undefined) throw new Error(`catalog: no real rail ${id} to base a sandbox method on`)
  return found
}

/**
 * The sandbox test methods: each mirrors a real rail (limits, fields, expiry, fees) under a
 * fixed id. `sbx_card` is a Brazilian card in BRL (Brazil is the largest card market and has only
 * PIX otherwise; Mexico already has `sbx_spei` and `sbx_cash`); `sbx_cash` is a Mexican
 * OXXO-like voucher under the generic `cash` slug, since it is no OXXO store.
 */
export const sandboxMethods: ReadonlyArray<PaymentMethodDef> = [
  sandbox("sbx_pix", real("1001"), "PIX (sandbox)"),
  sandbox("sbx_spei", real("1031"), "SPEI (sandbox)"),
  sandbox("sbx_card", real("1004"), "Test card (sandbox)"),
  sandbox("sbx_pse", real("1047"), "PSE (sandbox)"),
  { ...sandbox("sbx_cash", real("1033"), "Cash voucher (sandbox)"), method: "cash" }
]

/** The whole shipped catalog: real rails, then the sandbox test methods (`sandboxOnly`). */
export const paymentMethods: ReadonlyArray<PaymentMethodDef> = [...realMethods, ...sandboxMethods]

const byId = new Map(paymentMethods.map((m) => [m.id, m]))

/** The method of a service id (sandbox test ids included). */
export const findMethod = (id: string): PaymentMethodDef | undefined => byId.get(id)

/** The methods of a country given as ISO-2 in any case, sandbox test methods included. */
export const methodsForCountry = (iso2: string): ReadonlyArray<PaymentMethodDef> => {
  const code = iso2.trim().toUpperCase()
  return paymentMethods.filter((m) => m.country === code)
}
