/** The merchant API's operations as its definition lists them, for the permission matrices (restricted keys, team roles). */
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup, type HttpApiMiddleware } from "effect/http-api"
import { PublicApi } from "../../adapters/http/api/Api.ts"

const keyed = new Set(["adapters/http/SecretKey", "adapters/http/AnyKey"])

export interface Operation {
  readonly group: string
  readonly endpoint: HttpApiEndpoint.Top
  /** Whether it takes a key (or a token): the operations a permission can cover. */
  readonly takesKey: boolean
}

export const operations = (): ReadonlyArray<Operation> => {
  const rows: Array<Operation> = []
  HttpApi.reflect(PublicApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, middleware }: { group: HttpApiGroup.Top; endpoint: HttpApiEndpoint.Top; middleware: ReadonlySet<HttpApiMiddleware.AnyService> }) => {
      rows.push({ group: group.identifier, endpoint, takesKey: [...middleware].some((m) => keyed.has(m.key)) })
    }
  })
  return rows
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->` in a document. */
export const between = (document: string, name: string) => new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(document)?.[1]
