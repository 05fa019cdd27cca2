/** Card numbers and configuration for the vault's tests. */
import { Redacted } from "effect"
import type { VaultConfig } from "../../vault/VaultConfig.ts"

/** Completes a prefix with digits and the Luhn check digit to `length` digits. */
export const luhnNumber = (prefix: string, length: number): string => {
  let body = prefix
  while (body.length < length - 1) body += String((body.length * 7) % 10)
  for (let check = 0; check <= 9; check++) {
    const candidate = body + check
    let sum = 0
    for (let i = 0; i < candidate.length; i++) {
      let d = Number(candidate[candidate.length - 1 - i])
      if (i % 2 === 1) {
        d *= 2
        if (d > 9) d -= 9
      }
      sum += d
    }
    if (sum % 10 === 0) return candidate
  }
  throw new Error("unreachable")
}

export const cards = {
  visa: "4111111111111111",
  mastercard: "5555555555554444",
  mastercard2: "2223003122003222",
  amex: "378282246310005",
  diners: "36227206271667",
  discover: "6011111111111117",
  elo: luhnNumber("636297", 16),
  eloInDiscoverRange: luhnNumber("650035", 16),
  eloInVisaRange: luhnNumber("457631", 16),
  hipercard: luhnNumber("606282", 16),
  carnet: luhnNumber("506199", 16)
} as const

export const hexKey = (byte: number) => byte.toString(16).padStart(2, "0").repeat(32)

export const testConfig = (overrides: Partial<VaultConfig> = {}): VaultConfig => ({
  port: 0,
  host: "127.0.0.1",
  database: { _tag: "pglite" },
  keks: [{ id: "a", key: Uint8Array.from(Buffer.from(hexKey(0xa1), "hex")) }],
  fingerprintSecret: Redacted.make("fingerprint-secret-for-tests-0123456789"),
  engineKey: Redacted.make("engine-key-for-tests-0123456789abcdef"),
  sessionSecret: Redacted.make("session-secret-for-tests-0123456789abcdef"),
  forwardHosts: [],
  allowHttpLoopback: false,
  forwardTimeoutMs: 5_000,
  securityCodeTtlMs: 10 * 60_000,
  ...overrides
})

/** 2 December 2026, noon UTC: the vault's clock in tests that check expiry. */
export const today = Date.UTC(2026, 11, 2, 12)
