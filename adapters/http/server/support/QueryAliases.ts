/**
 * A query parameter a client may send under either of two names: the name its operation's body
 * uses for the same field, and an older or spec-fixed one. The value and the name it came under,
 * so that a refusal names the field the client sent; neither name is `400 invalid_request`
 * (missing, under the first name), both with different values is one naming the second.
 */
import { Effect } from "effect"
import { type ApiErrorOf, invalidRequest } from "../../../../core/ApiError.ts"

export const aliasedParameter = <A>(
  query: Readonly<Record<string, A | undefined>>,
  name: string,
  alias: string
): Effect.Effect<{ readonly name: string; readonly value: A }, ApiErrorOf<"invalid_request">> => {
  const first = query[name]
  const second = query[alias]
  if (first !== undefined && second !== undefined && first !== second) {
    return Effect.fail(invalidRequest(`${alias} and ${name} name one parameter: send one of them`, [{ path: alias, message: `Conflicts with ${name}` }]))
  }
  if (first !== undefined) return Effect.succeed({ name, value: first })
  if (second !== undefined) return Effect.succeed({ name: alias, value: second })
  return Effect.fail(invalidRequest(`Missing required parameter: ${name}`, [{ path: name, message: `Missing required parameter: ${name} (or ${alias})` }], [name]))
}
