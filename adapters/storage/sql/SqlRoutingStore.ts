/** Routing outcomes on SQL (`routing_outcomes`), read newest first through their index. */
import { Array as Arr, Duration, Effect, Layer, Option, Schedule, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { familyOf, latestPerProvider, type RoutingOutcome, RoutingStore } from "../../../core/ports/RoutingStore.ts"

interface Row {
  readonly environment: RoutingOutcome["environment"]
  readonly providerId: string
  readonly methodId: string
  readonly kind: RoutingOutcome["kind"]
  readonly atMs: string | number
  readonly latencyMs: number
  readonly localId: string | null
  readonly decline: string | null
}

const outcomeOf = ({ atMs, localId, decline, ...r }: Row) => ({
  outcome: { ...r, at: Number(atMs), ...(decline === null ? {} : { decline }) },
  localId
})

/** Rows as `json_agg` spells them (column names, snake_case). */
interface RouteJson {
  readonly environment: RoutingOutcome["environment"]
  readonly shop_id: string
  readonly provider_id: string
  readonly priority: number
  readonly method_ids: ReadonlyArray<string> | null
  readonly enabled: boolean
}
/** An outcome as the snapshot spells it: an array, not an object (a read carries up to `limit` a provider). */
type OutcomeJson = readonly [providerId: string, kind: RoutingOutcome["kind"], atMs: string | number, latencyMs: number, localId: string | null]

/** An outcome recorded here, with the id that tells it apart once it is written. */
interface Local {
  readonly localId: string
  readonly outcome: RoutingOutcome
}

/** How often the outcomes recorded meanwhile are written (see `record`). */
const flushEvery = Duration.millis(50)

export const SqlRoutingStore = Layer.effect(
  RoutingStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const insert = (outcomes: Arr.NonEmptyReadonlyArray<Local>) =>
      sql`INSERT INTO routing_outcomes ${
        sql.insert(Arr.map(outcomes, ({ localId, outcome: o }) => ({
          environment: o.environment,
          providerId: o.providerId,
          methodId: o.methodId,
          family: familyOf(o.kind),
          kind: o.kind,
          atMs: o.at,
          latencyMs: Math.round(o.latencyMs),
          localId,
          decline: o.decline ?? null
        })))
      }`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * Outcomes are written in batches, every `flushEvery` (one statement for all the payments of
     * that moment, not one per attempt): other replicas see them that much later, this one at
     * once (reads add the ones not written yet). A probe marker is written at once, since it is
     * what keeps other replicas from probing too. At a crash the last batch is lost: these are
     * statistics, not records.
     *
     * Each outcome carries a local id, so that a read that meets a batch while it commits counts
     * it once: the read takes the unwritten outcomes before its statement, and adds those its
     * statement did not return.
     */
    const instance = Math.random().toString(36).slice(2, 10)
    let sequence = 0
    let unwritten: Array<Local> = []
    // One flush at a time: the periodic one and a prune's took the same batch and wrote it twice
    // (a flaky contract test: the outcomes after a prune came back doubled).
    const flushing = yield* Semaphore.make(1)
    const flush = flushing.withPermits(1)(Effect.suspend(() => {
      const batch = unwritten
      if (!Arr.isReadonlyArrayNonEmpty(batch)) return Effect.void
      return insert(batch).pipe(
        Effect.ensuring(Effect.sync(() => void (unwritten = unwritten.slice(batch.length)))),
        Effect.catchCause((cause) => Effect.logWarning("routing outcomes not recorded", cause))
      )
    }))
    yield* flush.pipe(Effect.repeat(Schedule.spaced(flushEvery)), Effect.forkScoped)
    yield* Effect.addFinalizer(() => flush)
    /** What a read returned, plus the outcomes unwritten when it started that it did not return. */
    const withUnwritten = (
      local: ReadonlyArray<Local>,
      rows: ReadonlyArray<{ readonly outcome: RoutingOutcome; readonly localId: string | null }>,
      keep: (o: RoutingOutcome) => boolean
    ) => {
      const read = new Set(rows.map((r) => r.localId))
      const missing = local.filter((l) => keep(l.outcome) && !read.has(l.localId)).map((l) => l.outcome)
      const outcomes = rows.map((r) => r.outcome)
      return missing.length === 0 ? outcomes : [...outcomes, ...missing]
    }
    /** Runs a read with the outcomes unwritten at its start. */
    const reading = <A>(f: (local: ReadonlyArray<Local>) => Effect.Effect<A>) => Effect.suspend(() => f(unwritten))

    return RoutingStore.of({
      record: (o) =>
        Effect.suspend(() => {
          const local: Local = { localId: `${instance}:${++sequence}`, outcome: o }
          return o.kind === "probe" ? insert([local]) : Effect.sync(() => void unwritten.push(local))
        }),
      recent: (key, kinds, limit) =>
        reading((local) =>
          sql<Row>`
          SELECT environment, provider_id, method_id, kind, at_ms, latency_ms, local_id, decline FROM routing_outcomes
          WHERE environment = ${key.environment} AND provider_id = ${key.providerId} AND method_id = ${key.methodId}
            AND family = ${kinds}
          ORDER BY id DESC LIMIT ${limit}`.pipe(
            Effect.map((rows) =>
              withUnwritten(
                local,
                rows.map(outcomeOf).reverse(),
                (o) => o.environment === key.environment && o.providerId === key.providerId && o.methodId === key.methodId && familyOf(o.kind) === kinds
              ).slice(-limit)
            ),
            Effect.orDie
          )
        ),
      since: (environment, sinceMs, limit) =>
        reading((local) =>
          sql<Row>`
          SELECT environment, provider_id, method_id, kind, at_ms, latency_ms, local_id, decline FROM routing_outcomes
          WHERE environment = ${environment} AND at_ms >= ${sinceMs}
          ORDER BY at_ms DESC, id DESC LIMIT ${limit}`.pipe(
            Effect.map((rows) =>
              withUnwritten(
                local,
                rows.map(outcomeOf).reverse(),
                (o) => o.environment === environment && o.at >= sinceMs
              ).sort((a, b) => a.at - b.at).slice(-limit)
            ),
            Effect.orDie
          )
        ),
      snapshot: ({ environment, methodId, shopId }, providerIds, limit) =>
        reading((local) => sql<{ readonly config: string | null; readonly version: number | null; readonly routes: string; readonly health: string }>`
          SELECT
            (SELECT document FROM routing_configs WHERE environment = ${environment} AND shop_id = ${shopId}) AS config,
            (SELECT version FROM routing_configs WHERE environment = ${environment} AND shop_id = ${shopId}) AS version,
            (SELECT COALESCE(json_agg(r ORDER BY r.priority, r.provider_id), '[]')::text FROM provider_routes r
              WHERE r.environment = ${environment} AND r.shop_id = ${shopId}) AS routes,
            (SELECT COALESCE(json_agg(json_build_array(o.provider_id, o.kind, o.at_ms, o.latency_ms, o.local_id) ORDER BY o.id), '[]')::text
              FROM json_array_elements_text(${JSON.stringify(providerIds)}::json) AS p (id)
              CROSS JOIN LATERAL (
                SELECT id, provider_id, kind, at_ms, latency_ms, local_id FROM routing_outcomes
                WHERE environment = ${environment} AND provider_id = p.id AND method_id = ${methodId} AND family = 'health'
                ORDER BY id DESC LIMIT ${limit}
              ) o) AS health`.pipe(
          Effect.map(([row]) => ({
            config: row!.config === null ? Option.none() : Option.some({ version: row!.version!, document: JSON.parse(row!.config) as unknown }),
            routes: (JSON.parse(row!.routes) as ReadonlyArray<RouteJson>).map((r) => ({
              environment: r.environment,
              shopId: r.shop_id,
              providerId: r.provider_id,
              priority: r.priority,
              methodIds: r.method_ids,
              enabled: r.enabled
            })),
            health: latestPerProvider(withUnwritten(
              local,
              (JSON.parse(row!.health) as ReadonlyArray<OutcomeJson>).map(([providerId, kind, atMs, latencyMs, localId]) => ({
                outcome: { environment, providerId, methodId, kind, at: Number(atMs), latencyMs },
                localId
              })),
              (o) => o.environment === environment && o.methodId === methodId && familyOf(o.kind) === "health" && providerIds.includes(o.providerId)
            ), limit)
          })),
          Effect.orDie
        )),
      prune: (beforeMs) =>
        Effect.andThen(flush, sql`DELETE FROM routing_outcomes WHERE at_ms < ${beforeMs}`.pipe(Effect.asVoid, Effect.orDie)),
      config: (environment, shopId) =>
        sql<{ readonly version: number; readonly document: string }>`
          SELECT version, document FROM routing_configs WHERE environment = ${environment} AND shop_id = ${shopId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (r) => ({ version: r.version, document: JSON.parse(r.document) as unknown }))),
          Effect.orDie
        ),
      // One statement each way: two writers of the same version cannot both win.
      putConfig: (environment, shopId, expectedVersion, document) =>
        (expectedVersion === 0
          ? sql`INSERT INTO routing_configs (environment, shop_id, version, document)
                VALUES (${environment}, ${shopId}, 1, ${JSON.stringify(document)}) ON CONFLICT DO NOTHING RETURNING version`
          : sql`UPDATE routing_configs SET version = version + 1, document = ${JSON.stringify(document)}
                WHERE environment = ${environment} AND shop_id = ${shopId} AND version = ${expectedVersion} RETURNING version`).pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
