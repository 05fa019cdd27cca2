/**
 * Merchant onboarding and API keys: create a merchant with its shops and key pairs, issue another
 * pair, rotate a shop's keys. Secrets are returned once, here, and stored only as hashes.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { apiError, type ApiErrorOf, notFound } from "../ApiError.ts"
import { Audit } from "../audit/Audit.ts"
import type { Credential } from "../auth/Credential.ts"
import { type Environment, environments } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { CredentialStore } from "../ports/CredentialStore.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { Transactions } from "../ports/Transactions.ts"
import { secretHasher } from "../Secrets.ts"
import { Settlements } from "../settlements/Settlements.ts"
import type { Merchant, Shop, Tier } from "./Merchant.ts"

export type KeyScope = "shop" | "merchant"

/** A freshly minted key pair: the only time the secret is seen. */
export interface KeyPair {
  readonly credentialId: string
  readonly environment: Environment
  readonly scope: KeyScope
  readonly shopId: string | null
  readonly version: number
  readonly publishableKey: string
  readonly secretKey: string
}

export interface NewMerchant {
  readonly name: string
  readonly email: string
  readonly industry?: string | undefined
  readonly tier?: Tier | undefined
  readonly shops?: ReadonlyArray<{ readonly name: string }> | undefined
}

export interface Onboarded {
  readonly merchant: Merchant
  readonly shops: ReadonlyArray<Shop>
  readonly keys: { readonly sandbox: KeyPair; readonly production: KeyPair }
}

const keyPrefix = (environment: Environment) => environment === "sandbox" ? "test" : "live"

export const defaultTrustScore = 500

export class Merchants extends Context.Service<Merchants, {
  readonly create: (input: NewMerchant) => Effect.Effect<Onboarded>
  readonly issueKeys: (shopId: string, environment: Environment, scope: KeyScope) => Effect.Effect<KeyPair, ApiErrorOf<"not_found">>
  /** Revokes every active pair (and restricted key) that covers the shop and issues new pairs at version + 1. */
  readonly rotateKeys: (shopId: string) => Effect.Effect<{
    readonly revoked: number
    readonly keys: { readonly sandbox: KeyPair; readonly production: KeyPair }
  }, ApiErrorOf<"not_found">>
  /**
   * A caller rotating its own keys: revokes exactly the calling pair (with every token minted from
   * it) and issues one pair of the same scope (bound to the same shop, or merchant-wide) at the
   * next version. Other pairs are untouched: revoking them is the operator's `rotateKeys`.
   */
  readonly rotateOwnKeys: (credential: Credential) => Effect.Effect<{ readonly revoked: number; readonly keys: KeyPair }, ApiErrorOf<"token_revoked">>
}>()("core/tenancy/Merchants") {
  static readonly layer = Layer.effect(
    Merchants,
    Effect.gen(function*() {
      const ids = yield* Ids
      const tenancy = yield* TenancyStore
      const settlements = yield* Settlements
      const credentials = yield* CredentialStore
      const tx = yield* Transactions
      const hash = yield* secretHasher
      const audit = yield* Audit
      /** A key pair's change on the merchant's record: which pair, never its secret. */
      const keysRecorded = (merchantId: string, environment: Environment, id: string, changes: Record<string, unknown>) =>
        audit.record({ environment, merchantId, object: { type: "key_pair", id }, changes })

      const mint = Effect.fnUntraced(function*(
        merchantId: string,
        shopId: string | null,
        environment: Environment,
        version: number
      ) {
        const env = keyPrefix(environment)
        const publishableKey = yield* ids.secret(`pk_${env}_`, 24)
        const secretKey = yield* ids.secret(`sk_${env}_`, 32)
        const credential: Credential = {
          id: yield* ids.next("credential"),
          merchantId,
          shopId,
          environment,
          publishableKey,
          secretHash: yield* hash(secretKey),
          secretLast4: secretKey.slice(-4),
          version,
          revokedAt: null,
          createdAt: yield* DateTime.now,
          permissions: null,
          name: null,
          userId: null
        }
        yield* credentials.insert(credential)
        return {
          credentialId: credential.id,
          environment,
          scope: shopId === null ? "merchant" : "shop",
          shopId,
          version,
          publishableKey,
          secretKey
        } satisfies KeyPair
      })

      const findShop = (shopId: string) =>
        tenancy.findShop(shopId).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound("shop", shopId)),
            onSome: Effect.succeed
          }))
        )

      const create = Effect.fn("Merchants.create")(function*(input: NewMerchant) {
        return yield* tx.run(Effect.gen(function*() {
          const createdAt = yield* DateTime.now
          const merchant: Merchant = {
            id: yield* ids.next("merchant"),
            name: input.name,
            email: input.email,
            industry: input.industry ?? "general",
            tier: input.tier ?? "starter",
            trustScore: defaultTrustScore,
            createdAt
          }
          yield* tenancy.insertMerchant(merchant)
          const shopInputs = input.shops !== undefined && input.shops.length > 0 ? input.shops : [{ name: input.name }]
          const shops: Array<Shop> = []
          for (const s of shopInputs) {
            const shop: Shop = { id: yield* ids.next("shop"), merchantId: merchant.id, name: s.name, createdAt }
            yield* tenancy.insertShop(shop)
            // A sandbox shop is settled daily from the start (the operator can change or stop it).
            yield* settlements.startSandboxDefault({ environment: "sandbox", merchantId: merchant.id, shopId: shop.id })
            shops.push(shop)
          }
          // One shop: keys bound to it. Several: merchant-wide keys that choose the shop per call.
          const boundShop = shops.length === 1 ? shops[0]!.id : null
          const sandbox = yield* mint(merchant.id, boundShop, "sandbox", 1)
          const production = yield* mint(merchant.id, boundShop, "production", 1)
          yield* audit.record({
            environment: null,
            merchantId: null,
            object: { type: "merchant", id: merchant.id },
            changes: { created: { name: merchant.name, tier: merchant.tier, shops: shops.map((s) => s.id), keyPairs: [sandbox.credentialId, production.credentialId] } }
          })
          return { merchant, shops, keys: { sandbox, production } }
        }))
      })

      const issueKeys = Effect.fn("Merchants.issueKeys")(function*(shopId: string, environment: Environment, scope: KeyScope) {
        return yield* tx.run(Effect.gen(function*() {
          const shop = yield* findShop(shopId)
          const pair = yield* mint(shop.merchantId, scope === "shop" ? shop.id : null, environment, 1)
          yield* keysRecorded(shop.merchantId, environment, pair.credentialId, { issued: { scope, shopId: pair.shopId } })
          return pair
        }))
      })

      const rotateKeys = Effect.fn("Merchants.rotateKeys")(function*(shopId: string) {
        return yield* tx.run(Effect.gen(function*() {
          const shop = yield* findShop(shopId)
          const active = yield* credentials.listActiveForShop(shop.merchantId, shop.id)
          const revoked = yield* credentials.revoke(active.map((c) => c.id), yield* DateTime.now)
          // New pairs follow the pairs revoked; restricted keys are revoked with them, not replaced.
          const next = (environment: Environment) => {
            const previous = active.filter((c) => c.environment === environment && c.permissions === null)
            const version = previous.reduce((max, c) => Math.max(max, c.version), 0) + 1
            const merchantWide = previous.length > 0 && previous.every((c) => c.shopId === null)
            return mint(shop.merchantId, merchantWide ? null : shop.id, environment, version)
          }
          const [sandbox, production] = yield* Effect.forEach(environments, next)
          for (const pair of [sandbox!, production!]) {
            yield* keysRecorded(shop.merchantId, pair.environment, pair.credentialId, {
              rotated: { shopId: shop.id, revoked: active.filter((c) => c.environment === pair.environment).map((c) => c.id), version: pair.version }
            })
          }
          return { revoked, keys: { sandbox: sandbox!, production: production! } }
        }))
      })

      const rotateOwnKeys = Effect.fn("Merchants.rotateOwnKeys")(function*(credential: Credential) {
        return yield* tx.run(Effect.gen(function*() {
          // The guarded revoke decides a race between two rotations with one pair: one wins.
          const revoked = yield* credentials.revoke([credential.id], yield* DateTime.now)
          if (revoked === 0) return yield* apiError("token_revoked", "This key pair was already rotated or revoked")
          const keys = yield* mint(credential.merchantId, credential.shopId, credential.environment, credential.version + 1)
          yield* keysRecorded(credential.merchantId, credential.environment, keys.credentialId, { rotated: { revoked: [credential.id], version: keys.version } })
          return { revoked, keys }
        }))
      })

      return Merchants.of({ create, issueKeys, rotateKeys, rotateOwnKeys })
    })
  )
}
