/** The card page's routes (`GET /fields`, `POST /fields`). */
import { Layer } from "effect"
import type { VaultConfig } from "../VaultConfig.ts"

export const pageRoutes = (_config: VaultConfig) => Layer.empty
