/**
 * Where the vault keeps its sealed cards and its audit trail. A record holds, in the clear, only
 * what a token may say (brand, BIN, last 4, fingerprint); the number, expiry and holder name are
 * one sealed blob under the record's data key, which is stored wrapped by a KEK.
 */
import { Context, type Effect, Schema } from "effect"
import type { CardBrand } from "../../core/ports/CardVault.ts"

export interface CardRecord {
  readonly token: string
  readonly merchantId: string
  readonly brand: CardBrand
  readonly bin: string
  readonly last4: string
  readonly fingerprint: string
  readonly keyId: string
  readonly wrappedKey: string
  readonly sealed: string
  readonly createdAt: Date
}

export interface AuditEntry {
  readonly at: Date
  readonly action: "tokenize" | "forward"
  /** Who used the number: `engine`, or `merchant:<id>` for a tokenization. */
  readonly actor: string
  readonly merchantId: string
  readonly token: string
  readonly providerId: string | null
  readonly host: string | null
}

export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  message: Schema.String
}) {}

export class CardStore extends Context.Service<CardStore, {
  readonly insert: (record: CardRecord) => Effect.Effect<void, StoreUnavailable>
  readonly find: (token: string) => Effect.Effect<CardRecord | undefined, StoreUnavailable>
  /** Up to `limit` records whose data key is wrapped under a KEK other than `keyId`. */
  readonly wrappedOtherThan: (keyId: string, limit: number) => Effect.Effect<ReadonlyArray<Pick<CardRecord, "token" | "keyId" | "wrappedKey">>, StoreUnavailable>
  /** Replaces a record's wrapped key if it is still wrapped under `fromKeyId`; false when another rotation got there first. */
  readonly rewrap: (token: string, fromKeyId: string, toKeyId: string, wrappedKey: string) => Effect.Effect<boolean, StoreUnavailable>
  readonly appendAudit: (entry: AuditEntry) => Effect.Effect<void, StoreUnavailable>
  readonly audit: (token: string) => Effect.Effect<ReadonlyArray<AuditEntry>, StoreUnavailable>
}>()("vault/store/CardStore") {}
