/**
 * The shipped payout methods (spec 2.10, 4.9 "Rules by rail"), as data.
 *
 * IDS ARE PERMANENT: merchants store them and payouts record them. `sbx_po_*` are the four sandbox
 * synthetic rails (listed first, in sandbox only, no balance debit, no provider); each has exactly
 * the `recipientFields` of its real twin (`sbx_po_mx_spei` and `po_mx_spei`, ...), so whatever
 * passes in sandbox passes in production. Add a rail with a new id; never reuse one.
 *
 * Beneficiary fields (the keys of `recipient` in POST /me/payout/send), validated by
 * `Recipients.ts`:
 *   all rails          `name`, `documentId` (the beneficiary's id without dots or dashes), optional `email`
 *   MX SPEI            `documentType` RFC or CURP; `account` = 18-digit CLABE (the bank is derived from it)
 *   BR PIX             `documentId` = CPF (11) or CNPJ (14); `accountType` = the PIX key type; `account` = the key
 *   CO, CL, PE bank    `bankCode` (the country's real codes: ACH Colombia, SBIF/CMF, CCE entity);
 *                      `accountType` SAVINGS or CHECKING; `account` (Peru: the 20-digit CCI)
 *   AR bank            `account` = 22-digit CBU or CVU (the bank is derived from it)
 *   wallets            `account` = the wallet's phone (Colombia 10 digits, Peru 9 digits); the email
 *                      wallet type (`po_co_wallet_astropay`, an account reachable by phone or by
 *                      email) adds `accountType` phone or email, and for email `account` = the
 *                      account's email
 *
 * Limits are per payout in USD: realistic defaults of a cross-border processor (the wallets'
 * are lower, like their own account caps: Yape's daily limit is a few hundred USD).
 */
import type { PayoutMethodDef, RecipientField } from "./PayoutMethod.ts"

// --- fields ----------------------------------------------------------------------------------

type Options = ReadonlyArray<readonly [value: string, label: string]>

const select = (key: string, label: string, options: Options, description?: string): RecipientField => ({
  key,
  label,
  required: true,
  type: "select",
  options: options.map(([value, label]) => ({ value, label })),
  description
})

const name: RecipientField = {
  key: "name", label: "Beneficiary full name", required: true, type: "text",
  description: "The account holder's name as the bank or wallet has it, at most 100 characters"
}

const email: RecipientField = {
  key: "email", label: "Beneficiary email", required: false, type: "email",
  description: "Optional; where the beneficiary may be notified"
}

const documentId = (description: string): RecipientField => ({
  key: "documentId", label: "Beneficiary document number", required: true, type: "document", description
})

const account = (label: string, description: string, type: RecipientField["type"] = "account"): RecipientField => ({
  key: "account", label, required: true, type, description
})

const bankAccountType = select("accountType", "Account type", [["SAVINGS", "Savings"], ["CHECKING", "Checking"]])

// --- banks (bankCode options) ------------------------------------------------------------------

/** Colombia: ACH Colombia / PSE financial-institution codes. */
const colombianBanks: Options = [
  ["1001", "Banco de Bogotá"],
  ["1002", "Banco Popular"],
  ["1007", "Bancolombia"],
  ["1012", "Banco GNB Sudameris"],
  ["1013", "BBVA Colombia"],
  ["1019", "Scotiabank Colpatria"],
  ["1023", "Banco de Occidente"],
  ["1032", "Banco Caja Social"],
  ["1040", "Banco Agrario de Colombia"],
  ["1051", "Banco Davivienda"],
  ["1052", "Banco AV Villas"],
  ["1060", "Banco Pichincha"],
  ["1062", "Banco Falabella"],
  ["1070", "Lulo Bank"]
]

/** Chile: SBIF (now CMF) institution codes. */
const chileanBanks: Options = [
  ["001", "Banco de Chile"],
  ["009", "Banco Internacional"],
  ["012", "BancoEstado"],
  ["014", "Scotiabank Chile"],
  ["016", "Banco de Crédito e Inversiones (BCI)"],
  ["028", "Banco BICE"],
  ["037", "Banco Santander Chile"],
  ["039", "Banco Itaú Chile"],
  ["049", "Banco Security"],
  ["051", "Banco Falabella"],
  ["053", "Banco Ripley"],
  ["055", "Banco Consorcio"],
  ["672", "Coopeuch"]
]

/** Peru: CCE entity codes, the first three digits of the CCI. */
const peruvianBanks: Options = [
  ["002", "Banco de Crédito del Perú (BCP)"],
  ["003", "Interbank"],
  ["009", "Scotiabank Perú"],
  ["011", "BBVA Perú"],
  ["018", "Banco de la Nación"],
  ["023", "Banco de Comercio"],
  ["038", "BanBif"],
  ["049", "Mibanco"]
]

// --- fields per rail -------------------------------------------------------------------------

const mxSpei: ReadonlyArray<RecipientField> = [
  name,
  select("documentType", "Document type", [["RFC", "RFC (tax id)"], ["CURP", "CURP (population registry)"]]),
  documentId("RFC (12 or 13 characters) or CURP (18 characters), as chosen in documentType"),
  account("CLABE", "18 digits; the bank is derived from its first 3 digits"),
  email
]

const brPix: ReadonlyArray<RecipientField> = [
  name,
  documentId("CPF (11 digits) or CNPJ (14 digits)"),
  select("accountType", "PIX key type", [
    ["cpf", "CPF"], ["cnpj", "CNPJ"], ["email", "Email"], ["phone", "Phone"], ["random", "Random key (EVP)"]
  ]),
  account("PIX key", "CPF (11 digits), CNPJ (14 digits), email, phone as +55 and 10 or 11 digits, or random key (UUID)"),
  email
]

const coBank: ReadonlyArray<RecipientField> = [
  name,
  documentId("Cédula (5 to 10 digits) or NIT with its check digit"),
  select("bankCode", "Bank", colombianBanks),
  bankAccountType,
  account("Account number", "6 to 20 digits"),
  email
]

const clBank: ReadonlyArray<RecipientField> = [
  name,
  documentId("RUT with its check digit (0-9 or K), e.g. 123456785"),
  select("bankCode", "Bank", chileanBanks),
  bankAccountType,
  account("Account number", "6 to 20 digits"),
  email
]

const peBank: ReadonlyArray<RecipientField> = [
  name,
  documentId("DNI (8 digits), carné de extranjería (9 to 12 digits) or RUC (11 digits)"),
  select("bankCode", "Bank", peruvianBanks),
  bankAccountType,
  account("CCI", "20 digits (código de cuenta interbancario), starting with the bank's code"),
  email
]

const arBank: ReadonlyArray<RecipientField> = [
  name,
  documentId("DNI (7 or 8 digits) or CUIT/CUIL (11 digits)"),
  account("CBU or CVU", "22 digits; the bank is derived from it"),
  email
]

const coDocumentId = documentId("Cédula (5 to 10 digits)")
const peDocumentId = documentId("DNI (8 digits) or carné de extranjería (9 to 12 digits)")

const coPhoneWallet: ReadonlyArray<RecipientField> = [
  name, coDocumentId, account("Phone", "The wallet's Colombian mobile number, 10 digits (3XXXXXXXXX)", "phone"), email
]

const pePhoneWallet: ReadonlyArray<RecipientField> = [
  name, peDocumentId, account("Phone", "The wallet's Peruvian mobile number, 9 digits (9XXXXXXXX)", "phone"), email
]

const coEmailWallet: ReadonlyArray<RecipientField> = [
  name,
  coDocumentId,
  select("accountType", "Account identified by", [["phone", "Phone"], ["email", "Email"]]),
  account("Wallet account", "The account's Colombian mobile number (10 digits) or its email, as chosen in accountType"),
  email
]

// --- methods ---------------------------------------------------------------------------------

type Rail = Omit<PayoutMethodDef, "id" | "name" | "sandboxOnly">

const rails = {
  mxSpei: { country: "MX", currency: "MXN", rail: "spei", minUsd: "1", maxUsd: "50000", recipientFields: mxSpei },
  brPix: { country: "BR", currency: "BRL", rail: "pix", minUsd: "1", maxUsd: "50000", recipientFields: brPix },
  coBank: { country: "CO", currency: "COP", rail: "bank_transfer", minUsd: "5", maxUsd: "25000", recipientFields: coBank },
  peBank: { country: "PE", currency: "PEN", rail: "bank_transfer", minUsd: "5", maxUsd: "25000", recipientFields: peBank }
} satisfies Record<string, Rail>

const sandbox = (id: string, name: string, rail: Rail): PayoutMethodDef => ({ id, name, sandboxOnly: true, ...rail })
const real = (id: string, name: string, rail: Rail): PayoutMethodDef => ({ id, name, sandboxOnly: false, ...rail })

export const payoutMethods: ReadonlyArray<PayoutMethodDef> = [
  sandbox("sbx_po_mx_spei", "Sandbox SPEI (Mexico)", rails.mxSpei),
  sandbox("sbx_po_br_pix", "Sandbox PIX (Brazil)", rails.brPix),
  sandbox("sbx_po_co_bank", "Sandbox bank transfer (Colombia)", rails.coBank),
  sandbox("sbx_po_pe_bank", "Sandbox bank transfer (Peru)", rails.peBank),

  real("po_mx_spei", "SPEI", rails.mxSpei),
  real("po_br_pix", "PIX", rails.brPix),
  real("po_co_bank", "Bank transfer (Colombia)", rails.coBank),
  real("po_pe_bank", "Bank transfer (Peru)", rails.peBank),
  real("po_cl_bank", "Bank transfer (Chile)", {
    country: "CL", currency: "CLP", rail: "bank_transfer", minUsd: "5", maxUsd: "25000", recipientFields: clBank
  }),
  real("po_ar_bank", "Bank transfer to CBU/CVU (Argentina)", {
    country: "AR", currency: "ARS", rail: "bank_transfer", minUsd: "5", maxUsd: "10000", recipientFields: arBank
  }),
  real("po_co_wallet_nequi", "Nequi", {
    country: "CO", currency: "COP", rail: "wallet", minUsd: "1", maxUsd: "2000", recipientFields: coPhoneWallet
  }),
  real("po_co_wallet_daviplata", "Daviplata", {
    country: "CO", currency: "COP", rail: "wallet", minUsd: "1", maxUsd: "2000", recipientFields: coPhoneWallet
  }),
  real("po_co_wallet_astropay", "AstroPay", {
    country: "CO", currency: "COP", rail: "wallet", minUsd: "1", maxUsd: "5000", recipientFields: coEmailWallet
  }),
  real("po_pe_wallet_yape", "Yape", {
    country: "PE", currency: "PEN", rail: "wallet", minUsd: "1", maxUsd: "500", recipientFields: pePhoneWallet
  })
]

const byId = new Map(payoutMethods.map((method) => [method.id, method]))

/** The payout method with this id, or undefined. */
export const findPayoutMethod = (id: string): PayoutMethodDef | undefined => byId.get(id)
