/**
 * The Circle simulator's rules for what a request may hold (`CircleSimulator.ts`): the address
 * patterns per chain, idempotency keys as UUID v4, and Circle's error bodies
 * (`{ code, message, errors }`). Test tooling, never imported by the plugin.
 */
import { Schema } from "effect"
import type { Answer } from "../kit/SimulatorServer.ts"
import * as Wire from "./Wire.ts"

const evmChains = new Set(["ETH", "ARB", "AVAX", "BASE", "CELO", "OP", "POLY"])
export const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

/** Whether `address` looks like an address on `chain` (the simulator's rule, see the README). */
export const addressFits = (chain: string, address: string): boolean =>
  evmChains.has(chain)
    ? /^0x[0-9a-fA-F]{40}$/.test(address)
    : chain === "SOL"
    ? /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)
    : /^[\x21-\x7e]{20,128}$/.test(address)

export const error = (status: number, code: number, message: string, errors?: ReadonlyArray<unknown>): Answer => ({
  status,
  body: errors === undefined ? { code, message } : { code, message, errors }
})

export const invalid = (location: string, kind: string, message: string) =>
  error(400, 2, `Invalid entity. ${message}`, [{ error: kind, location, message }])

export const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

export const isIdentities = Schema.is(Schema.Array(Wire.Identity).pipe(Schema.check(Schema.isMinLength(1))))
