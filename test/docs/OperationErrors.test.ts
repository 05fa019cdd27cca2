/**
 * The error table is derived from the endpoint definitions (each group's `withErrors`, which the
 * types hold to the group's endpoints): here, every group of `Api` carries its codes, one entry
 * per endpoint, and what the table derives is what the two published documents show. Every
 * operation of the documents is an endpoint of `Api`, and each operation's error responses carry
 * exactly its codes (its own and what its shape adds).
 */
import { describe, expect, it } from "vitest"
import { Context } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AdminDocument, Api, operationErrors } from "../../adapters/http/api/Api.ts"
import { GroupErrors, operationErrorsOf, withErrors } from "../../adapters/http/api/EndpointErrors.ts"
import { codesOf, errorComponent } from "../../adapters/http/api/OperationErrors.ts"

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

  it("reads each endpoint's codes from its group as the API holds it", () => {
    for (const group of Object.values<any>(Api.groups)) {
      const declared = Context.getOrUndefined(group.annotations, GroupErrors)
      expect(declared, group.identifier).toBeDefined()
      expect(Object.keys(declared!).sort(), group.identifier).toEqual(Object.keys(group.endpoints).sort())
      for (const [endpoint, codes] of Object.entries(declared!)) {
        expect(operationErrors[`${group.identifier}.${endpoint}`], `${group.identifier}.${endpoint}`).toEqual(codes)
      }
    }
  })

  it("refuses a group that leaves an endpoint without its codes: the compiler, and reading them back, naming it", () => {
    const group = HttpApiGroup.make("incomplete").add(HttpApiEndpoint.get("listed", "/a"), HttpApiEndpoint.get("forgotten", "/b"))
    // @ts-expect-error no errors stated for endpoint forgotten
    const declared = group.pipe(withErrors({ listed: ["not_found"] }))
    expect(() => operationErrorsOf([declared])).toThrow("incomplete.forgotten")
  })

  it("is what the documents show: the same operations, each with its codes and nothing else", () => {
    expect(documented.map((op) => op["operationId"]).sort()).toEqual(Object.keys(operationErrors).sort())
    for (const operation of documented) {
      const id: string = operation["operationId"]
      const shown = [...shownCodes(operation)].sort()
      expect(shown, id).toEqual([...codesOf(operation, operationErrors)].sort())
      for (const code of operationErrors[id]!) {
        expect(shown, id).toContain(code)
        expect(documents.some((d) => d["components"]?.["schemas"]?.[errorComponent(code as never)] !== undefined), code).toBe(true)
      }
    }
  })
})
