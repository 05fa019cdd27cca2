/**
 * A real SMTP server on loopback for tests (`smtp-server`, the receiving half of nodemailer's
 * project): what the host's SMTP adapter sends arrives here over a socket and is parsed with
 * `mailparser`.
 */
import { Effect } from "effect"
import { simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

export interface Received {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** An SMTP receiver on 127.0.0.1 (any free port) for the scope; `messages` fills as mail arrives. */
export const smtpReceiver = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly messages: Array<Received>; readonly server: SMTPServer }>((resume) => {
    const messages: Array<Received> = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(", ") : mail.to?.text ?? ""
          messages.push({ to, subject: mail.subject ?? "", text: mail.text ?? "" })
          callback()
        }, (e: Error) => callback(e))
      }
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({ url: `smtp://127.0.0.1:${port}`, messages, server }))
    })
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)
