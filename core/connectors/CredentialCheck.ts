/**
 * The check of a connector account's credentials as they are saved: one authenticated call to the
 * provider that changes nothing there, the status read of a charge that does not exist
 * (`PaymentProvider.status`). The provider's answer says whether it took the credentials: a 401 or
 * 403 (`Misconfigured`) refuses them; a "no such charge" (`Declined`, a 404) or any answer about a
 * charge accepts them; no answer, a 5xx or a refused connection (`Failed`, `OutcomeUnknown`) tells
 * nothing (`unreachable`). The provider's secrets for signing callbacks are not checked by it: the
 * first callback is.
 */
import { DateTime, Duration, Effect, Exit } from "effect"
import { realNow } from "../clock/RealClock.ts"
import type { PaymentProvider } from "../ports/PaymentProvider.ts"
import type { CredentialCheck } from "./ConnectorAccount.ts"

/** How long the check waits for the provider. */
const checkBudget = Duration.seconds(15)

export const checkCredentials = (provider: PaymentProvider, probeRef: string) =>
  Effect.gen(function*() {
    const exit = yield* Effect.exit(provider.status(probeRef, probeRef).pipe(Effect.timeout(checkBudget)))
    const at: DateTime.Utc = yield* realNow
    if (Exit.isSuccess(exit)) return { at, outcome: "passed", code: null, message: "The provider answered an authenticated status read" } satisfies CredentialCheck
    const error = exit.cause.reasons.find((r) => r._tag === "Fail")
    if (error === undefined || error._tag !== "Fail") {
      return { at, outcome: "unreachable", code: "unreadable", message: "The provider's answer could not be read" } satisfies CredentialCheck
    }
    const failure = error.error
    if (failure._tag === "TimeoutError") return { at, outcome: "unreachable", code: "timeout", message: "The provider did not answer in time" } satisfies CredentialCheck
    switch (failure.reason._tag) {
      case "Misconfigured":
        return { at, outcome: "refused", code: failure.code, message: failure.message } satisfies CredentialCheck
      case "Declined":
        return { at, outcome: "passed", code: null, message: "The provider authenticated the request (it knows no such charge)" } satisfies CredentialCheck
      default:
        return { at, outcome: "unreachable", code: failure.code, message: failure.message } satisfies CredentialCheck
    }
  }).pipe(Effect.withSpan("ConnectorAccounts.checkCredentials"))
