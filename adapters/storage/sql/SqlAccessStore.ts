/** The read behind authentication on SQL: one statement joining the credential, its merchant, its default shop and that shop's clock. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { AccessStore } from "../../../core/ports/AccessStore.ts"
import type { Tier } from "../../../core/tenancy/Merchant.ts"
import { utc } from "./Rows.ts"
import { type CredentialRow, toCredential } from "./SqlCredentialStore.ts"

interface AccessRow extends CredentialRow {
  readonly mName: string
  readonly mEmail: string
  readonly mIndustry: string
  readonly mTier: Tier
  readonly mTrustScore: number
  readonly mCreatedAt: Date
  readonly sId: string | null
  readonly sName: string | null
  readonly sCreatedAt: Date | null
  readonly clockOffsetMs: string | number
  readonly familyRevoked: boolean
}

export const SqlAccessStore = Layer.effect(
  AccessStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return AccessStore.of({
      find: (lookup) => {
        const where = "credentialId" in lookup
          ? sql`c.id = ${lookup.credentialId}`
          : "secretHash" in lookup
          ? sql`c.secret_hash = ${lookup.secretHash}`
          : sql`c.publishable_key = ${lookup.publishableKey}`
        const familyRevoked = "familyId" in lookup
          ? sql`EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ${lookup.familyId} AND revoked_at IS NOT NULL)`
          : sql`false`
        return sql<AccessRow>`
          SELECT c.*,
            m.name AS m_name, m.email AS m_email, m.industry AS m_industry, m.tier AS m_tier,
            m.trust_score AS m_trust_score, m.created_at AS m_created_at,
            s.id AS s_id, s.name AS s_name, s.created_at AS s_created_at,
            COALESCE(k.offset_ms, 0) AS clock_offset_ms,
            ${familyRevoked} AS family_revoked
          FROM credentials c
          JOIN merchants m ON m.id = c.merchant_id
          LEFT JOIN LATERAL (
            SELECT id, name, created_at FROM shops
            WHERE merchant_id = c.merchant_id AND (c.shop_id IS NULL OR id = c.shop_id)
            ORDER BY created_at, id LIMIT 1
          ) s ON true
          LEFT JOIN sandbox_clocks k ON k.shop_id = s.id AND c.environment = 'sandbox'
          WHERE ${where}`.pipe(
          Effect.map((rows) => {
            const r = rows[0]
            if (r === undefined) return Option.none()
            return Option.some({
              credential: toCredential(r),
              merchant: {
                id: r.merchantId,
                name: r.mName,
                email: r.mEmail,
                industry: r.mIndustry,
                tier: r.mTier,
                trustScore: r.mTrustScore,
                createdAt: utc(r.mCreatedAt)
              },
              shop: r.sId === null ? null : { id: r.sId, merchantId: r.merchantId, name: r.sName!, createdAt: utc(r.sCreatedAt!) },
              clockOffsetMs: Number(r.clockOffsetMs),
              familyRevoked: r.familyRevoked === true
            })
          }),
          Effect.orDie
        )
      }
    })
  })
)
