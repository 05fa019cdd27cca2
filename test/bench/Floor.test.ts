/**
 * The bench's stack floor (`bench/floor/Server.ts`) runs only on PostgreSQL, so the short bench of
 * the smoke check never starts it. This starts it on the tables a baseline seeds, with a token
 * signed as the host signs one, and checks it answers a create as the baseline does: what the
 * performance guide (`docs/performance.md`) compares the project with stays runnable.
 */
import { SignJWT } from "jose"
import pg from "pg"
import { afterAll, assert, describe, it } from "vitest"
import type { Seed } from "../../bench/baseline/Db.ts"
import { type Child, start } from "../../bench/support/Processes.ts"

const databaseUrl = process.env["DATABASE_URL"]

describe.skipIf(databaseUrl === undefined)("the bench's stack floor on PostgreSQL", () => {
  const seed: Seed = {
    schema: `floor_test_${process.pid}`,
    databaseUrl: databaseUrl ?? "",
    credential: { id: "cred_floor", merchantId: "mer_floor", version: 1 },
    merchant: { id: "mer_floor", name: "Floor", email: "floor@example.com" },
    shop: { id: "shop_floor", name: "Floor" }
  }
  const children: Array<Child> = []
  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop()))
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${seed.schema}" CASCADE`)
    await client.end()
  })

  it("answers POST /payments like the baseline, on the baseline's tables", async () => {
    const env = { BENCH_STORE: "postgres", BENCH_SEED: JSON.stringify(seed) }
    const baseline = await start("bench/baseline/Server.ts", env)
    children.push(baseline)
    const floor = await start("bench/floor/Server.ts", env)
    children.push(floor)
    const token = await new SignJWT({ ver: 1 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(seed.credential.id)
      .setIssuer("payment-orchestration-engine")
      .setAudience("api")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("loopback-jwt-secret-of-at-least-32-bytes"))
    const create = (port: number, key: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/payments`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ amount: 25, paymentMethodId: "1001", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" })
      })
    const fromBaseline = await create(baseline.port, "b-1")
    const fromFloor = await create(floor.port, "f-1")
    assert.strictEqual(fromBaseline.status, 201)
    assert.strictEqual(fromFloor.status, 201)
    const [b, f] = [await fromBaseline.json() as Record<string, unknown>, await fromFloor.json() as Record<string, unknown>]
    assert.deepStrictEqual(Object.keys(f).sort(), Object.keys(b).sort())
    assert.strictEqual(f["status"], "pending")
    assert.strictEqual(f["localAmount"], b["localAmount"])
    // The key it claimed is taken: the floor refuses it again, as its statements say.
    assert.strictEqual((await create(floor.port, "f-1")).status, 409)
    // A token for a credential the tables do not hold is refused.
    const unknown = await fetch(`http://127.0.0.1:${floor.port}/api/v1/payments`, { method: "POST", headers: { authorization: "Bearer nope" } })
    assert.strictEqual(unknown.status, 401)
  }, 90_000)
})
