/**
 * The key-encryption keys (KEKs) that wrap each card record's data key. The vault never stores a
 * KEK: a record holds its data key wrapped, with the id of the KEK that wrapped it. The port is
 * shaped like a cloud KMS or HashiCorp Vault transit (`encrypt`/`decrypt` of a small key under a
 * named key), so either can implement it; `LocalKeyManagement` holds the keys in memory.
 */
import { Context, type Effect, Schema } from "effect"

export interface WrappedKey {
  /** The KEK that wrapped the data key. */
  readonly keyId: string
  /** The data key sealed under that KEK (base64). */
  readonly wrapped: string
}

/** A data key could not be wrapped or unwrapped: its KEK is unknown, or the wrapped bytes do not open. */
export class KeyUnavailable extends Schema.TaggedError<KeyUnavailable>()("KeyUnavailable", {
  keyId: Schema.String,
  message: Schema.String
}) {}

export class KeyManagement extends Context.Service<KeyManagement, {
  /** The KEK new data keys (and rotated ones) are wrapped under. */
  readonly currentKeyId: string
  readonly wrap: (dataKey: Uint8Array) => Effect.Effect<WrappedKey, KeyUnavailable>
  readonly unwrap: (key: WrappedKey) => Effect.Effect<Uint8Array, KeyUnavailable>
}>()("vault/keys/KeyManagement") {}
