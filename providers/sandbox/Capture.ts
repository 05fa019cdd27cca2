/**
 * The sandbox provider's authorizations (`capture: false`): the charge answers `authorized` at
 * once, held for 7 days (`authorizationWindow`); a capture (full or partial) and a void succeed,
 * idempotent on their key: the same key answers the same operation, never a second one. The
 * simulator keeps what it was asked, per key (`operationsAsked`), so that a test can see each
 * operation reached it once.
 */
import { Duration, Effect } from "effect"
import type { CaptureOutcome, CaptureRequest, VoidRequest } from "../../core/ports/PaymentProvider.ts"

/** How long the sandbox holds an authorization. */
export const sandboxAuthorizationWindow = Duration.days(7)

/** How many times each capture or void key reached the sandbox (its simulator's log). */
export const operationsAsked = new Map<string, number>()

const asked = (kind: "capture" | "void", request: CaptureRequest | VoidRequest): Effect.Effect<CaptureOutcome> =>
  Effect.sync(() => {
    operationsAsked.set(request.idempotencyKey, (operationsAsked.get(request.idempotencyKey) ?? 0) + 1)
    return { providerRef: `sbx.${kind}.${request.idempotencyKey}`, status: "succeeded" }
  })

export const capture = (request: CaptureRequest) => asked("capture", request)
export const voidAuthorization = (request: VoidRequest) => asked("void", request)
