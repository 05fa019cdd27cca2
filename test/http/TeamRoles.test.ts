/**
 * The team roles' permission matrix, generated from the API's own operation list and the roles'
 * grants (`core/team/Roles.ts`): the table in docs/merchant-api.md ("Team members") is exactly the
 * generated one, and a member of each role, signed in through a real host, gets exactly what the
 * matrix says on a read, a write, the developer tools and the team.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { Secret, TOTP } from "otpauth"
import { neededBy } from "../../adapters/http/api/Permissions.ts"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { allows } from "../../core/auth/Permissions.ts"
import { grantsOf, type Role, roles } from "../../core/team/Roles.ts"
import { call, createMerchant, testHost } from "../support/Host.ts"
import { between, operations } from "../support/Operations.ts"

const allowed = (role: Role, path: string, method: string) => {
  const op = operations().find((o) => o.endpoint.path === path && o.endpoint.method === method)
  assert.isDefined(op, `${method} ${path}`)
  return allows(grantsOf[role], neededBy(op!.group, op!.endpoint) ?? null)
}

const table = () => [
  `| operation | ${roles.join(" | ")} |`,
  `| --- |${roles.map(() => " :-: |").join("")}`,
  ...operations().filter((o) => o.takesKey).map(({ endpoint, group }) => {
    const needed = neededBy(group, endpoint) ?? null
    return `| \`${endpoint.method} ${endpoint.path}\` | ${roles.map((r) => allows(grantsOf[r], needed) ? "yes" : "no").join(" | ")} |`
  })
].join("\n")

describe("team roles' permission matrix", () => {
  it("is the table of the merchant guide", () => {
    const guide = readFileSync(new URL("../../docs/merchant-api.md", import.meta.url), "utf8")
    assert.strictEqual(between(guide, "roles"), table(), `docs/merchant-api.md, between the roles markers, should read:\n${table()}`)
  })

  layer(testHost(MemoryStore.layer), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a member of each role gets exactly what the matrix allows", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant()
        const sk = keys.sandbox.secretKey
        const probes = [
          ["GET", "/api/v1/payments", undefined],
          ["POST", "/api/v1/payments", { amount: 10, paymentMethodId: "sbx_pix", userName: "Bia Lima", documentId: "52998224725" }],
          ["GET", "/api/v1/me/keys", undefined],
          ["GET", "/api/v1/team/members", undefined],
          ["GET", "/api/v1/me/settlements", undefined],
          ["POST", "/api/v1/webhooks", { url: "https://hooks.example.com/in", events: ["payment.completed"] }]
        ] as const
        for (const role of roles) {
          const email = `${role}@example.com`
          const invited = yield* call("POST", "/api/v1/team/members", { bearer: sk, body: { email, role } })
          assert.strictEqual(invited.status, 201, JSON.stringify(invited.body))
          const token = /(inv_[0-9A-Za-z]+)/.exec(invited.body.invitation.url)![1]!
          const password = `a long password for ${role}`
          const secret = (yield* call("POST", "/api/v1/auth/invitations/accept", { body: { token, password } })).body.totpSecret as string
          const code = () => new TOTP({ secret: Secret.fromBase32(secret) }).generate()
          assert.strictEqual((yield* call("POST", "/api/v1/auth/invitations/confirm", { body: { token, code: code() } })).status, 200)
          const bearer = (yield* call("POST", "/api/v1/auth/sign-in", { body: { email, password, code: code(), environment: "sandbox" } })).body.accessToken as string
          for (const [method, path, body] of probes) {
            const reply = yield* call(method, path, { bearer, ...(body === undefined ? {} : { body }) })
            const expected = allowed(role, path, method)
            assert.strictEqual(reply.status !== 403, expected, `${role}: ${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`)
            if (expected) assert.isBelow(reply.status, 300, `${role}: ${method} ${path}`)
          }
        }
      }))
  })
})
