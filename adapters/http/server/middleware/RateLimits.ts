/**
 * Rate limits, with `rate-limiter-flexible` (a maintained limiter; its algorithm and its own SQL):
 *
 * - per credential on every authenticated API request: `RATE_LIMIT_PRODUCTION_PER_SECOND`
 *   (default 100) and `RATE_LIMIT_SANDBOX_PER_SECOND` (default 25), like Stripe's;
 * - per client IP and kind of credential, the wrong ones: `RATE_LIMIT_AUTH_PER_MINUTE` (default
 *   30) failed logins (`POST /auth/token`, `POST /auth/refresh`), as many unknown raw API keys as
 *   the bearer of any route, as many wrong operator tokens (`guessKey`). Past it, a wrong one
 *   from the address is 429; a right one is still checked and works (a guesser met by 429 on the
 *   admin API must not lock the operator out, nor the operator's typos the merchants behind one
 *   address).
 *
 * On a SQL store the counters live in the `rate_limits` table (the library's `RateLimiterPostgres`
 * speaking through the engine's own SQL client), so every replica on one PostgreSQL shares them;
 * on the memory store they live in the process (`RateLimiterMemory`). Rows expired over an hour
 * are deleted every 5 minutes by each replica, from a fiber of this layer's scope (the library's
 * own timer, `clearExpiredByTimeout`, would outlive the SQL client). A refused request is
 * `429 rate_limited` with `Retry-After`; every limited response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds).
 */
import * as Metrics from "../../../../core/Metrics.ts"
import { Context, Deferred, Duration, Effect, Layer, Option, Schedule } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible"
import { apiError, type ApiErrorOf } from "../../../../core/ApiError.ts"
import type { Environment } from "../../../../core/Environment.ts"
import { HttpConfig } from "../support/HttpConfig.ts"

export interface RateLimitOptions {
  readonly productionPerSecond: number
  readonly sandboxPerSecond: number
  readonly authPerMinute: number
}

export const defaultRateLimits: RateLimitOptions = { productionPerSecond: 100, sandboxPerSecond: 25, authPerMinute: 30 }

type Bucket = Environment | "auth"

export class RateLimits extends Context.Service<RateLimits, {
  /**
   * Takes one request from `key`'s allowance in `bucket`: sets the RateLimit-* headers on the
   * response, and fails with `429 rate_limited` when the allowance is spent.
   */
  readonly take: (bucket: Bucket, key: string) => Effect.Effect<void, ApiErrorOf<"rate_limited">, HttpServerRequest.HttpServerRequest>
}>()("adapters/http/RateLimits") {
  /** On the SQL store when the host has one (shared by replicas), else in memory. */
  static readonly layer = (options: RateLimitOptions, tuning: { readonly sweepEvery?: Duration.Input } = {}) =>
    Layer.effect(RateLimits, Effect.gen(function*() {
      const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
      const make = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract =>
        Option.isSome(sql)
          ? new RateLimiterPostgres({
            storeClient: pgShim(sql.value),
            storeType: "client",
            tableName: "rate_limits",
            tableCreated: true,
            clearExpiredByTimeout: false,
            keyPrefix,
            points,
            duration
          })
          : new RateLimiterMemory({ keyPrefix, points, duration })
      const limiters: Record<Bucket, { readonly limiter: RateLimiterAbstract; readonly points: number }> = {
        production: { limiter: make("api_live", options.productionPerSecond, 1), points: options.productionPerSecond },
        sandbox: { limiter: make("api_test", options.sandboxPerSecond, 1), points: options.sandboxPerSecond },
        auth: { limiter: make("auth_ip", options.authPerMinute, 60), points: options.authPerMinute }
      }
      if (Option.isSome(sql)) {
        yield* Effect.suspend(() => sql.value`DELETE FROM rate_limits WHERE expire < ${Date.now() - expiredGraceMs}`).pipe(
          Effect.catchCause((cause) => Effect.logWarning("rate-limit sweep failed", cause)),
          Effect.repeat(Schedule.spaced(Duration.fromInputUnsafe(tuning.sweepEvery ?? "5 minutes"))),
          Effect.forkScoped
        )
      }
      // Sets the RateLimit-* headers of `bucket` on the response; a refusal is 429 with Retry-After.
      const answer = (bucket: Bucket, res: RateLimiterRes, allowed: boolean) =>
        Effect.gen(function*() {
          const { points } = limiters[bucket]
          const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000))
          const headers: Record<string, string> = {
            "ratelimit-limit": String(points),
            "ratelimit-remaining": String(res.remainingPoints),
            "ratelimit-reset": String(resetSeconds),
            ...(allowed ? {} : { "retry-after": String(resetSeconds) })
          }
          yield* HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
          if (!allowed) {
            yield* Metrics.count(Metrics.rateLimitRefusals, { bucket })
            return yield* apiError("rate_limited", `Too many requests: at most ${points} per ${bucket === "auth" ? "minute from one address" : "second for one credential"}; retry after ${resetSeconds} s`, {
              limit: points,
              retryAfterSeconds: resetSeconds
            })
          }
        })
      const consume = (bucket: Bucket, key: string, points: number) =>
        Effect.tryPromise({
          try: () =>
            limiters[bucket].limiter.consume(key, points).then((res) => ({ allowed: true, res }), (e: unknown) => {
              if (e instanceof RateLimiterRes) return { allowed: false, res: e }
              throw e
            }),
          catch: (e) => e
        }).pipe(Effect.orDie)
      /**
       * On SQL, an API request takes from a lease: this replica reserves `chunkOf(limit)` points of
       * the shared counter in one statement and spends them locally until they run out or the
       * window ends, so most requests make no round trip for the limiter. The shared counter
       * still bounds the sum over replicas: a replica only spends points the counter holds for it
       * (when fewer than a chunk are left it keeps what the counter granted). The cost: with
       * several replicas, a client can be refused up to (chunk - 1) per other replica early.
       * Requests that find the lease spent while it is being refilled wait for that one refill;
       * once the counter grants nothing, the rest of the window is refused here, with no statement.
       */
      const leases = new Map<string, Lease>()
      const takeLeased = (bucket: Bucket, key: string): Effect.Effect<void, ApiErrorOf<"rate_limited">, HttpServerRequest.HttpServerRequest> =>
        Effect.suspend(() => {
          const id = `${bucket}|${key}`
          const lease = leases.get(id)
          const now = Date.now()
          if (lease !== undefined && now < lease.until) {
            if (lease.remaining > 0) {
              lease.remaining--
              return answer(bucket, new RateLimiterRes(lease.res.remainingPoints + lease.remaining, lease.until - now), true)
            }
            // The counter had nothing left for this window: refused here until it ends.
            if (lease.exhausted) return answer(bucket, new RateLimiterRes(0, lease.until - now), false)
          }
          // One refill at a time per lease: the requests that find it spent meanwhile wait for it
          // and take from it (each reserving a chunk of its own overwrote the others' leases, and
          // a burst within the limit was refused).
          if (lease?.refill !== undefined) return Effect.andThen(Deferred.await(lease.refill), takeLeased(bucket, key))
          const { points } = limiters[bucket]
          const chunk = chunkOf(points)
          // The refill is announced and its completion guaranteed in one uninterruptible step: a
          // request interrupted in between (a client gone) would leave every later request of
          // the key waiting for a refill that never ends.
          return Effect.uninterruptibleMask((restore) => {
            const refill = Deferred.makeUnsafe<void>()
            leases.set(id, { remaining: 0, until: 0, res: lease?.res ?? new RateLimiterRes(), refill, exhausted: false })
            return restore(consume(bucket, key, chunk)).pipe(
              Effect.map(({ res }) => {
                // What the counter granted this replica: the whole chunk, or what was left of the limit.
                const granted = Math.min(chunk, Math.max(0, points - (res.consumedPoints - chunk)))
                if (leases.size > maxLeases) leases.clear()
                leases.set(id, { remaining: Math.max(0, granted - 1), until: now + res.msBeforeNext, res, refill: undefined, exhausted: granted === 0 })
                return { res, granted }
              }),
              // A refill that failed leaves no lease behind; either way its waiters go on.
              Effect.ensuring(Effect.suspend(() => {
                if (leases.get(id)?.refill === refill) leases.delete(id)
                return Deferred.succeed(refill, undefined)
              })),
              Effect.flatMap(({ granted, res }) =>
                restore(granted === 0 ? answer(bucket, res, false) : answer(bucket, new RateLimiterRes(res.remainingPoints + granted - 1, res.msBeforeNext), true)))
            )
          })
        })
      const take = (bucket: Bucket, key: string) =>
        Option.isSome(sql) && bucket !== "auth"
          ? takeLeased(bucket, key)
          : Effect.flatMap(consume(bucket, key, 1), ({ allowed, res }) => answer(bucket, res, allowed))
      return RateLimits.of({ take })
    }))
}

/** The `auth` bucket's key of wrong credentials of one kind from one client address. */
export const guessKey = (credential: "login" | "key" | "admin", address: string) => `${credential} ${address}`

/** `RateLimits.layer` with the limits of `HttpConfig` (the defaults when it names none). */
export const RateLimitsFromConfig = Layer.unwrap(Effect.map(HttpConfig, (config) => RateLimits.layer(config.rateLimits ?? defaultRateLimits)))

/** Points a replica reserves at once from a shared per-second limit: a tenth of it, 1 to 10. */
const chunkOf = (limit: number) => Math.max(1, Math.min(10, Math.floor(limit / 10)))
/** Points of the shared counter this replica holds for one key, and the refill in flight, if any. */
interface Lease {
  remaining: number
  readonly until: number
  readonly res: RateLimiterRes
  readonly refill: Deferred.Deferred<void> | undefined
  /** The counter granted nothing: the window's limit is spent. */
  readonly exhausted: boolean
}

/** Leases kept at most (one per credential seen in the last second); beyond, they are dropped. */
const maxLeases = 10_000

/** Rows are deleted an hour after they expired (the library's own choice for its timer). */
const expiredGraceMs = 3_600_000

/** The slice of a `pg` client the library calls (`query({ text, values })`), over our SQL client. */
const pgShim = (sql: SqlClient.SqlClient) => ({
  query: (q: { readonly text: string; readonly values?: ReadonlyArray<unknown> }) =>
    Effect.runPromise(sql.unsafe<Record<string, unknown>>(q.text, q.values ?? [])).then((rows) => ({ rows, rowCount: rows.length }))
})
