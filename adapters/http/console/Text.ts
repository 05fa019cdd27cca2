/**
 * The console in English, Portuguese and Spanish. Each page module picks its words from the
 * language catalogs (`adapters/http/i18n`) with `dictionary`: Portuguese and Spanish must have every
 * key English has (the compiler checks). The language is the one chosen in the footer (a cookie),
 * else the browser's (`Accept-Language`), else English.
 */
import type { HttpServerRequest } from "effect/http"
import { type Catalog, catalogs } from "../i18n/Catalogs.ts"
import { type Language, languageFor } from "../server/pages/PageText.ts"

export type { Language }

export const languageCookie = "console_lang"
export const languageNames: Readonly<Record<Language, string>> = { en: "English", pt: "Português", es: "Español" }

/** A page module's words in a language: `pick` chooses the module's entry of a catalog. */
export const dictionary = <W extends Readonly<Record<string, string>>>(pick: (catalog: Catalog) => W) =>
(language: Language): Readonly<W> => pick(catalogs[language])

export const languageOf = (request: HttpServerRequest.HttpServerRequest): Language => {
  const chosen = request.cookies[languageCookie]
  if (chosen === "en" || chosen === "pt" || chosen === "es") return chosen
  const accepted = request.headers["accept-language"]
  return accepted === undefined ? "en" : languageFor(null, accepted)
}

/** A date and time as the language writes it, in UTC (the API's zone), to the minute. */
export const formatDateTime = (iso: string | null | undefined, language: Language): string => {
  if (iso === null || iso === undefined || iso === "") return "—"
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const locale = language === "pt" ? "pt-BR" : language === "es" ? "es-MX" : "en-US"
  return `${date.toLocaleString(locale, { timeZone: "UTC", year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit" })} UTC`
}
