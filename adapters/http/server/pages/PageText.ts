/**
 * The buyer's pages in the buyer's language: Portuguese for Brazil, Spanish for the other
 * Latin-American countries, English otherwise, from the session's country; a supported language
 * the browser prefers (`Accept-Language`) wins over the country.
 */
import type { Channel } from "../../../../core/catalog/Channel.ts"
import type { PaymentMethodDef } from "../../../../core/catalog/PaymentMethod.ts"
import type { PaymentStatus } from "../../../../core/payments/PaymentState.ts"

export type Language = "pt" | "es" | "en"

const languages: ReadonlyArray<Language> = ["pt", "es", "en"]

/** ISO-3 and ISO-2 codes of the countries whose buyers read Spanish. */
const spanishSpeaking = new Set([
  "ARG", "BOL", "CHL", "COL", "CRI", "CUB", "DOM", "ECU", "SLV", "GTM", "HND", "MEX", "NIC", "PAN", "PRY", "PER", "PRI", "URY", "VEN", "ESP",
  "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "SV", "GT", "HN", "MX", "NI", "PA", "PY", "PE", "PR", "UY", "VE", "ES"
])

/** `Accept-Language`'s supported languages, most preferred first (q-values honoured). */
const preferred = (header: string | undefined): ReadonlyArray<Language> =>
  (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q.slice(2)) || 0, index }
    })
    .filter((p) => p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .flatMap((p) => languages.includes(p.language as Language) ? [p.language as Language] : [])

export const languageFor = (country: string | null, acceptLanguage: string | undefined): Language => {
  const asked = preferred(acceptLanguage)[0]
  if (asked !== undefined) return asked
  if (country === "BRA" || country === "BR") return "pt"
  return country !== null && spanishSpeaking.has(country) ? "es" : "en"
}

const channels: Readonly<Record<Language, Readonly<Record<Channel, string>>>> = {
  en: { ONLINE: "Bank transfer and instant payment", CASH: "Cash", CREDIT_CARD: "Card" },
  pt: { ONLINE: "Transferência e pagamento instantâneo", CASH: "Dinheiro", CREDIT_CARD: "Cartão" },
  es: { ONLINE: "Transferencia y pago inmediato", CASH: "Efectivo", CREDIT_CARD: "Tarjeta" }
}

/** What kind of method it is, to tell apart methods that share a name (a bank's transfer and its debit). */
const kinds: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  en: { bank_transfer: "bank transfer", online_debit: "online debit", cash: "cash voucher", card: "card", wallet: "wallet" },
  pt: { bank_transfer: "transferência bancária", online_debit: "débito online", cash: "boleto em dinheiro", card: "cartão", wallet: "carteira digital" },
  es: { bank_transfer: "transferencia bancaria", online_debit: "débito en línea", cash: "pago en efectivo", card: "tarjeta", wallet: "billetera digital" }
}

/** The names the page shows: a method whose name another method of the page shares gets its kind. */
export const displayNames = (methods: ReadonlyArray<PaymentMethodDef>, language: Language): ReadonlyMap<string, string> => {
  const count = new Map<string, number>()
  for (const m of methods) count.set(m.name, (count.get(m.name) ?? 0) + 1)
  return new Map(methods.map((m) => [
    m.id,
    (count.get(m.name) ?? 0) > 1 ? `${m.name} — ${kinds[language][m.method] ?? m.methodLabel.toLowerCase()}` : m.name
  ]))
}

/** The sandbox provider's payment form: what a buyer sees at the (simulated) provider. */
export interface SandboxText {
  readonly notice: string
  /** `Payment TXN-… is pending.`: the sentence around the id and the status. */
  readonly paymentIs: (id: string, status: string) => string
  readonly status: Readonly<Record<PaymentStatus, string>>
  readonly pay: string
  readonly fail: string
  readonly notFoundTitle: string
  readonly notFoundBody: string
  readonly badRequest: string
}

export interface PageText {
  readonly channel: Readonly<Record<Channel, string>>
  readonly title: string
  readonly heading: string
  readonly payWith: string
  /** The summary of a group's further methods, folded away on the page. */
  readonly moreMethods: (count: number) => string
  readonly yourDetails: string
  readonly fullName: string
  readonly email: string
  readonly documentId: string
  readonly documentHint: string
  readonly phone: string
  readonly phoneHint: string
  /** The address block, shown only for a method whose providers need the buyer's address. */
  readonly address: string
  readonly street: string
  readonly number: string
  readonly numberHint: string
  readonly complement: string
  readonly district: string
  readonly city: string
  readonly state: string
  readonly postalCode: string
  readonly submit: string
  readonly cancel: string
  readonly noMethodHeading: string
  readonly noMethodBody: string
  readonly expiredTitle: string
  readonly expiredHeading: string
  readonly expiredBody: string
  readonly usedTitle: string
  readonly usedHeading: string
  readonly usedBody: string
  readonly usedContinue: string
  readonly backToShop: string
  /** The sandbox provider's payment form (`SandboxPages.ts`). */
  readonly sandbox: SandboxText
  /** Messages the page's script shows. */
  readonly script: Readonly<
    Record<
      | "name"
      | "email"
      | "document"
      | "documentInvalid"
      | "phone"
      | "street"
      | "number"
      | "district"
      | "city"
      | "state"
      | "stateCode"
      | "postalCode"
      | "address"
      | "method"
      | "check"
      | "failed"
      | "offline",
      string
    >
  >
}

const en: PageText = {
  channel: channels.en,
  title: "Checkout",
  heading: "Complete your payment",
  payWith: "Pay with",
  moreMethods: (count) => `Show ${count} more`,
  yourDetails: "Your details",
  fullName: "Full name",
  email: "Email",
  documentId: "Identity document number",
  documentHint: "CPF, CURP, RUT, DNI... as the payment method asks",
  phone: "Phone (with country code)",
  phoneHint: "The payment method you chose asks for it",
  address: "Your address",
  street: "Street",
  number: "Number",
  numberHint: "S/N if the address has none",
  complement: "Apartment, floor, unit (optional)",
  district: "Neighbourhood",
  city: "City",
  state: "State or province",
  postalCode: "Postal code",
  submit: "Continue to payment",
  cancel: "Cancel and go back to the shop",
  noMethodHeading: "No payment method is available",
  noMethodBody: "This shop cannot take payments here right now. Please go back to the shop.",
  expiredTitle: "Checkout link expired",
  expiredHeading: "This checkout link has expired",
  expiredBody: "Checkout links work for 24 hours. Please go back to the shop and start the payment again.",
  usedTitle: "Payment already started",
  usedHeading: "This payment was already started",
  usedBody: "A payment method was already chosen for this checkout.",
  usedContinue: "Continue to the payment",
  backToShop: "Back to the shop",
  sandbox: {
    notice: "Sandbox provider — no real money moves",
    paymentIs: (id, status) => `Payment ${id} is ${status}.`,
    status: { pending: "pending", completed: "completed", failed: "failed", refunded: "refunded", expired: "expired", chargeback: "charged back" },
    pay: "Pay",
    fail: "Fail the payment",
    notFoundTitle: "Payment not found",
    notFoundBody: "This sandbox payment does not exist.",
    badRequest: "Choose Pay or Fail the payment."
  },
  script: {
    name: "Enter your first and last name.",
    email: "Enter a valid email address, like name@example.com.",
    document: "Enter your identity document number.",
    documentInvalid: "This document number is not valid for the payment method's country: check its digits.",
    phone: "Enter your phone with its country code, like +5511987654321.",
    street: "Enter your street.",
    number: "Enter the number of the address, or S/N.",
    district: "Enter your neighbourhood.",
    city: "Enter your city.",
    state: "Enter your state or province.",
    stateCode: "Enter the state's two letters, like SP.",
    postalCode: "Enter a valid postal code.",
    address: "The payment method you chose needs your address.",
    method: "Choose a payment method.",
    check: "Please check this field.",
    failed: "The payment could not be started. Please try again.",
    offline: "The connection failed. Please try again."
  }
}

const pt: PageText = {
  channel: channels.pt,
  title: "Pagamento",
  heading: "Conclua seu pagamento",
  payWith: "Pagar com",
  moreMethods: (count) => `Mostrar mais ${count}`,
  yourDetails: "Seus dados",
  fullName: "Nome completo",
  email: "E-mail",
  documentId: "Número do documento de identidade",
  documentHint: "CPF, CNPJ... como a forma de pagamento pede",
  phone: "Telefone (com código do país)",
  phoneHint: "A forma de pagamento escolhida pede o telefone",
  address: "Seu endereço",
  street: "Rua ou avenida",
  number: "Número",
  numberHint: "S/N se o endereço não tiver",
  complement: "Complemento (opcional)",
  district: "Bairro",
  city: "Cidade",
  state: "Estado (UF)",
  postalCode: "CEP",
  submit: "Continuar para o pagamento",
  cancel: "Cancelar e voltar à loja",
  noMethodHeading: "Nenhuma forma de pagamento disponível",
  noMethodBody: "Esta loja não pode receber pagamentos aqui agora. Volte à loja.",
  expiredTitle: "Link de pagamento expirado",
  expiredHeading: "Este link de pagamento expirou",
  expiredBody: "Os links de pagamento valem por 24 horas. Volte à loja e comece o pagamento de novo.",
  usedTitle: "Pagamento já iniciado",
  usedHeading: "Este pagamento já foi iniciado",
  usedBody: "Uma forma de pagamento já foi escolhida para este pagamento.",
  usedContinue: "Continuar para o pagamento",
  backToShop: "Voltar à loja",
  sandbox: {
    notice: "Provedor de testes (sandbox) — nenhum dinheiro real se move",
    paymentIs: (id, status) => `O pagamento ${id} está ${status}.`,
    status: { pending: "pendente", completed: "concluído", failed: "recusado", refunded: "reembolsado", expired: "expirado", chargeback: "contestado" },
    pay: "Pagar",
    fail: "Fazer o pagamento falhar",
    notFoundTitle: "Pagamento não encontrado",
    notFoundBody: "Este pagamento de teste não existe.",
    badRequest: "Escolha Pagar ou Fazer o pagamento falhar."
  },
  script: {
    name: "Informe seu nome e sobrenome.",
    email: "Informe um e-mail válido, como nome@exemplo.com.",
    document: "Informe o número do seu documento.",
    documentInvalid: "Este número de documento não é válido para o país da forma de pagamento: confira os dígitos.",
    phone: "Informe seu telefone com o código do país, como +5511987654321.",
    street: "Informe a rua ou avenida.",
    number: "Informe o número do endereço, ou S/N.",
    district: "Informe o bairro.",
    city: "Informe a cidade.",
    state: "Informe o estado.",
    stateCode: "Informe a sigla do estado, como SP.",
    postalCode: "Informe um CEP válido, como 01310-100.",
    address: "A forma de pagamento escolhida pede seu endereço.",
    method: "Escolha uma forma de pagamento.",
    check: "Confira este campo.",
    failed: "Não foi possível iniciar o pagamento. Tente de novo.",
    offline: "A conexão falhou. Tente de novo."
  }
}

const es: PageText = {
  channel: channels.es,
  title: "Pago",
  heading: "Completa tu pago",
  payWith: "Pagar con",
  moreMethods: (count) => `Mostrar ${count} más`,
  yourDetails: "Tus datos",
  fullName: "Nombre completo",
  email: "Correo electrónico",
  documentId: "Número de documento de identidad",
  documentHint: "CURP, RUT, DNI... según lo pida el medio de pago",
  phone: "Teléfono (con código de país)",
  phoneHint: "El medio de pago elegido lo pide",
  address: "Tu dirección",
  street: "Calle",
  number: "Número",
  numberHint: "S/N si la dirección no tiene",
  complement: "Depto., piso, interior (opcional)",
  district: "Colonia o barrio",
  city: "Ciudad",
  state: "Estado o provincia",
  postalCode: "Código postal",
  submit: "Continuar al pago",
  cancel: "Cancelar y volver a la tienda",
  noMethodHeading: "No hay medios de pago disponibles",
  noMethodBody: "Esta tienda no puede recibir pagos aquí ahora. Vuelve a la tienda.",
  expiredTitle: "Enlace de pago vencido",
  expiredHeading: "Este enlace de pago venció",
  expiredBody: "Los enlaces de pago valen 24 horas. Vuelve a la tienda y comienza el pago de nuevo.",
  usedTitle: "Pago ya iniciado",
  usedHeading: "Este pago ya se inició",
  usedBody: "Ya se eligió un medio de pago para este pago.",
  usedContinue: "Continuar al pago",
  backToShop: "Volver a la tienda",
  sandbox: {
    notice: "Proveedor de pruebas (sandbox) — no se mueve dinero real",
    paymentIs: (id, status) => `El pago ${id} está ${status}.`,
    status: { pending: "pendiente", completed: "completado", failed: "rechazado", refunded: "reembolsado", expired: "vencido", chargeback: "contracargado" },
    pay: "Pagar",
    fail: "Hacer fallar el pago",
    notFoundTitle: "Pago no encontrado",
    notFoundBody: "Este pago de prueba no existe.",
    badRequest: "Elige Pagar o Hacer fallar el pago."
  },
  script: {
    name: "Ingresa tu nombre y apellido.",
    email: "Ingresa un correo válido, como nombre@ejemplo.com.",
    document: "Ingresa tu número de documento.",
    documentInvalid: "Este número de documento no es válido para el país del medio de pago: revisa sus dígitos.",
    phone: "Ingresa tu teléfono con el código de país, como +5215512345678.",
    street: "Ingresa la calle.",
    number: "Ingresa el número de la dirección, o S/N.",
    district: "Ingresa la colonia o el barrio.",
    city: "Ingresa la ciudad.",
    state: "Ingresa el estado o la provincia.",
    stateCode: "Ingresa la sigla del estado, como SP.",
    postalCode: "Ingresa un código postal válido.",
    address: "El medio de pago elegido pide tu dirección.",
    method: "Elige un medio de pago.",
    check: "Revisa este campo.",
    failed: "No se pudo iniciar el pago. Inténtalo de nuevo.",
    offline: "La conexión falló. Inténtalo de nuevo."
  }
}

export const pageText: Readonly<Record<Language, PageText>> = { en, pt, es }
