/**
 * The cards the vault holds: tokenize (validate, seal, record), describe a token, open one for a
 * forward, and re-wrap every record's data key under the current KEK. Every use of a card number
 * (tokenization here, forwards in `Forwarder`) writes an audit row.
 */
import { Clock, Context, Effect, Layer, Redacted, Schema } from "effect"
import type { CardDescription } from "../../core/ports/CardVault.ts"
import { KeyManagement, type KeyUnavailable } from "../keys/KeyManagement.ts"
import { CardStore, type StoreUnavailable } from "../store/CardStore.ts"
import { binOf } from "./Brands.ts"
import { type CardInput, type CardRejected, validate } from "./CardInput.ts"
import { fingerprinter } from "./Fingerprint.ts"
import { type CardSecret, newDataKey, open, seal } from "./Sealing.ts"
import { SecurityCodes } from "./SecurityCodes.ts"
import { newCardToken } from "./Tokens.ts"

export class CardNotFound extends Schema.TaggedError<CardNotFound>()("CardNotFound", {
  token: Schema.String
}) {}

/** A record that does not open: its KEK is gone or its bytes were changed. Never a user's fault. */
export class CardUnreadable extends Schema.TaggedError<CardUnreadable>()("CardUnreadable", {
  token: Schema.String,
  message: Schema.String
}) {}

export interface CardsConfig {
  readonly fingerprintSecret: Redacted.Redacted<string>
}

export interface RotationReport {
  readonly rewrapped: number
}

export class Cards extends Context.Service<Cards, {
  readonly tokenize: (input: CardInput, actor: string) => Effect.Effect<CardDescription, CardRejected | KeyUnavailable | StoreUnavailable>
  readonly describe: (merchantId: string, token: string) => Effect.Effect<CardDescription, CardNotFound | CardUnreadable | StoreUnavailable>
  /** The sealed part of a merchant's card, for a forward: never leaves the vault's process but to an allowlisted host. */
  readonly reveal: (merchantId: string, token: string) => Effect.Effect<Redacted.Redacted<CardSecret>, CardNotFound | CardUnreadable | StoreUnavailable>
  /** Re-wraps, `batchSize` records at a time, every data key not under the current KEK. Reads go on meanwhile. */
  readonly rotateKeys: (options?: { readonly batchSize?: number }) => Effect.Effect<RotationReport, KeyUnavailable | StoreUnavailable>
}>()("vault/cards/Cards") {
  static readonly layer = (config: CardsConfig) =>
    Layer.effect(Cards, Effect.gen(function*() {
      const keys = yield* KeyManagement
      const store = yield* CardStore
      const codes = yield* SecurityCodes
      const fingerprint = fingerprinter(config.fingerprintSecret)

      const openRecord = Effect.fn("Cards.openRecord")(function*(merchantId: string, token: string) {
        const record = yield* store.find(token)
        // Another merchant's token is as unknown as one never issued.
        if (record === undefined || record.merchantId !== merchantId) return yield* new CardNotFound({ token })
        const dataKey = yield* Effect.mapError(
          keys.unwrap({ keyId: record.keyId, wrapped: record.wrappedKey }),
          (e) => new CardUnreadable({ token, message: e.message })
        )
        const secret = yield* Effect.try({
          try: () => open(dataKey, record.token, record.merchantId, record.sealed),
          catch: () => new CardUnreadable({ token, message: "the card record did not open under its data key" })
        })
        return { record, secret }
      })

      const tokenize = Effect.fn("Cards.tokenize")(function*(input: CardInput, actor: string) {
        const card = yield* validate(input)
        const token = newCardToken()
        const dataKey = newDataKey()
        const wrapped = yield* keys.wrap(dataKey)
        const now = new Date(yield* Clock.currentTimeMillis)
        const secret: CardSecret = { number: card.number, expMonth: card.expMonth, expYear: card.expYear, holderName: card.holderName }
        const record = {
          token,
          merchantId: card.merchantId,
          brand: card.brand,
          bin: binOf(card.number, card.brand),
          last4: card.number.slice(-4),
          fingerprint: fingerprint(card.merchantId, card.number),
          keyId: wrapped.keyId,
          wrappedKey: wrapped.wrapped,
          sealed: seal(dataKey, token, card.merchantId, secret),
          createdAt: now
        }
        yield* store.insert(record)
        yield* store.appendAudit({ at: now, action: "tokenize", actor, merchantId: card.merchantId, token, providerId: null, host: null })
        if (card.securityCode !== undefined) yield* codes.put(token, card.securityCode)
        return {
          token,
          merchantId: record.merchantId,
          brand: record.brand,
          bin: record.bin,
          last4: record.last4,
          expMonth: secret.expMonth,
          expYear: secret.expYear,
          holderName: secret.holderName,
          fingerprint: record.fingerprint,
          securityCodeHeld: card.securityCode !== undefined
        } satisfies CardDescription
      })

      const describe = Effect.fn("Cards.describe")(function*(merchantId: string, token: string) {
        const { record, secret } = yield* openRecord(merchantId, token)
        return {
          token,
          merchantId,
          brand: record.brand,
          bin: record.bin,
          last4: record.last4,
          expMonth: secret.expMonth,
          expYear: secret.expYear,
          holderName: secret.holderName,
          fingerprint: record.fingerprint,
          securityCodeHeld: yield* codes.held(token)
        } satisfies CardDescription
      })

      const reveal = (merchantId: string, token: string) => Effect.map(openRecord(merchantId, token), ({ secret }) => Redacted.make(secret))

      const rotateKeys = Effect.fn("Cards.rotateKeys")(function*(options?: { readonly batchSize?: number }) {
        const batchSize = options?.batchSize ?? 100
        let rewrapped = 0
        for (;;) {
          const batch = yield* store.wrappedOtherThan(keys.currentKeyId, batchSize)
          if (batch.length === 0) return { rewrapped }
          for (const row of batch) {
            const dataKey = yield* keys.unwrap({ keyId: row.keyId, wrapped: row.wrappedKey })
            const next = yield* keys.wrap(dataKey)
            // Each record is one UPDATE guarded by its old key id: a read meanwhile sees either wrapping, both open.
            if (yield* store.rewrap(row.token, row.keyId, next.keyId, next.wrapped)) rewrapped++
          }
        }
      })

      return Cards.of({ tokenize, describe, reveal, rotateKeys })
    }))
}
