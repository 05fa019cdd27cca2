/**
 * The buyer's pages in the buyer's language: Portuguese for Brazil, Spanish for the other
 * Latin-American countries, English otherwise, from the session's country; a supported language
 * the browser prefers (`Accept-Language`) wins over the country. The words are in the language's
 * catalog (`adapters/http/i18n`).
 */
import type { PaymentMethodDef } from "../../../../core/catalog/PaymentMethod.ts"
import { catalogs, type Language } from "../../i18n/Catalogs.ts"
import type { PageText } from "../../i18n/en.ts"

export type { Language, PageText }
export type { SandboxText } from "../../i18n/en.ts"

const languages: ReadonlyArray<Language> = ["pt", "es", "en"]

/** ISO-3 and ISO-2 codes of the countries whose buyers read Spanish. */
const spanishSpeaking = new Set([
  "ARG", "BOL", "CHL", "COL", "CRI", "CUB", "DOM", "ECU", "SLV", "GTM", "HND", "MEX", "NIC", "PAN", "PRY", "PER", "PRI", "URY", "VEN", "ESP",
  "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "SV", "GT", "HN", "MX", "NI", "PA", "PY", "PE", "PR", "UY", "VE", "ES"
])

/** `Accept-Language`'s supported languages, most preferred first (q-values honoured). */
const preferred = (header: string | undefined): ReadonlyArray<Language> =>
  (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q.slice(2)) || 0, index }
    })
    .filter((p) => p.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .flatMap((p) => languages.includes(p.language as Language) ? [p.language as Language] : [])

export const languageFor = (country: string | null, acceptLanguage: string | undefined): Language => {
  const asked = preferred(acceptLanguage)[0]
  if (asked !== undefined) return asked
  if (country === "BRA" || country === "BR") return "pt"
  return country !== null && spanishSpeaking.has(country) ? "es" : "en"
}

/** The names the page shows: a method whose name another method of the page shares gets its kind. */
export const displayNames = (methods: ReadonlyArray<PaymentMethodDef>, language: Language): ReadonlyMap<string, string> => {
  // Widened so a method of a kind the catalog does not name falls back to its own label.
  const kinds: Readonly<Record<string, string | undefined>> = pageText[language].kinds
  const count = new Map<string, number>()
  for (const m of methods) count.set(m.name, (count.get(m.name) ?? 0) + 1)
  return new Map(methods.map((m) => [
    m.id,
    (count.get(m.name) ?? 0) > 1 ? `${m.name} — ${kinds[m.method] ?? m.methodLabel.toLowerCase()}` : m.name
  ]))
}

/** Each language's words for the buyer's pages, from its catalog. */
export const pageText: Readonly<Record<Language, PageText>> = { en: catalogs.en.pages, pt: catalogs.pt.pages, es: catalogs.es.pages }
