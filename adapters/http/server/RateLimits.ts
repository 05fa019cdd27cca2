/**
 * Rate limits, with `rate-limiter-flexible` (a maintained limiter; its algorithm and its own SQL):
 *
 * - per credential on every authenticated API request: `RATE_LIMIT_PRODUCTION_PER_SECOND`
 *   (default 100) and `RATE_LIMIT_SANDBOX_PER_SECOND` (default 25), like Stripe's;
 * - per client IP on `POST /auth/token` and `POST /auth/refresh`: `RATE_LIMIT_AUTH_PER_MINUTE`
 *   (default 30), so a burst of bad logins is throttled. A raw API key that fails as the bearer of
 *   any route takes from the same allowance, and once it is spent raw keys from that address wait
 *   (else the API would check guessed keys unthrottled).
 *
 * On a SQL store the counters live in the `rate_limits` table (the library's `RateLimiterPostgres`
 * speaking through the engine's own SQL client), so every replica on one PostgreSQL shares them;
 * on the memory store they live in the process (`RateLimiterMemory`). Rows expired over an hour
 * are deleted every 5 minutes by each replica, from a fiber of this layer's scope (the library's
 * own timer, `clearExpiredByTimeout`, would outlive the SQL client). A refused request is
 * `429 rate_limited` with `Retry-After`; every limited response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds).
 */
import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible"
import { apiError, type ApiError } from "../../../core/ApiError.ts"
import type { Environment } from "../../../core/Environment.ts"
import { HttpConfig } from "./HttpConfig.ts"

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
  readonly take: (bucket: Bucket, key: string) => Effect.Effect<void, ApiError, HttpServerRequest.HttpServerRequest>
  /** Fails like `take` when `key`'s allowance in `bucket` is already spent; takes nothing. */
  readonly check: (bucket: Bucket, key: string) => Effect.Effect<void, ApiError, HttpServerRequest.HttpServerRequest>
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
            return yield* apiError("rate_limited", `Too many requests: at most ${points} per ${bucket === "auth" ? "minute from one address" : "second for one credential"}; retry after ${resetSeconds} s`, {
              limit: points,
              retryAfterSeconds: resetSeconds
            })
          }
        })
      const take = (bucket: Bucket, key: string) =>
        Effect.tryPromise({
          try: () =>
            limiters[bucket].limiter.consume(key, 1).then((res) => ({ allowed: true, res }), (e: unknown) => {
              if (e instanceof RateLimiterRes) return { allowed: false, res: e }
              throw e
            }),
          catch: (e) => e
        }).pipe(Effect.orDie, Effect.flatMap(({ allowed, res }) => answer(bucket, res, allowed)))
      const check = (bucket: Bucket, key: string) =>
        Effect.tryPromise({ try: () => limiters[bucket].limiter.get(key), catch: (e) => e }).pipe(
          Effect.orDie,
          Effect.flatMap((res) => res !== null && res.remainingPoints <= 0 ? answer(bucket, res, false) : Effect.void)
        )
      return RateLimits.of({ take, check })
    }))
}

/** `RateLimits.layer` with the limits of `HttpConfig` (the defaults when it names none). */
export const RateLimitsFromConfig = Layer.unwrap(Effect.map(HttpConfig, (config) => RateLimits.layer(config.rateLimits ?? defaultRateLimits)))

/** Rows are deleted an hour after they expired (the library's own choice for its timer). */
const expiredGraceMs = 3_600_000

/** The slice of a `pg` client the library calls (`query({ text, values })`), over our SQL client. */
const pgShim = (sql: SqlClient.SqlClient) => ({
  query: (q: { readonly text: string; readonly values?: ReadonlyArray<unknown> }) =>
    Effect.runPromise(sql.unsafe<Record<string, unknown>>(q.text, q.values ?? [])).then((rows) => ({ rows, rowCount: rows.length }))
})
