/**
 * The errors each operation can answer, read from the endpoint definitions: each group of
 * `*Api.ts` states its endpoints' own codes (`withErrors`, `EndpointErrors.ts`), and here they
 * become the OpenAPI documents' error responses: every operation lists only its own statuses, and
 * at each status only its own codes, each with the schema of its `details` (`ErrorCatalog` in the
 * core). The test host checks every error response of the test suite against these documents
 * (test/support/Contract.ts), so a code an operation can return and does not list fails a test;
 * the handlers' `documented(...)` is typed by the same codes.
 *
 * What every request can meet is added to all: a NUL character in the URL or body or a body that
 * does not decode (400 `invalid_request`), a declared body over 1 MB (413), a defect (500); a JSON
 * body adds 415, an `Idempotency-Key` header adds the two 409s, and a path parameter adds 404
 * `not_found` (the router matches no route for a parameter over 100 characters).
 *
 * A path called with a method it does not accept answers 405 `method_not_allowed` (with `Allow`):
 * no operation answers it, so its envelope is published beside the others and in `Error`. A JSON
 * body whose fields are all optional may be left out (an empty body is read as `{}`), and its
 * `requestBody` says so.
 */
import { type Effect, Schema } from "effect"
import type { HttpApiGroup } from "effect/http-api"
import { type ApiErrorOf, ErrorCatalog, type ErrorCode, errorCodes } from "../../../core/ApiError.ts"
import type { ApiGroups } from "./Api.ts"
import { anyPath, type Codes, type Declares, everyRequest, idempotent, jsonBody, type OperationErrors, pathParameter } from "./EndpointErrors.ts"
import { httpStatus } from "./ErrorStatus.ts"

/** `{ "g.e": codes }` for a group `g` that declares `{ e: codes }`. */
type ErrorsOfGroup<G> = G extends HttpApiGroup.Constraint & Declares<infer T>
  ? { readonly [E in keyof T & string as `${G["identifier"]}.${E}`]: T[E] }
  : never
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** The codes of every operation of `Api`, by operation id, as the types see them. */
type ErrorsById = UnionToIntersection<ErrorsOfGroup<ApiGroups>>

/** An operation of the documents, by its `group.endpoint` id. */
export type OperationId = keyof ErrorsById & string

/**
 * The codes a handler of `operation` may fail with: its own and every request's. What the rest of
 * an operation's shape adds in the document (a JSON body's 415, an `Idempotency-Key`'s 409s, a
 * path parameter's 404) is not assumed here, since the type cannot see the shape: an operation
 * whose handler raises one of those lists it too (the document is the same, `codesOf` keeps each
 * code once), so the check is no looser than the document.
 */
export type DocumentedCode<Op extends OperationId> =
  | (ErrorsById[Op] extends Codes ? ErrorsById[Op][number] : never)
  | (typeof everyRequest)[number]

/**
 * A handler's effect, checked at compile time against the codes its operation documents: a
 * service that can fail with a code the operation does not list does not compile. (It needs the
 * service to declare its codes, `ApiErrorOf<...>`; one that says only `ApiError` does not fit.)
 */
export const documented = <Op extends OperationId, A, R>(
  _operation: Op,
  effect: Effect.Effect<A, ApiErrorOf<DocumentedCode<Op>>, R>
): Effect.Effect<A, ApiErrorOf<DocumentedCode<Op>>, R> => effect

type Spec = Record<string, any>

/** The component name of a code's envelope. */
export const errorComponent = (code: ErrorCode) => `Error_${code}`

const ref = (code: ErrorCode) => ({ $ref: `#/components/schemas/${errorComponent(code)}` })

/** The envelope of one code: `code` and `type` fixed, `details` in the code's own shape. */
const envelopeSchema = (code: ErrorCode): Spec => {
  const entry = ErrorCatalog[code]
  const generated = Schema.toJsonSchemaDocument(entry.details as Schema.Top, { onExcessProperty: "error" }).schema
  // A struct without fields comes out as "not null"; the envelope always carries `{}` for it.
  const details = generated["type"] === "object" ? generated : { type: "object", properties: {}, additionalProperties: false }
  return {
    type: "object",
    description: entry.description,
    required: ["error"],
    additionalProperties: false,
    properties: {
      error: {
        type: "object",
        required: ["code", "type", "message", "requestId", "docs_url", "details"],
        additionalProperties: false,
        properties: {
          code: { type: "string", const: code },
          type: { type: "string", const: entry.type },
          message: { type: "string", description: "For a person; may change between versions" },
          requestId: { type: "string", description: "Also in the `X-Request-Id` header; quote it when reporting a problem" },
          docs_url: { type: "string", description: "This code on the error reference page" },
          details
        }
      }
    }
  }
}

const errorStatuses = new Set(errorCodes.map((code) => String(httpStatus[code])))

/** Every code an operation of the document can answer: its own and what its shape brings. */
export const codesOf = (operation: Spec, errors: OperationErrors): Codes => {
  const own: Codes | undefined = errors[operation["operationId"]]
  if (own === undefined) throw new Error(`OperationErrors: no errors declared for ${operation["operationId"]}`)
  const parameters: ReadonlyArray<Spec> = operation["parameters"] ?? []
  return [...new Set([
    ...everyRequest,
    ...(operation["requestBody"]?.["content"]?.["application/json"] === undefined ? [] : jsonBody),
    ...(parameters.some((p) => p["in"] === "header" && String(p["name"]).toLowerCase() === "idempotency-key") ? idempotent : []),
    ...(parameters.some((p) => p["in"] === "path") ? pathParameter : []),
    ...own
  ])]
}

/** An operation whose JSON body has no required field may be sent without one (read as `{}`). */
const optionalBody = (operation: Spec, schemas: Spec) => {
  const body: Spec | undefined = operation["requestBody"]
  let schema: Spec | undefined = body?.["content"]?.["application/json"]?.["schema"]
  const ref = schema?.["$ref"]
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) schema = schemas[ref.slice("#/components/schemas/".length)]
  if (body === undefined || schema?.["type"] !== "object" || (schema["required"]?.length ?? 0) > 0) return
  body["required"] = false
  body["description"] ??= "Every field is optional: the body may be left out, and an empty body is read as `{}`."
}

/**
 * Replaces the generic error responses of each operation with its own, and publishes one envelope
 * per code (`Error_<code>`) plus `Error`, the union of them all, for a client's catch-all.
 */
export const withOperationErrors = (spec: Spec, errors: OperationErrors): Spec => {
  const schemas: Spec = (spec["components"] ??= {})["schemas"] ??= {}
  const used = new Set<ErrorCode>(anyPath)
  for (const item of Object.values<Spec>(spec["paths"] ?? {})) {
    for (const operation of Object.values<Spec>(item)) {
      if (typeof operation !== "object" || operation === null || typeof operation["operationId"] !== "string") continue
      optionalBody(operation, schemas)
      const responses: Spec = operation["responses"] ??= {}
      for (const status of Object.keys(responses)) if (errorStatuses.has(status)) delete responses[status]
      const byStatus = new Map<number, Array<ErrorCode>>()
      for (const code of codesOf(operation, errors)) {
        used.add(code)
        const status = httpStatus[code]
        byStatus.set(status, [...(byStatus.get(status) ?? []), code])
      }
      for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
        responses[String(status)] = {
          description: codes.map((code) => `\`${code}\``).join(", "),
          content: { "application/json": { schema: codes.length === 1 ? ref(codes[0]!) : { oneOf: codes.map(ref) } } }
        }
      }
    }
  }
  delete schemas["ErrorBody"]
  for (const code of errorCodes.filter((c) => used.has(c))) schemas[errorComponent(code)] = envelopeSchema(code)
  schemas["Error"] = {
    description: "Any error envelope: switch on `error.code`; `details` depends on it",
    oneOf: errorCodes.filter((c) => used.has(c)).map(ref)
  }
  return spec
}
