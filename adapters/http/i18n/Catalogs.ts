/**
 * The catalogs by language: one file per language (`en.ts` defines the keys, `pt.ts` and `es.ts`
 * must match them). The buyer's pages and the console look their words up here.
 */
import { type Catalog, en } from "./en.ts"
import { es } from "./es.ts"
import { pt } from "./pt.ts"

export type { Catalog }

export type Language = "pt" | "es" | "en"

export const catalogs: Readonly<Record<Language, Catalog>> = { en, pt, es }
