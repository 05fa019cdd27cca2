/** The words of the checkout's card step and of its no-script answers (`CheckoutCard.ts`), in en, pt and es. */
import type { Language } from "./PageText.ts"

export interface CardStepText {
  readonly problemTitle: string
  readonly checkDetails: string
  readonly stepExpired: string
  readonly brandNotAccepted: string
  readonly cardNotFound: string
  readonly cardExpired: string
  readonly vaultUnavailable: string
  readonly failed: string
  readonly back: string
}

export const cardStepText: Readonly<Record<Language, CardStepText>> = {
  en: {
    problemTitle: "The payment could not go on",
    checkDetails: "Please check your details and the payment method, then try again.",
    stepExpired: "This card form has expired or was already used. Go back to the checkout and choose the card again.",
    brandNotAccepted: "This card's brand is not accepted here. Go back and use another card or another method.",
    cardNotFound: "The card could not be found. Go back and type the card again.",
    cardExpired: "This card has expired. Go back and use another card.",
    vaultUnavailable: "Cards cannot be taken right now. Please try again in a moment or choose another method.",
    failed: "The payment could not be created. Go back and try again or choose another method.",
    back: "Back to the checkout"
  },
  pt: {
    problemTitle: "Não foi possível continuar o pagamento",
    checkDetails: "Verifique seus dados e a forma de pagamento e tente de novo.",
    stepExpired: "Este formulário de cartão expirou ou já foi usado. Volte ao checkout e escolha o cartão de novo.",
    brandNotAccepted: "A bandeira deste cartão não é aceita aqui. Volte e use outro cartão ou outra forma de pagamento.",
    cardNotFound: "O cartão não foi encontrado. Volte e digite o cartão de novo.",
    cardExpired: "Este cartão está vencido. Volte e use outro cartão.",
    vaultUnavailable: "Não é possível receber cartões agora. Tente de novo em instantes ou escolha outra forma de pagamento.",
    failed: "Não foi possível criar o pagamento. Volte e tente de novo ou escolha outra forma de pagamento.",
    back: "Voltar ao checkout"
  },
  es: {
    problemTitle: "No se pudo continuar con el pago",
    checkDetails: "Revisa tus datos y el medio de pago e inténtalo de nuevo.",
    stepExpired: "Este formulario de tarjeta expiró o ya se usó. Vuelve al checkout y elige la tarjeta de nuevo.",
    brandNotAccepted: "La marca de esta tarjeta no se acepta aquí. Vuelve y usa otra tarjeta u otro medio de pago.",
    cardNotFound: "No se encontró la tarjeta. Vuelve e ingresa la tarjeta de nuevo.",
    cardExpired: "Esta tarjeta está vencida. Vuelve y usa otra tarjeta.",
    vaultUnavailable: "No se pueden recibir tarjetas en este momento. Inténtalo de nuevo en un momento o elige otro medio de pago.",
    failed: "No se pudo crear el pago. Vuelve e inténtalo de nuevo o elige otro medio de pago.",
    back: "Volver al checkout"
  }
}
