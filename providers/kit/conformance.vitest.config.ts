/** The vitest configuration of `npm run conformance -- <provider folder>`: that folder's `*.conformance.ts` files only. */
import { defineConfig } from "vitest/config"
import base from "../../vitest.config.ts"

const folder = (process.env["CONFORMANCE_DIR"] ?? "providers").replace(/\/+$/, "")

export default defineConfig({ ...base, test: { ...base.test, include: [`${folder}/**/*.conformance.ts`] } })
