/** The card page's words in English, Portuguese and Spanish, and the language a request asks for. */
import type { CardRejectionCode } from "../cards/CardInput.ts"

export type Language = "en" | "pt" | "es"

export interface Catalog {
  readonly title: string
  readonly intro: string
  readonly holderName: string
  readonly number: string
  readonly expMonth: string
  readonly expYear: string
  readonly securityCode: string
  readonly securityCodeHint: string
  readonly submit: string
  readonly errorSummary: string
  readonly sessionInvalid: string
  readonly saved: string
  readonly unavailable: string
  readonly brand: string
  readonly errors: Record<CardRejectionCode, string>
}

const en: Catalog = {
  title: "Card details",
  intro: "Your card details go straight to the card vault; the shop never sees your card number.",
  holderName: "Name on the card",
  number: "Card number",
  expMonth: "Expiry month (MM)",
  expYear: "Expiry year (YYYY)",
  securityCode: "Security code",
  securityCodeHint: "3 digits on the back, 4 on the front of an Amex",
  submit: "Save card",
  errorSummary: "Please check the fields below.",
  sessionInvalid: "This card form has expired. Go back to the shop and start again.",
  saved: "Your card is saved. You can close this page.",
  unavailable: "The card vault is not answering right now. Please try again in a moment.",
  brand: "Card brand",
  errors: {
    card_number_invalid: "Enter a valid card number.",
    brand_not_supported: "This card brand is not accepted.",
    card_expired: "This card has expired.",
    expiry_invalid: "Enter the expiry as month 1 to 12 and a four-digit year.",
    security_code_invalid: "Enter the security code printed on the card.",
    holder_name_invalid: "Enter the name as printed on the card."
  }
}

const pt: Catalog = {
  title: "Dados do cartão",
  intro: "Os dados do seu cartão vão direto para o cofre de cartões; a loja nunca vê o número do seu cartão.",
  holderName: "Nome impresso no cartão",
  number: "Número do cartão",
  expMonth: "Mês de validade (MM)",
  expYear: "Ano de validade (AAAA)",
  securityCode: "Código de segurança",
  securityCodeHint: "3 dígitos no verso, 4 na frente de um Amex",
  submit: "Salvar cartão",
  errorSummary: "Verifique os campos abaixo.",
  sessionInvalid: "Este formulário expirou. Volte à loja e comece de novo.",
  saved: "Seu cartão foi salvo. Você pode fechar esta página.",
  unavailable: "O cofre de cartões não está respondendo agora. Tente de novo em instantes.",
  brand: "Bandeira",
  errors: {
    card_number_invalid: "Informe um número de cartão válido.",
    brand_not_supported: "Esta bandeira não é aceita.",
    card_expired: "Este cartão está vencido.",
    expiry_invalid: "Informe a validade com mês de 1 a 12 e ano com quatro dígitos.",
    security_code_invalid: "Informe o código de segurança impresso no cartão.",
    holder_name_invalid: "Informe o nome como impresso no cartão."
  }
}

const es: Catalog = {
  title: "Datos de la tarjeta",
  intro: "Los datos de tu tarjeta van directo a la bóveda de tarjetas; la tienda nunca ve el número de tu tarjeta.",
  holderName: "Nombre en la tarjeta",
  number: "Número de tarjeta",
  expMonth: "Mes de vencimiento (MM)",
  expYear: "Año de vencimiento (AAAA)",
  securityCode: "Código de seguridad",
  securityCodeHint: "3 dígitos al reverso, 4 al frente de una Amex",
  submit: "Guardar tarjeta",
  errorSummary: "Revisa los campos de abajo.",
  sessionInvalid: "Este formulario expiró. Vuelve a la tienda y empieza de nuevo.",
  saved: "Tu tarjeta quedó guardada. Puedes cerrar esta página.",
  unavailable: "La bóveda de tarjetas no responde en este momento. Inténtalo de nuevo en un momento.",
  brand: "Marca",
  errors: {
    card_number_invalid: "Ingresa un número de tarjeta válido.",
    brand_not_supported: "Esta marca de tarjeta no se acepta.",
    card_expired: "Esta tarjeta está vencida.",
    expiry_invalid: "Ingresa el vencimiento con mes de 1 a 12 y año de cuatro dígitos.",
    security_code_invalid: "Ingresa el código de seguridad impreso en la tarjeta.",
    holder_name_invalid: "Ingresa el nombre como aparece en la tarjeta."
  }
}

export const catalogs: Record<Language, Catalog> = { en, pt, es }

const isLanguage = (tag: string): tag is Language => tag === "en" || tag === "pt" || tag === "es"

/** `?lang=` first, else the first language of `Accept-Language` the page speaks (by weight), else English. */
export const languageOf = (query: string | null, acceptLanguage: string | undefined): Language => {
  if (query !== null && isLanguage(query.toLowerCase())) return query.toLowerCase() as Language
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";")
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag.toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q), index }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return ranked.map((entry) => entry.tag).find(isLanguage) ?? "en"
}
