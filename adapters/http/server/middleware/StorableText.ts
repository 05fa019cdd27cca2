/**
 * What a JSON request body may carry into the store, checked once for every endpoint before any
 * of them reads it (RequestLifecycle.ts), whatever the field's schema (`Text`, a bare string, a
 * record's keys, the free-form payout `recipient`):
 *
 * - no NUL character: PostgreSQL text cannot hold one;
 * - well-formed Unicode only: `JSON.parse` turns the escape `\ud800` into a lone UTF-16
 *   surrogate, which is not a character at all. UTF-8 cannot encode it (the driver would store
 *   U+FFFD in its place, silently) and PostgreSQL refuses it in `jsonb` (a 500 before this check);
 * - JSON nested at most `maxJsonDepth` deep: no request of the API nests past a few levels, and a
 *   deeper value would only reach the recursion of whatever serializes it again.
 *
 * The path and the query cannot carry a lone surrogate: their percent escapes decode as UTF-8,
 * which has none (`%ED%A0%80` is refused by the decoder and kept as it is). NUL there is refused
 * by RequestLifecycle.ts.
 */
import { type ApiError, invalidRequest, type Issue } from "../../../../core/ApiError.ts"
import { isWellFormed } from "../../api/Fields.ts"
import { firstProblem } from "../support/ErrorRendering.ts"

/** The deepest nesting of arrays and objects a JSON body may have. */
export const maxJsonDepth = 64

/** The most issues one refusal lists. */
const maxIssues = 10

const nulProblem = "Contains a NUL (\\u0000) character"
const surrogateProblem = "Expected well-formed Unicode text: contains a lone UTF-16 surrogate (e.g. \\ud800 without its pair)"

/** What is wrong with a string as stored text, if anything. */
export const textProblem = (s: string): string | undefined =>
  s.includes("\u0000") ? nulProblem : isWellFormed(s) ? undefined : surrogateProblem

/** A path segment as printable text (a key may itself be ill-formed: U+FFFD stands in). */
const segment = (key: string) => (isWellFormed(key) ? key : key.replace(/[\uD800-\uDFFF]/g, "\uFFFD")).replace(/\u0000/g, "\\u0000")

/**
 * Every string of a JSON value (object keys too) that is not storable text, by its dotted path
 * (`customer.firstName`, `items.0.name`; '' for the body itself), walked without recursion.
 */
export const textIssues = (value: unknown): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  const stack: Array<{ readonly value: unknown; readonly path: string }> = [{ value, path: "" }]
  const at = (path: string, key: string) => (path === "" ? segment(key) : `${path}.${segment(key)}`)
  while (stack.length > 0 && issues.length < maxIssues) {
    const { path, value: v } = stack.pop()!
    if (typeof v === "string") {
      const problem = textProblem(v)
      if (problem !== undefined) issues.push({ path, message: path === "" ? problem : `${path}: ${problem}` })
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: at(path, String(i)) })
    } else if (v !== null && typeof v === "object") {
      const entries = Object.entries(v)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!
        const problem = textProblem(key)
        if (problem !== undefined) issues.push({ path: at(path, key), message: `${at(path, key)}: the field's name: ${problem}` })
        stack.push({ value: child, path: at(path, key) })
      }
    }
  }
  return issues.slice(0, maxIssues)
}

/** Whether JSON text nests arrays and objects deeper than `max` (strings skipped; one pass, no parse). */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  if (text.length <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/** A NUL, or a `\uD800`-`\uDFFF` escape: the only ways a body's text can carry what the store refuses. */
const suspect = /\u0000|\\u0000|\\u[dD][89a-fA-F]/

/**
 * The refusal of a JSON body that is not storable text (`400 invalid_request`, each string named
 * in `details.issues[].path`), or undefined. Text that is not JSON is left to the endpoint
 * (which answers that the body is not valid JSON).
 */
export const refusalOfBody = (text: string): ApiError | undefined => {
  if (nestsDeeperThan(text, maxJsonDepth)) {
    return invalidRequest(`The request body nests arrays and objects more than ${maxJsonDepth} levels deep`, [
      { path: "", message: `Nested more than ${maxJsonDepth} levels deep` }
    ])
  }
  if (!suspect.test(text)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  const issues = textIssues(parsed)
  if (issues.length === 0) return undefined
  return invalidRequest(firstProblem(issues), issues)
}
