/**
 * The engine's outgoing email over SMTP with `nodemailer`: `SMTP_URL`
 * (`smtp://user:pass@host:587`, `smtps://...` for TLS from the start; STARTTLS is used when the
 * server offers it) and `MAIL_FROM`. A message the server refuses, or a server that does not
 * answer within 10 s, is `MailNotSent`, with the server's words and never the message.
 */
import { Effect, Layer, Redacted } from "effect"
import { createTransport } from "nodemailer"
import { Mailer, MailNotSent } from "../../core/ports/Mailer.ts"

export const SmtpMailer = {
  layer: (options: { readonly url: Redacted.Redacted<string>; readonly from: string }) =>
    Layer.effect(Mailer, Effect.acquireRelease(
      Effect.sync(() => {
        const url = new URL(Redacted.value(options.url))
        const secure = url.protocol === "smtps:"
        return createTransport({
          host: url.hostname,
          port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
          secure,
          ...(url.username === "" ? {} : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 10_000
        })
      }),
      (transport) => Effect.sync(() => transport.close())
    ).pipe(Effect.map((transport) => Mailer.of({
      configured: true,
      send: (message) =>
        Effect.tryPromise({
          try: () => transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text }),
          catch: (e) => new MailNotSent(e instanceof Error ? e.message : String(e))
        }).pipe(Effect.asVoid, Effect.withSpan("SmtpMailer.send"))
    }))))
}
