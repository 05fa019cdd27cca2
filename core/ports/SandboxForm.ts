/**
 * The sandbox provider's id and its payment form, shared by the provider (which writes a charge's
 * form URL with a fresh secret) and the host (which serves the form at `/sandbox/pay/{id}` and
 * opens it only with that secret): the one place both read, so the host imports no provider.
 */
import { Mac } from "effect/crypto"

export const sandboxProviderId = "sandbox"

const encoder = new TextEncoder()

/** `{formBaseUrl}/sandbox/pay/{transactionId}?secret=<random>`: the form of one charge. */
export const formUrlOf = (formBaseUrl: string, transactionId: string, secret: string) =>
  `${formBaseUrl}/sandbox/pay/${encodeURIComponent(transactionId)}?secret=${encodeURIComponent(secret)}`

/**
 * `{formBaseUrl}/sandbox/3ds/{transactionId}?secret=<random>`: the sandbox's 3-D Secure challenge
 * page for one charge, opened with the secret of the charge's form (`opensForm`).
 */
export const challengeUrlOf = (formBaseUrl: string, transactionId: string, secret: string) =>
  `${formBaseUrl}/sandbox/3ds/${encodeURIComponent(transactionId)}?secret=${encodeURIComponent(secret)}`

/** The secret of a form URL this provider wrote; none for any other. */
export const formSecretOf = (paymentFormUrl: string): string | undefined => {
  try {
    const secret = new URL(paymentFormUrl).searchParams.get("secret")
    return secret === null || secret === "" ? undefined : secret
  } catch {
    return undefined
  }
}

/** Whether `given` is the secret of the charge's form, compared in constant time. */
export const opensForm = (paymentFormUrl: string, given: string | undefined): boolean => {
  const secret = formSecretOf(paymentFormUrl)
  return secret !== undefined && given !== undefined && given.length === secret.length && Mac.timingSafeEqual(encoder.encode(given), encoder.encode(secret))
}
