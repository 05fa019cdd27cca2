/**
 * The audit log (`core/audit/Audit.ts`): a merchant reads its own, in one environment (the key's),
 * as JSON pages or as CSV; the operator reads every chain and checks them.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Environment, IsoDateTime, Text } from "./Fields.ts"
import { PageQuery, Pagination } from "./PaymentsApi.ts"
import { AdminToken, SecretKey } from "./Security.ts"
import { admin, secretKey, withErrors } from "./EndpointErrors.ts"

export const AuditEntryView = Schema.Struct({
  id: Schema.String,
  chain: Schema.String.annotate({ description: "`<environment>:<merchantId>`, or `operator` for the host's own changes" }),
  seq: Schema.Int.annotate({ description: "The entry's place in its chain: 1, 2, 3..." }),
  at: IsoDateTime,
  environment: Schema.NullOr(Environment),
  merchantId: Schema.NullOr(Schema.String),
  actor: Schema.Struct({
    kind: Schema.Literals(["key", "token", "user", "admin", "console", "system"]),
    id: Schema.String.annotate({ description: "The key masked (`sk_test_…a1B2`, `rk_live_…9xYz`), a team member (`member ana@example.com`), `ADMIN_TOKEN`, or `engine`" })
  }),
  ip: Schema.NullOr(Schema.String).annotate({ description: "The client's address as the host trusts it (`TRUSTED_PROXIES`)" }),
  operation: Schema.String.annotate({ description: "The API operation, `group.operation` (`webhooks.create`)" }),
  object: Schema.Struct({ type: Schema.String, id: Schema.String }),
  changes: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "What changed; never a secret, a key or buyer data" }),
  prevHash: Schema.String,
  hash: Schema.String.annotate({ description: "SHA-256 (hex) of the previous entry's hash and this entry's content" }),
  signature: Schema.NullOr(Schema.String).annotate({ description: "`<key id>.<hex>`: the hash signed with the host's sealing key, which the database does not hold" })
}).annotate({ identifier: "AuditEntry" })

const Filters = {
  operation: Schema.optional(Text(100)).annotate({ description: "Only this operation (`developers.createRestrictedKey`)" }),
  objectId: Schema.optional(Text(64)).annotate({ description: "Only the changes of this object" })
}

export const AuditCsv = HttpApiSchema.WithHeaders(
  Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv; charset=utf-8" })),
  { "content-disposition": Schema.String }
)

export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("list", "/me/audit-log", {
      query: { ...PageQuery, ...Filters },
      success: Schema.Struct({ data: Schema.Array(AuditEntryView), pagination: Pagination })
    }).annotate(
      OpenApi.Description,
      "Who changed what in this merchant's account in the key's environment, newest first: keys issued, rotated and revoked, restricted keys, " +
        "webhook endpoints, whether by the merchant's keys or by the operator. Each entry is written in the transaction of its change and " +
        "chained by hash to the one before. Needs a full secret key. limit 1 to 100 (default 50), clamped."
    ),
    HttpApiEndpoint.get("csv", "/me/audit-log.csv", {
      query: Filters,
      success: AuditCsv
    }).annotate(OpenApi.Description, "The same entries as CSV (RFC 4180), newest first, at most 10,000; `changes` as JSON in its column.")
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Audit log")
  .pipe(withErrors({ list: secretKey, csv: secretKey }))
{}

export const ChainCheckView = Schema.Struct({
  chain: Schema.String,
  entries: Schema.Int,
  brokenAt: Schema.NullOr(Schema.Int).annotate({ description: "The first entry whose hash or link does not match (edited, deleted or inserted); null when the chain holds" })
}).annotate({ identifier: "AuditChainCheck" })

export class AuditAdminApi extends HttpApiGroup.make("auditAdmin")
  .add(
    HttpApiEndpoint.get("list", "/audit-log", {
      query: {
        ...PageQuery,
        ...Filters,
        chain: Schema.optional(Text(120)).annotate({ description: "One chain: `<environment>:<merchantId>`, or `operator` for the host's own changes" })
      },
      success: Schema.Struct({ data: Schema.Array(AuditEntryView), pagination: Pagination })
    }).annotate(OpenApi.Description, "Every chain's entries, newest first, or one chain's."),
    HttpApiEndpoint.get("verify", "/audit-log/verify", {
      query: { chain: Schema.optional(Text(120)) },
      success: Schema.Struct({ ok: Schema.Boolean, chains: Schema.Array(ChainCheckView) })
    }).annotate(
      OpenApi.Description,
      "Recomputes every hash of every chain (or the one named) from its first entry: `ok` false and each broken chain's `brokenAt` when a row was edited, deleted or inserted in the store."
    )
  )
  .middleware(AdminToken)
  .prefix("/admin/v1")
  .annotate(OpenApi.Title, "Audit log (operator)")
  .pipe(withErrors({ list: admin, verify: admin }))
{}
