/**
 * The error table is derived from the endpoint definitions (`byEndpoint` is typed by `Api`'s
 * groups and endpoints): here, what it derives is what the two published documents show. Every
 * endpoint of `Api` has exactly one entry, every operation of the documents is one of them, and
 * each operation's error responses carry exactly its codes (its own and what its shape adds).
 */
import { describe, expect, it } from "vitest"
import { OpenApi } from "effect/http-api"
import { AdminDocument, Api } from "../../adapters/http/api/Api.ts"
import { codesOf, errorComponent, operationErrors } from "../../adapters/http/api/OperationErrors.ts"

type Spec = Record<string, any>

const operationsOf = (spec: Spec): ReadonlyArray<Spec> =>
  Object.values<Spec>(spec["paths"] ?? {}).flatMap((item) =>
    Object.values<Spec>(item).filter((op) => typeof op === "object" && op !== null && typeof op["operationId"] === "string"))

/**
 * The codes an operation's error responses name: their `Error_<code>` references, or for a
 * response without a body (`HEAD`) the codes its description lists.
 */
const shownCodes = (operation: Spec): ReadonlyArray<string> =>
  Object.entries<Spec>(operation["responses"] ?? {})
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([, response]) => {
      const schema: Spec | undefined = response["content"]?.["application/json"]?.["schema"]
      if (schema === undefined) return [...String(response["description"]).matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)
      return [...(schema["oneOf"] ?? [schema])].map((s: Spec) => String(s["$ref"]).replace("#/components/schemas/Error_", ""))
    })

describe("the operation error table", () => {
  const documents = [OpenApi.fromApi(Api), OpenApi.fromApi(AdminDocument)] as ReadonlyArray<Spec>
  const documented = documents.flatMap(operationsOf)

  it("has one entry per endpoint of the API, by group and endpoint name", () => {
    const endpoints = Object.values<any>(Api.groups).flatMap((group) =>
      Object.keys(group.endpoints).map((endpoint) => `${group.identifier}.${endpoint}`))
    expect(Object.keys(operationErrors).sort()).toEqual([...new Set(endpoints)].sort())
  })

  it("is what the documents show: the same operations, each with its codes and nothing else", () => {
    expect(documented.map((op) => op["operationId"]).sort()).toEqual(Object.keys(operationErrors).sort())
    for (const operation of documented) {
      const id: string = operation["operationId"]
      const shown = [...shownCodes(operation)].sort()
      expect(shown, id).toEqual([...codesOf(operation)].sort())
      for (const code of (operationErrors as Record<string, ReadonlyArray<string>>)[id]!) {
        expect(shown, id).toContain(code)
        expect(documents.some((d) => d["components"]?.["schemas"]?.[errorComponent(code as never)] !== undefined), code).toBe(true)
      }
    }
  })
})
