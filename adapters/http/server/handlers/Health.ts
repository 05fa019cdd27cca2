/**
 * The operator's health routes, unauthenticated and cheap, apart from the merchant's
 * `openapi.json`:
 *
 * - `GET /health/live`: 200 `{ status: "ok" }` as long as the process answers.
 * - `GET /health/ready`: 200 when the store answers a trivial query within `storeBudget`, the
 *   workers run and the host is not shutting down; 503 `{ status: "unavailable", checks }`
 *   otherwise. Migrations need no check of their own: the routes exist only once the store
 *   layer is built, and it is built after its migrations ran.
 *
 * `Readiness` holds what the host knows of itself (workers started, shutdown begun); without it
 * (an embedder's `HttpApp`) only the store is checked, and without `StoreHealth` nothing is.
 */
import { Duration, Effect, Layer, Option, Ref } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Context } from "effect"
import { StoreHealth } from "../../../../core/ports/StoreHealth.ts"

/** How long the readiness probe waits for the store's answer. */
export const storeBudget = Duration.seconds(1)

export class Readiness extends Context.Service<Readiness, {
  /** The job and webhook workers were started and have not been stopped. */
  readonly workers: Ref.Ref<boolean>
  /** Shutdown began: stop answering ready so the load balancer sends nothing new. */
  readonly draining: Ref.Ref<boolean>
}>()("adapters/http/Readiness") {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.gen(function*() {
      return Readiness.of({ workers: yield* Ref.make(false), draining: yield* Ref.make(false) })
    })
  )

  /**
   * Marks the workers running once built; build it after the worker layers (provide them to it),
   * so that its finalizer, which marks them stopped, runs before theirs.
   */
  static readonly workersRunning = Layer.effectDiscard(Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* Ref.set(readiness.workers, true)
    yield* Effect.addFinalizer(() => Ref.set(readiness.workers, false))
  }))

  /**
   * On shutdown, not ready at once, then `grace` before whatever was built earlier (the server
   * that then stops accepting and drains its connections) is released: build it after the
   * server. The grace gives the load balancer time to see the 503 and stop sending.
   */
  static readonly drainFirst = (grace: Duration.Input) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const readiness = yield* Readiness
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          yield* Ref.set(readiness.draining, true)
          const wait = Duration.fromInputUnsafe(grace)
          if (Duration.toMillis(wait) > 0) {
            yield* Effect.logInfo(`shutting down: not ready, draining in ${Duration.toMillis(wait)}ms`)
            yield* Effect.sleep(wait)
          }
        })
      )
    }))
}

const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

export const HealthRoutes = Layer.unwrap(Effect.gen(function*() {
  const store = yield* Effect.serviceOption(StoreHealth)
  const readiness = yield* Effect.serviceOption(Readiness)

  const storeCheck = Option.match(store, {
    onNone: () => Effect.succeed("ok" as const),
    onSome: (s) =>
      s.ping.pipe(
        Effect.timeout(storeBudget),
        Effect.as("ok" as const),
        Effect.catchCause(() => Effect.succeed("unavailable" as const))
      )
  })

  const ready = Effect.gen(function*() {
    const [storeStatus, workers, draining] = yield* Effect.all([
      storeCheck,
      Option.match(readiness, { onNone: () => Effect.succeed(true), onSome: (r) => Ref.get(r.workers) }),
      Option.match(readiness, { onNone: () => Effect.succeed(false), onSome: (r) => Ref.get(r.draining) })
    ], { concurrency: "unbounded" })
    const checks = {
      store: storeStatus,
      migrations: "ok",
      workers: workers ? "running" : "stopped",
      shutdown: draining ? "draining" : "no"
    }
    return storeStatus === "ok" && workers && !draining
      ? json(200, { status: "ok", checks })
      : json(503, { status: "unavailable", checks })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/health/live", Effect.succeed(json(200, { status: "ok" }))),
    HttpRouter.add("GET", "/health/ready", ready)
  )
}))
