/**
 * The language catalogs: English defines the keys, and Portuguese and Spanish have every one of
 * them, no more. The compiler checks it (the `@ts-expect-error` lines below fail to compile if a
 * catalog without a word, or with a word English lacks, were accepted); the run checks that every
 * word is a non-empty text or a function, so a catalog cannot satisfy its type with blanks.
 */
import { assert, describe, it } from "@effect/vitest"
import { type Catalog, catalogs, type Language } from "../../adapters/http/i18n/Catalogs.ts"

const { title: _title, ...withoutTitle } = catalogs.pt.pages
// @ts-expect-error a catalog that lacks a word English has does not compile
export const _missing: Catalog["pages"] = withoutTitle
export const _extra: Catalog["console"]["shell"]["page"] = {
  ...catalogs.es.console.shell.page,
  // @ts-expect-error nor does one with a word English lacks
  unknownWord: "palabra"
}

/** The paths of a catalog's words, in order, each with what it is. */
const words = (value: unknown, at: string): ReadonlyArray<readonly [string, string]> =>
  typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([key, inner]) => words(inner, at === "" ? key : `${at}.${key}`))
    : [[at, typeof value === "string" ? (value === "" ? "empty" : "text") : typeof value]]

describe("language catalogs", () => {
  it("Portuguese and Spanish have exactly English's words, each a text or a function", () => {
    const english = words(catalogs.en, "")
    assert.isTrue(english.length > 100)
    for (const language of ["pt", "es"] satisfies ReadonlyArray<Language>) {
      assert.deepStrictEqual(words(catalogs[language], "").map(([path]) => path).sort(), english.map(([path]) => path).sort(), language)
      for (const [path, kind] of words(catalogs[language], "")) assert.include(["text", "function"], kind, `${language} ${path}`)
    }
  })
})
