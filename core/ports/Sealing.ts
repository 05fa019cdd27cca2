import { Context, type Effect } from "effect"

/**
 * Seals secrets the engine must read back (webhook signing secrets, a generated token signing
 * key, connector credentials) before they are stored, under a key the database does not hold:
 * whoever reads a backup reads ciphertext. Envelope encryption: each value gets its own data key,
 * and that data key is stored wrapped by the key-encryption key the host is given; the sealed
 * text names which key-encryption key wrapped it, so that key can rotate.
 *
 * `context` binds a sealed value to where it is stored (e.g. `webhook:<id>`): unsealing it under
 * another context fails, so a sealed value copied into another row is useless there.
 */
export class Sealing extends Context.Service<Sealing, {
  readonly seal: (plaintext: string, context: string) => Effect.Effect<string>
  /** The plaintext; a value that is not sealed (written before sealing existed) is answered as is. */
  readonly unseal: (stored: string, context: string) => Effect.Effect<string>
  /** Whether a stored value is sealed (plaintext rows are sealed on the next start). */
  readonly isSealed: (stored: string) => boolean
  /**
   * A signature of `data` under the current key, bound to `context` (`<kid>.<hex>`: HMAC-SHA256
   * with a key derived from the key-encryption key): what the audit log's rows carry, so that a
   * writer without the key cannot rewrite them, even recomputing their hashes.
   */
  readonly sign: (data: string, context: string) => Effect.Effect<string>
  /** Whether `signature` is `sign(data, context)` under the key it names (false for a key this host was not given). */
  readonly verifySigned: (data: string, context: string, signature: string) => Effect.Effect<boolean>
}>()("core/ports/Sealing") {}
