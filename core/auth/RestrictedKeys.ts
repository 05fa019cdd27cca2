/**
 * Restricted API keys: a merchant's full key creates keys limited to some operations (as
 * Stripe's), lists them and revokes them. A restricted key is a secret alone (`rk_test_...`,
 * `rk_live_...`, shown once and stored as its SHA-256), of the creating key's environment and
 * scope (its shop, or merchant-wide), holding the permissions it was created with
 * (`Permissions.ts`). Revoking one ends it at once on every replica (authentication reads the
 * credential on every request).
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { type ApiErrorOf, notFound } from "../ApiError.ts"
import { Audit } from "../audit/Audit.ts"
import { Transactions } from "../ports/Transactions.ts"
import { Ids } from "../Ids.ts"
import { CredentialStore } from "../ports/CredentialStore.ts"
import { secretHasher } from "../Secrets.ts"
import type { Credential } from "./Credential.ts"
import type { Permission } from "./Permissions.ts"

export interface NewRestrictedKey {
  readonly name: string
  readonly permissions: ReadonlyArray<Permission>
}

/** A restricted key as it was created: the only time its secret is seen. */
export interface CreatedRestrictedKey {
  readonly credential: Credential
  readonly secretKey: string
}

export class RestrictedKeys extends Context.Service<RestrictedKeys, {
  /** A key of `owner`'s merchant, environment and scope. */
  readonly create: (owner: Credential, input: NewRestrictedKey) => Effect.Effect<CreatedRestrictedKey>
  /** The active restricted keys of `owner`'s merchant and environment that cover `shopId`, oldest first. */
  readonly list: (owner: Credential, shopId: string) => Effect.Effect<ReadonlyArray<Credential>>
  /** Revokes one of them; 404 for a key of another merchant or environment, or a key pair. */
  readonly revoke: (owner: Credential, id: string) => Effect.Effect<Credential, ApiErrorOf<"not_found">>
}>()("core/auth/RestrictedKeys") {
  static readonly layer = Layer.effect(
    RestrictedKeys,
    Effect.gen(function*() {
      const ids = yield* Ids
      const credentials = yield* CredentialStore
      const hash = yield* secretHasher
      const audit = yield* Audit
      const tx = yield* Transactions
      /** The record of a change to a restricted key: its name and permissions, never its secret. */
      const recorded = (c: Credential, changes: Record<string, unknown>) =>
        audit.record({ environment: c.environment, merchantId: c.merchantId, object: { type: "restricted_key", id: c.id }, changes })

      const create = Effect.fn("RestrictedKeys.create")(function*(owner: Credential, input: NewRestrictedKey) {
        const secretKey = yield* ids.secret(`rk_${owner.environment === "sandbox" ? "test" : "live"}_`, 32)
        const credential: Credential = {
          id: yield* ids.next("credential"),
          merchantId: owner.merchantId,
          shopId: owner.shopId,
          environment: owner.environment,
          publishableKey: null,
          secretHash: yield* hash(secretKey),
          secretLast4: secretKey.slice(-4),
          version: 1,
          revokedAt: null,
          createdAt: yield* DateTime.now,
          permissions: [...new Set(input.permissions)],
          name: input.name,
          userId: null
        }
        yield* tx.run(Effect.andThen(
          credentials.insert(credential),
          recorded(credential, { created: { name: credential.name, permissions: credential.permissions, scope: credential.shopId ?? "merchant" } })
        ))
        return { credential, secretKey }
      })

      const mine = (owner: Credential) => (c: Credential) =>
        c.permissions !== null && c.merchantId === owner.merchantId && c.environment === owner.environment

      const list = (owner: Credential, shopId: string) =>
        Effect.map(credentials.listActiveForShop(owner.merchantId, shopId), (all) => all.filter(mine(owner)))

      const revoke = Effect.fn("RestrictedKeys.revoke")(function*(owner: Credential, id: string) {
        const found = Option.filter(yield* credentials.findById(id), mine(owner))
        if (Option.isNone(found)) return yield* notFound("restricted key", id)
        const at = yield* DateTime.now
        yield* tx.run(Effect.flatMap(credentials.revoke([id], at), (n) => n === 0 ? Effect.void : Effect.asVoid(recorded(found.value, { revoked: true }))))
        return { ...found.value, revokedAt: found.value.revokedAt ?? at }
      })

      return RestrictedKeys.of({ create, list, revoke })
    })
  )
}
