/**
 * A team member in Chromium: the invitation link from a real SMTP server on loopback, the
 * password and the authenticator's enrolment on the console's pages, the sign-in with email,
 * password and code, a page the role allows and an action it does not, and the session ended at
 * once when the member is removed. Every page passes axe-core at 1280 and 390 px; nothing loads
 * from another host.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { Secret, TOTP } from "otpauth"
import { MemoryStore } from "../../adapters/storage/memory/MemoryStore.ts"
import { browser, chromiumPath } from "../support/Browser.ts"
import { consoleContext, looked, signInMerchant } from "../support/Console.ts"
import { baseUrl, call, createMerchant, reachableHost } from "../support/Host.ts"
import { type Received, smtpReceiver } from "../support/Smtp.ts"

class Inbox extends Context.Service<Inbox, { readonly messages: Array<Received> }>()("test/console/Team/Inbox") {}

const HostWithMail = Layer.unwrap(Effect.gen(function*() {
  const smtp = yield* smtpReceiver
  return Layer.merge(
    reachableHost(MemoryStore.layer, { smtp: Option.some({ url: Redacted.make(smtp.url), from: "Console <console@pagos.test>" }) }),
    Layer.succeed(Inbox, { messages: smtp.messages })
  )
}))

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate()

describe.skipIf(chromiumPath === undefined)("a team member in the console, in Chromium", () => {
  layer(HostWithMail, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("joins from the emailed link, signs in with a code, sees what the role allows, and is signed out when removed", () =>
      Effect.gen(function*() {
        const { keys } = yield* createMerchant({ name: "Loja Azul" })
        const base = yield* baseUrl
        const chromium = yield* browser
        // The merchant, signed in with its key pair (a full key), invites Ana from the team page.
        const owner = yield* Effect.promise(() => consoleContext(chromium, base))
        yield* Effect.promise(async () => {
          await signInMerchant(owner.page, base, keys.sandbox, "/console/team")
          assert.include(await owner.page.textContent("main") ?? "", "No team members yet.")
          await owner.page.fill("#email", "ana@lojaazul.test")
          await owner.page.fill("#name", "Ana")
          await owner.page.selectOption("#role", "viewer")
          await owner.page.click("#invite-heading ~ form button[type=submit]")
          assert.include(await owner.page.textContent("[role=status]") ?? "", "Invitation sent to ana@lojaazul.test")
          await looked(owner.page, "team")
        })
        const members = yield* call("GET", "/api/v1/team/members", { bearer: keys.sandbox.secretKey })
        const invited = { body: { member: members.body.data[0] } }
        assert.strictEqual(invited.body.member.email, "ana@lojaazul.test")
        const { messages } = yield* Inbox
        for (let i = 0; i < 100 && messages.length === 0; i++) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
        const link = new RegExp(`${base.replace(/[.:/]/g, "\\$&")}/console/invitations/inv_[0-9A-Za-z]+`).exec(messages[0]?.text ?? "")?.[0]
        assert.isDefined(link, messages[0]?.text)
        const { foreign, page } = yield* Effect.promise(() => consoleContext(chromium, base))
        yield* Effect.promise(async () => {
          const shown = await page.goto(link!)
          assert.include(shown!.headers()["content-security-policy"] ?? "", "default-src 'none'")
          await looked(page, "team-invitation")
          await page.fill("#password", "short")
          // The browser's own check (minlength) stops a short one; the server says the same to a client that skips it.
          await page.evaluate(() => document.querySelector("form")?.setAttribute("novalidate", ""))
          await page.click("button[type=submit]")
          assert.strictEqual(await page.getAttribute("#password", "aria-invalid"), "true")
          await page.fill("#password", "a long enough password")
          await page.click("button[type=submit]")
          const secret = (await page.textContent("code"))!.replace(/\s/g, "")
          assert.match(secret, /^[A-Z2-7]{32}$/)
          await looked(page, "team-enrol")
          await page.fill("#code", "000000")
          await page.click("button[type=submit]")
          assert.strictEqual(await page.getAttribute("#code", "aria-invalid"), "true")
          await page.fill("#code", code(secret))
          await page.click("button[type=submit]")
          assert.include(await page.textContent("main") ?? "", "You are on the team")

          await page.goto(`${base}/console/sign-in`)
          await page.fill("#email", "ana@lojaazul.test")
          await page.fill("#password", "a long enough password")
          await page.fill("#code", "123456")
          await page.click("#member-heading ~ form button[type=submit]")
          assert.strictEqual(await page.getAttribute("#code", "aria-invalid"), "true")
          await page.fill("#email", "ana@lojaazul.test")
          await page.fill("#password", "a long enough password")
          await page.fill("#code", code(secret))
          await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/console/sign-in")), page.click("#member-heading ~ form button[type=submit]")])
          assert.strictEqual(new URL(page.url()).pathname, "/console/payments")
          await looked(page, "team-member-payments")
          // A viewer reads; the developer tools need a role that holds keys.
          await page.goto(`${base}/console/developers`)
          const text = await page.textContent("main") ?? ""
          assert.notInclude(text, "pk_test_", "a viewer's console shows no keys")
          // Nor the team: the API's refusal, on the page.
          await page.goto(`${base}/console/team`)
          assert.include(await page.textContent("main") ?? "", "may not call")
        })

        // The owner removes Ana from the team page: her session ends at once.
        yield* Effect.promise(async () => {
          await owner.page.goto(`${base}/console/team`)
          assert.include(await owner.page.textContent("main") ?? "", "active")
          await owner.page.click("button[aria-label='Remove: ana@lojaazul.test']")
          assert.include(await owner.page.textContent("[role=status]") ?? "", "Member removed.")
          // Each change is on the audit log, which the console shows.
          await owner.page.goto(`${base}/console/developers/audit-log`)
          const log = await owner.page.textContent("main") ?? ""
          for (const operation of ["team.invite", "team.remove"]) assert.include(log, operation)
          assert.include(log, "team_member")
          assert.include(log, "member ana@lojaazul.test", "Ana's own enrolment is hers")
          await looked(owner.page, "audit-log")
        })
        yield* Effect.promise(async () => {
          await page.goto(`${base}/console/payments`)
          assert.strictEqual(new URL(page.url()).pathname, "/console/sign-in", "the removed member's session has ended")
        })
        assert.deepStrictEqual([...foreign, ...owner.foreign], [])
      }))
  })
})
