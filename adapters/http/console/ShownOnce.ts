/**
 * The page that shows, once, the secret an action just made (a new merchant's keys, rotated keys,
 * a webhook's signing secret): held sealed in the session by `Console.showOnce`, forgotten as it
 * is shown. Opened again, or with nothing to show, it goes home.
 */
import { Effect } from "effect"
import type { Section } from "./Layout.ts"
import { type ConsoleRoute, redirect } from "./Page.ts"
import { shownOncePath } from "./Sessions.ts"

export const shownOnceRoute: ConsoleRoute = {
  method: "GET",
  path: shownOncePath,
  side: "signedIn",
  handler: (c) =>
    Effect.gen(function*() {
      const credential = c.session.credential
      if (credential.kind === "rotated" || credential.shownOnce === undefined) {
        return redirect(credential.kind === "operator" ? "/console/operator/merchants" : "/console/payments")
      }
      const shown = credential.shownOnce
      yield* c.forgetShownOnce
      return c.page(shown.title, shown.body, { section: shown.section as Section | undefined })
    })
}
