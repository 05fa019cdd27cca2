/** The credential store in memory: API keys and refresh-token families. */
import { DateTime, Effect, Layer, Option } from "effect"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { rowsOf, unique } from "./MemoryRows.ts"

/** The credentials' unique keys, journaled like the rows: `pk|<publishable key>` and `sk|<secret hash>` to the credential's id. */
const credentialKeys = (db: MemoryDb["Service"]) => db.table<string>("credential_keys")

/** A merchant's credentials (ids). */
const credentialsOf = (db: MemoryDb["Service"], merchantId: string) => db.table<true>(`credentials_of|${merchantId}`)

/** The credential a key names, through the unique index. */
export const credentialByKey = (db: MemoryDb["Service"], key: { readonly publishableKey: string } | { readonly secretHash: string }) => {
  const id = credentialKeys(db).get("publishableKey" in key ? `pk|${key.publishableKey}` : `sk|${key.secretHash}`)
  return id === undefined ? undefined : db.table<Credential>("credentials").get(id)
}

export const MemoryCredentialStore = Layer.effect(
  CredentialStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const credentials = db.table<Credential>("credentials")
    const keys = credentialKeys(db)
    const tokens = db.table<RefreshToken>("refresh_tokens")
    /** Refresh tokens by hash (unique) and by family, so a lookup costs what it finds, not what the store holds. */
    const tokenHashes = db.table<string>("refresh_token_hashes")
    const family = (familyId: string) => db.table<true>(`refresh_family|${familyId}`)
    /** Families revoked by a reused refresh token, by id (an index, so an access token costs one lookup). */
    const revokedFamilies = db.table<DateTime.Utc>("revoked_refresh_families")
    return CredentialStore.of({
      insert: (c) =>
        db.run(Effect.suspend(() =>
          credentials.has(c.id) || (c.publishableKey !== null && keys.has(`pk|${c.publishableKey}`)) || keys.has(`sk|${c.secretHash}`)
            ? unique("credential", c.id)
            : Effect.sync(() => {
              credentials.set(c.id, c)
              if (c.publishableKey !== null) keys.set(`pk|${c.publishableKey}`, c.id)
              keys.set(`sk|${c.secretHash}`, c.id)
              credentialsOf(db, c.merchantId).set(c.id, true)
            })
        )),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(credentials.get(id)))),
      findByPublishableKey: (publishableKey) => db.run(Effect.sync(() => Option.fromNullishOr(credentialByKey(db, { publishableKey })))),
      findBySecretHash: (secretHash) => db.run(Effect.sync(() => Option.fromNullishOr(credentialByKey(db, { secretHash })))),
      listActiveForShop: (merchantId, shopId) =>
        db.run(Effect.sync(() =>
          rowsOf(credentials, credentialsOf(db, merchantId)).filter((c) => c.revokedAt === null && (c.shopId === null || c.shopId === shopId))
        )),
      revoke: (ids, at) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const id of ids) {
            const c = credentials.get(id)
            if (c !== undefined && c.revokedAt === null) {
              credentials.set(id, { ...c, revokedAt: at })
              n++
            }
          }
          return n
        })),
      insertRefreshToken: (t) =>
        db.run(Effect.suspend(() =>
          tokens.has(t.id) || tokenHashes.has(t.tokenHash)
            ? unique("refresh token", t.id)
            : Effect.sync(() => {
              tokens.set(t.id, t)
              tokenHashes.set(t.tokenHash, t.id)
              family(t.familyId).set(t.id, true)
            })
        )),
      findRefreshToken: (hash) =>
        db.run(Effect.sync(() => {
          const id = tokenHashes.get(hash)
          return Option.fromNullishOr(id === undefined ? undefined : tokens.get(id))
        })),
      markRefreshTokenUsed: (id, at) =>
        db.run(Effect.sync(() => {
          const t = tokens.get(id)
          if (t === undefined || t.usedAt !== null || t.revokedAt !== null) return false
          tokens.set(id, { ...t, usedAt: at })
          return true
        })),
      revokeRefreshFamily: (familyId, at) =>
        db.run(Effect.sync(() => {
          let n = 0
          for (const t of rowsOf(tokens, family(familyId))) {
            if (t.revokedAt === null) {
              tokens.set(t.id, { ...t, revokedAt: at })
              n++
            }
          }
          revokedFamilies.set(familyId, at)
          return n
        })),
      isFamilyRevoked: (familyId) => db.run(Effect.sync(() => revokedFamilies.has(familyId)))
    })
  })
)
