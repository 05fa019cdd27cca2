/**
 * The published contract as a contract-testing proxy would hold the host to it: every answer the
 * test suite receives from a documented operation must be one of the statuses that operation
 * lists, with a body valid against its schema there (for an error: one of the listed codes, with
 * `details` in that code's shape). `call` in Host.ts checks each reply, so an answer or an error
 * an operation can return and its document does not describe fails the test that met it.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import { OpenApi } from "effect/http-api"
import { AdminDocument, Api } from "../../adapters/http/api/Api.ts"

type Spec = Record<string, any>

interface Operation {
  readonly id: string
  readonly method: string
  readonly pattern: RegExp
  readonly literals: number
  readonly responses: Spec
  readonly ajv: Ajv2020
}

const operationsOf = (spec: Spec): ReadonlyArray<Operation> => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: "doc", components: spec["components"] })
  return Object.entries<Spec>(spec["paths"]).flatMap(([path, item]) =>
    Object.entries<Spec>(item).map(([method, operation]) => {
      const segments = path.split("/")
      return {
        id: operation["operationId"],
        method: method.toUpperCase(),
        pattern: new RegExp(`^${segments.map((s) => (s.startsWith("{") ? "[^/]+" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))).join("/")}$`),
        literals: segments.filter((s) => !s.startsWith("{")).length,
        responses: operation["responses"] ?? {},
        ajv
      }
    })
  )
}

let operations: ReadonlyArray<Operation> | undefined
const validators = new Map<string, ValidateFunction>()

const operationFor = (method: string, url: string): Operation | undefined => {
  operations ??= [...operationsOf(OpenApi.fromApi(Api)), ...operationsOf(OpenApi.fromApi(AdminDocument))]
  // As the router sees it: percent-decoded (an encoded slash is a slash, so another route or none).
  const raw = url.split("?")[0]!
  let path = raw
  try {
    path = decodeURIComponent(raw)
  } catch {
    // malformed escapes: match the text as sent
  }
  return operations
    .filter((o) => o.method === method.toUpperCase() && o.pattern.test(path))
    .sort((a, b) => b.literals - a.literals)[0]
}

/**
 * Why an answer breaks the published contract, or `undefined` when it keeps it (or is not an
 * error of a documented operation).
 */
export const contractViolation = (method: string, url: string, status: number, body: unknown): string | undefined => {
  const operation = operationFor(method, url)
  if (operation === undefined) return undefined
  const response = operation.responses[String(status)]
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code
  if (response === undefined) return `${operation.id} answered ${status} ${String(code ?? "")}, a status its document does not list`
  const schema = response["content"]?.["application/json"]?.["schema"]
  if (schema === undefined) return undefined
  const key = `${operation.id} ${status}`
  let validate = validators.get(key)
  if (validate === undefined) {
    validate = operation.ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, "\"doc#/components")))
    validators.set(key, validate)
  }
  if (validate(body)) return undefined
  return `${operation.id} answered ${status} ${String(code ?? "")}, which its document does not allow there: ${JSON.stringify(body)}`
}
