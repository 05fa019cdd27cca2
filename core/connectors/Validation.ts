/**
 * What a connector account's fields must be, against its kind (`core/ports/ConnectorKinds.ts`):
 * every secret of the kind given (and no other), its required settings given, no setting it does
 * not know, a base URL where one is required, and a merchant's base URL only on the origins the
 * operator allows. Every problem is an issue of one `400 invalid_request`, each naming its field.
 */
import type { Issue } from "../ApiError.ts"
import type { ConnectorKind } from "../ports/ConnectorKinds.ts"
import { merchantUrlProblem } from "../MerchantUrl.ts"
import type { Environment } from "../Environment.ts"

/** A provider id: what routes, payments and callback URLs name. */
export const providerIdPattern = /^[a-z0-9][a-z0-9_-]{0,62}$/

export interface Fields {
  readonly environment: Environment
  readonly baseUrl: string | null
  readonly timeoutMs: number | null
  readonly values: Readonly<Record<string, string>>
  readonly secretNames: ReadonlyArray<string>
}

/** Problems with an account's fields as they would be stored (after a change is applied). */
export const fieldIssues = (
  kind: ConnectorKind,
  fields: Fields,
  /** The origins a merchant's base URL may have; undefined for the operator's accounts (any URL). */
  baseUrlOrigins: ReadonlyArray<string> | undefined
): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  for (const name of kind.secrets) {
    if (!fields.secretNames.includes(name)) issues.push({ path: `secrets.${name}`, message: `Required by connector '${kind.kind}'` })
  }
  for (const name of fields.secretNames) {
    if (!kind.secrets.includes(name)) issues.push({ path: `secrets.${name}`, message: `Not a secret of connector '${kind.kind}' (its secrets: ${kind.secrets.join(", ")})` })
  }
  const known = [...kind.requiredSettings, ...kind.settings]
  for (const name of kind.requiredSettings) {
    if ((fields.values[name] ?? "").trim() === "") issues.push({ path: `settings.${name}`, message: `Required by connector '${kind.kind}'` })
  }
  for (const name of Object.keys(fields.values)) {
    if (!known.includes(name)) {
      issues.push({ path: `settings.${name}`, message: known.length === 0 ? `Connector '${kind.kind}' has no settings` : `Not a setting of connector '${kind.kind}' (its settings: ${known.join(", ")})` })
    }
  }
  if (fields.baseUrl === null) {
    if (kind.baseUrlRequired) issues.push({ path: "baseUrl", message: `Required by connector '${kind.kind}'` })
  } else {
    const problem = merchantUrlProblem(fields.baseUrl)
    if (problem !== undefined) issues.push({ path: "baseUrl", message: problem })
    else if (baseUrlOrigins !== undefined && !baseUrlOrigins.includes(new URL(fields.baseUrl).origin)) {
      issues.push({
        path: "baseUrl",
        message: baseUrlOrigins.length === 0
          ? "A merchant's connector account calls the connector's documented URL: leave baseUrl out"
          : `Expected a URL on one of the origins the operator allows: ${baseUrlOrigins.join(", ")}`
      })
    }
  }
  if (fields.timeoutMs !== null && (!Number.isInteger(fields.timeoutMs) || fields.timeoutMs < 100 || fields.timeoutMs > 120_000)) {
    issues.push({ path: "timeoutMs", message: "Expected an integer from 100 to 120000" })
  }
  return issues
}
