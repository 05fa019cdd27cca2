/**
 * Key rotation on PostgreSQL (the vault's own schema): cards sealed under KEK "a" are re-wrapped
 * under "b" in batches while reads go on, after which the vault reads them with "a" removed.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Cards } from "../../vault/cards/Cards.ts"
import { SecurityCodes } from "../../vault/cards/SecurityCodes.ts"
import * as LocalKeyManagement from "../../vault/keys/LocalKeyManagement.ts"
import { storeLayer } from "../../vault/store/Database.ts"
import { cards, hexKey } from "./VaultFixtures.ts"

const url = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const schema = `vault_rotation_${process.pid}`
const kekA = { id: "a", key: Uint8Array.from(Buffer.from(hexKey(0xa1), "hex")) }
const kekB = { id: "b", key: Uint8Array.from(Buffer.from(hexKey(0xb2), "hex")) }
const fingerprintSecret = Redacted.make("fingerprint-secret-for-tests-0123456789")

/** Cards on the shared store and security codes, under the given KEKs. */
const withKeys = <A, E, R>(keks: ReadonlyArray<LocalKeyManagement.Kek>, effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, Cards.layer({ fingerprintSecret }).pipe(Layer.provide(LocalKeyManagement.layer(keks))))

const store = Layer.mergeAll(storeLayer({ _tag: "postgres", url: Redacted.make(url), schema }), SecurityCodes.layer())

describe("key rotation", () => {
  it.live("re-wraps every data key under the new KEK in batches, reads going on, and reads with the old key removed", () =>
    Effect.gen(function*() {
      const numbers = [cards.visa, cards.mastercard, cards.amex, cards.discover, cards.elo]
      const tokens = yield* withKeys([kekA], Effect.forEach(numbers, (number) =>
        Effect.map(Effect.flatMap(Effect.service(Cards), (c) => c.tokenize({ merchantId: "mer_r", number, expMonth: 1, expYear: 2032, holderName: "Rita Rot" }, "merchant:mer_r")), (d) => d.token)))
      const sql = yield* SqlClient.SqlClient
      const keyIds = () => Effect.map(sql<{ key_id: string }>`SELECT key_id FROM vault_cards ORDER BY token`, (rows) => [...new Set(rows.map((r) => r.key_id))])
      assert.deepStrictEqual(yield* keyIds(), ["a"])

      // Before rotation, the vault given only "b" cannot open a card sealed under "a".
      const early = yield* withKeys([kekB], Effect.flip(Effect.flatMap(Effect.service(Cards), (c) => c.describe("mer_r", tokens[0]!))))
      assert.strictEqual(early._tag, "CardUnreadable")

      const [report, reads] = yield* withKeys([kekB, kekA], Effect.flatMap(Effect.service(Cards), (c) =>
        Effect.all([
          c.rotateKeys({ batchSize: 2 }),
          Effect.forEach(tokens, (token) => Effect.map(c.describe("mer_r", token), (d) => d.last4), { concurrency: "unbounded" })
        ], { concurrency: "unbounded" })))
      assert.strictEqual(report.rewrapped, 5)
      assert.deepStrictEqual(reads, numbers.map((n) => n.slice(-4)))
      assert.deepStrictEqual(yield* keyIds(), ["b"])

      const after = yield* withKeys([kekB], Effect.flatMap(Effect.service(Cards), (c) => Effect.forEach(tokens, (token) => c.describe("mer_r", token))))
      assert.deepStrictEqual(after.map((d) => d.last4), numbers.map((n) => n.slice(-4)))
      assert.deepStrictEqual(after.map((d) => d.holderName), numbers.map(() => "Rita Rot"))
      // A second rotation finds nothing left to do.
      assert.strictEqual((yield* withKeys([kekB], Effect.flatMap(Effect.service(Cards), (c) => c.rotateKeys()))).rewrapped, 0)
      yield* sql.unsafe(`DROP SCHEMA "${schema}" CASCADE`)
    }).pipe(Effect.provide(store)))
})
