/** The hosted-checkout session store on SQL. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { date } from "./Rows.ts"
import { CheckoutSessionJson } from "../../../core/checkout/CheckoutSession.ts"
import { CheckoutSessionStore } from "../../../core/ports/CheckoutSessionStore.ts"

const encodeSession = Schema.encodeSync(CheckoutSessionJson)

const decodeSession = Schema.decodeUnknownSync(CheckoutSessionJson)

export const SqlCheckoutSessionStore = Layer.effect(
  CheckoutSessionStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return CheckoutSessionStore.of({
      insert: (s) =>
        sql`INSERT INTO checkout_sessions ${
          sql.insert({
            token: s.token,
            id: s.id,
            environment: s.environment,
            shopId: s.shopId,
            version: s.version,
            expiresAt: date(s.expiresAt),
            data: JSON.stringify(encodeSession(s))
          })
        }`.pipe(Effect.asVoid, Effect.orDie),
      findByToken: (token) =>
        sql<{ readonly data: unknown }>`SELECT data FROM checkout_sessions WHERE token = ${token}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(decodeSession(rows[0]!.data))),
          Effect.orDie
        ),
      update: (s) =>
        sql<{ readonly token: string }>`
          UPDATE checkout_sessions SET version = ${s.version}, data = ${JSON.stringify(encodeSession(s))}
          WHERE token = ${s.token} AND version = ${s.version - 1} RETURNING token`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
