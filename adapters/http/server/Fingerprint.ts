/** A stable fingerprint of a request, binding an Idempotency-Key to one request. */
import { Effect } from "effect"
import { hashSecret } from "../../../core/Secrets.ts"

const stable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(stable)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]))
  }
  return value
}

/** SHA-256 of the operation name and the request's JSON (keys sorted). */
export const fingerprint = (operation: string, request: unknown) =>
  Effect.suspend(() => hashSecret(`${operation}\n${JSON.stringify(stable(request))}`))
