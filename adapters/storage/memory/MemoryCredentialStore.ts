/** The credential store in memory: API keys and refresh-token families. */
import { DateTime, Effect, Layer, Option } from "effect"
import type { Credential, RefreshToken } from "../../../core/auth/Credential.ts"
import { CredentialStore } from "../../../core/ports/CredentialStore.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { find, unique } from "./MemoryRows.ts"

export const MemoryCredentialStore = Layer.effect(
  CredentialStore,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const credentials = db.table<Credential>("credentials")
    const tokens = db.table<RefreshToken>("refresh_tokens")
    /** Families revoked by a reused refresh token, by id (an index, so an access token costs one lookup). */
    const revokedFamilies = db.table<DateTime.Utc>("revoked_refresh_families")
    return CredentialStore.of({
      insert: (c) =>
        db.run(Effect.suspend(() =>
          credentials.has(c.id) || Option.isSome(find(credentials, (x) => x.publishableKey === c.publishableKey || x.secretHash === c.secretHash))
            ? unique("credential", c.id)
            : Effect.sync(() => void credentials.set(c.id, c))
        )),
      findById: (id) => db.run(Effect.sync(() => Option.fromNullishOr(credentials.get(id)))),
      findByPublishableKey: (key) => db.run(Effect.sync(() => find(credentials, (c) => c.publishableKey === key))),
      findBySecretHash: (hash) => db.run(Effect.sync(() => find(credentials, (c) => c.secretHash === hash))),
      listActiveForShop: (merchantId, shopId) =>
        db.run(Effect.sync(() =>
          [...credentials.values()].filter((c) =>
            c.merchantId === merchantId && c.revokedAt === null && (c.shopId === null || c.shopId === shopId)
          )
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
          tokens.has(t.id) || Option.isSome(find(tokens, (x) => x.tokenHash === t.tokenHash))
            ? unique("refresh token", t.id)
            : Effect.sync(() => void tokens.set(t.id, t))
        )),
      findRefreshToken: (hash) => db.run(Effect.sync(() => find(tokens, (t) => t.tokenHash === hash))),
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
          for (const t of tokens.values()) {
            if (t.familyId === familyId && t.revokedAt === null) {
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
