/**
 * A schema's identifier is its name in the published documents (`components.schemas`), the name a
 * generated client gives its type. Two different schemas claiming one identifier make the
 * generator rename one (`Settlement_1`), and every `$ref` to the name then means whichever it
 * kept: the identifiers of the code are unique, and neither document has a renamed component.
 */
import { describe, expect, it } from "vitest"
import { Schema, SchemaAST } from "effect"
import { HttpApi, OpenApi } from "effect/http-api"
import { AdminDocument, Api } from "../../adapters/http/api/Api.ts"

/** Every schema AST reachable from the endpoints of an API (parameters, payloads, successes, errors). */
const schemasOf = (api: HttpApi.Top): Map<string, Set<SchemaAST.AST>> => {
  const byIdentifier = new Map<string, Set<SchemaAST.AST>>()
  const seen = new Set<SchemaAST.AST>()
  const visit = (ast: SchemaAST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    const identifier = SchemaAST.resolveIdentifier(ast)
    if (identifier !== undefined) byIdentifier.set(identifier, (byIdentifier.get(identifier) ?? new Set()).add(ast))
    const node = ast as any
    for (const p of node.propertySignatures ?? []) visit(p.type)
    for (const i of node.indexSignatures ?? []) {
      visit(i.parameter)
      visit(i.type)
    }
    for (const child of [...(node.elements ?? []), ...(node.rest ?? []), ...(node.types ?? []), ...(node.typeParameters ?? [])]) visit(child)
    if (typeof node.thunk === "function") visit(node.thunk())
    for (const link of node.encoding ?? []) visit(link.to)
  }
  const schema = (s: Schema.Top | undefined) => s !== undefined && visit(s.ast)
  HttpApi.reflect(api as any, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, errors, successes }) => {
      schema(endpoint.params)
      schema(endpoint.query)
      schema(endpoint.headers)
      for (const entry of (endpoint.payload as ReadonlyMap<string, any>).values()) {
        for (const s of entry.schemas) if (Schema.isSchema(s)) schema(s)
      }
      for (const list of [...successes.values(), ...errors.values()]) for (const s of list) schema(s)
    }
  })
  return byIdentifier
}

/** What a schema says, as JSON Schema: two ASTs of one identifier that say the same are one schema (an annotation re-applied). */
const meaning = (ast: SchemaAST.AST) => JSON.stringify(Schema.toJsonSchemaDocument(Schema.make(ast)))

describe("schema identifiers", () => {
  for (const [name, api] of [["merchant", Api], ["operator", AdminDocument]] as const) {
    it(`no two different schemas of the ${name} API claim one identifier`, () => {
      const clashes = [...schemasOf(api as any)]
        .filter(([, asts]) => new Set([...asts].map(meaning)).size > 1)
        .map(([identifier]) => identifier)
      expect(clashes).toEqual([])
    })

    it(`the ${name} document renames no component (no \`_1\` suffix)`, () => {
      const names = Object.keys((OpenApi.fromApi(api as any) as any).components.schemas)
      expect(names.length).toBeGreaterThan(10)
      expect(names.filter((n) => /_\d+$/.test(n))).toEqual([])
    })
  }
})
