/**
 * The audit log nobody can edit: every change made through the API, the admin API or the console
 * is recorded by the service that makes it, in the transaction of the change (`record` inside the
 * caller's `Transactions.run`), so a change and its record commit together or not at all. Rows
 * are hash-chained per merchant and environment (and one chain for the host's own changes):
 * `verify` recomputes every hash and names the first row that does not match, which is what an
 * edited, deleted or inserted row looks like. Each row's hash is also signed with the host's key
 * (`Sealing.sign`), which the database does not hold: a writer who edits a row and recomputes
 * every hash after it still cannot sign them.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { Digest } from "effect/crypto"
import type { Environment } from "../Environment.ts"
import { Ids } from "../Ids.ts"
import { type AuditCheckpoint, type AuditEntry, type AuditFilter, AuditStore } from "../ports/AuditStore.ts"
import { Sealing } from "../ports/Sealing.ts"
import { TenancyStore } from "../ports/TenancyStore.ts"
import { AuditContext } from "./AuditContext.ts"

/** The hash before a chain's first row. */
export const genesisHash = "0".repeat(64)

export interface AuditChange {
  readonly environment: Environment | null
  readonly merchantId: string | null
  readonly object: AuditEntry["object"]
  readonly changes: AuditEntry["changes"]
  /** Overrides the request's operation (a change the engine makes on its own). */
  readonly operation?: string | undefined
  /** Overrides the request's actor (a change made through a public operation, by the person it names). */
  readonly actor?: AuditEntry["actor"] | undefined
}

/** JSON with object keys sorted at every depth: the same content always hashes the same. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v)

/** What a row's hash covers: every field but the hash and its signature, with the previous row's hash. */
export const hashed = (e: Omit<AuditEntry, "hash" | "signature">) =>
  canonicalJson({ ...e, at: DateTime.formatIso(e.at) })

export const chainOf = (environment: Environment | null, merchantId: string | null) =>
  merchantId === null ? "operator" : `${environment ?? "sandbox"}:${merchantId}`

export interface ChainCheck {
  readonly chain: string
  readonly entries: number
  /** The first row whose hash or link does not match (edited, deleted or inserted), or null. */
  readonly brokenAt: number | null
}

export class Audit extends Context.Service<Audit, {
  readonly record: (change: AuditChange) => Effect.Effect<AuditEntry>
  /** `record` in the chain of the shop's merchant (a shop unknown to the store: the operator's chain). */
  readonly recordForShop: (environment: Environment, shopId: string, change: Omit<AuditChange, "environment" | "merchantId">) => Effect.Effect<AuditEntry>
  readonly list: (filter: AuditFilter, page: { readonly limit: number; readonly offset: number }) => Effect.Effect<{
    readonly rows: ReadonlyArray<AuditEntry>
    readonly total: number
  }>
  /** Every chain, or the one named, checked from its first row (or from its retention checkpoint). */
  readonly verify: (chain?: string) => Effect.Effect<ReadonlyArray<ChainCheck>>
  /** Retention: deletes every chain's entries older than `before`, each chain keeping a signed checkpoint; answers how many. */
  readonly prune: (before: DateTime.Utc) => Effect.Effect<number>
}>()("core/audit/Audit") {
  static readonly layer = Layer.effect(
    Audit,
    Effect.gen(function*() {
      const store = yield* AuditStore
      const tenancy = yield* TenancyStore
      const ids = yield* Ids
      const digest = yield* Digest.Digest
      const encoder = new TextEncoder()
      const hashOf = (e: Omit<AuditEntry, "hash" | "signature">) => digest.digestHex(Digest.sha256, encoder.encode(hashed(e)))
      const sealing = Option.getOrUndefined(yield* Effect.serviceOption(Sealing))
      const signed = (chain: string, hash: string) => sealing === undefined ? Effect.succeed(null) : sealing.sign(hash, `audit:${chain}`)
      const signatureHolds = (row: AuditEntry) =>
        sealing === undefined ? Effect.succeed(true) : row.signature === null ? Effect.succeed(false) : sealing.verifySigned(row.hash, `audit:${row.chain}`, row.signature)

      const record = Effect.fn("Audit.record")(function*(change: AuditChange) {
        const context = Option.getOrUndefined(yield* Effect.serviceOption(AuditContext))
        const id = yield* ids.next("audit")
        const at = yield* DateTime.now
        const chain = chainOf(change.environment, change.merchantId)
        return yield* store.append(chain, (seq, prevHash) => {
          const entry: Omit<AuditEntry, "hash" | "signature"> = {
            id,
            chain,
            seq,
            at,
            environment: change.environment,
            merchantId: change.merchantId,
            actor: change.actor ?? context?.actor ?? { kind: "system", id: "engine" },
            ip: context?.ip ?? null,
            operation: change.operation ?? context?.operation ?? "engine",
            object: change.object,
            changes: change.changes,
            prevHash
          }
          return Effect.flatMap(hashOf(entry), (hash) => Effect.map(signed(chain, hash), (signature) => ({ ...entry, hash, signature })))
        })
      })

      const checkpointText = (c: { readonly seq: number; readonly hash: string }) => `${c.seq}:${c.hash}`
      const checkpointHolds = (c: AuditCheckpoint) =>
        sealing === undefined ? Effect.succeed(true) : c.signature === null ? Effect.succeed(false) : sealing.verifySigned(checkpointText(c), `audit-checkpoint:${c.chain}`, c.signature)

      const check = Effect.fnUntraced(function*(chain: string) {
        const rows = yield* store.chainOf(chain)
        // A pruned chain starts after its checkpoint, which must carry the host's signature.
        const checkpoint = Option.getOrUndefined(yield* store.checkpoint(chain))
        const start = checkpoint === undefined ? 1 : checkpoint.seq + 1
        if (checkpoint !== undefined && !(yield* checkpointHolds(checkpoint))) return { chain, entries: rows.length, brokenAt: start } satisfies ChainCheck
        let prev = checkpoint?.hash ?? genesisHash
        for (const [i, row] of rows.entries()) {
          const { hash, signature: _signature, ...rest } = row
          if (row.seq !== start + i || row.prevHash !== prev || (yield* hashOf(rest)) !== hash || !(yield* signatureHolds(row))) {
            return { chain, entries: rows.length, brokenAt: start + i } satisfies ChainCheck
          }
          prev = hash
        }
        return { chain, entries: rows.length, brokenAt: null } satisfies ChainCheck
      })

      const prune = Effect.fnUntraced(function*(before: DateTime.Utc) {
        let total = 0
        for (const chain of yield* store.chains) {
          total += yield* store.prune(chain, before, (last) =>
            Effect.map(
              sealing === undefined ? Effect.succeed(null) : sealing.sign(checkpointText(last), `audit-checkpoint:${chain}`),
              (signature): AuditCheckpoint => ({ chain, seq: last.seq, hash: last.hash, signature })
            ))
        }
        return total
      })

      const verify = (chain?: string) =>
        Effect.flatMap(chain === undefined ? store.chains : Effect.succeed([chain]), (names) => Effect.forEach(names, check))

      const recordForShop = (environment: Environment, shopId: string, change: Omit<AuditChange, "environment" | "merchantId">) =>
        Effect.flatMap(tenancy.findShop(shopId), (shop) =>
          record({ ...change, environment, merchantId: Option.match(shop, { onNone: () => null, onSome: (s) => s.merchantId }) }))

      return Audit.of({ record, recordForShop, list: store.list, verify, prune })
    })
  )
}
