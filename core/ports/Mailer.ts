import { Context, Effect, Layer } from "effect"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** Why a message was not handed to the mail server. */
export class MailNotSent extends Error {
  readonly _tag = "MailNotSent"
}

/**
 * The engine's outgoing email (a team member's invitation). The reference adapter speaks SMTP
 * (`adapters/mail/SmtpMailer.ts`, `SMTP_URL`); `configured` false: the host has no mail server,
 * and a caller hands the message's link to the person who asked instead.
 */
export class Mailer extends Context.Service<Mailer, {
  readonly configured: boolean
  readonly send: (message: MailMessage) => Effect.Effect<void, MailNotSent>
}>()("core/ports/Mailer") {
  static readonly none = Layer.succeed(Mailer, Mailer.of({ configured: false, send: () => Effect.fail(new MailNotSent("no mail server is configured")) }))
}
