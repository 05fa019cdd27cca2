/**
 * The engine's callback endpoint in miniature, for conformance harnesses and provider tests: a
 * loopback server that verifies what it receives with the plugin and answers 204 or 401, keeping
 * the updates it accepted. Test tooling, never imported by a plugin.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit } from "effect"

export interface CallbackReceiver<U> {
  readonly url: string
  readonly updates: Array<U>
}

export const callbackReceiver = <U, E>(
  verify: (headers: Readonly<Record<string, string | undefined>>, rawBody: string) => Effect.Effect<ReadonlyArray<U>, E>,
  path = "/callbacks"
) =>
  Effect.acquireRelease(
    Effect.callback<CallbackReceiver<U> & { readonly close: () => void }>((resume) => {
      const updates: Array<U> = []
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const headers = Object.fromEntries(
            Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v])
          )
          void Effect.runPromiseExit(verify(headers, Buffer.concat(chunks).toString("utf8"))).then((exit) => {
            if (Exit.isSuccess(exit)) updates.push(...exit.value)
            res.writeHead(Exit.isSuccess(exit) ? 204 : 401).end()
          })
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
          updates,
          close: () => {
            server.close()
            server.closeAllConnections()
          }
        })))
    }),
    (receiver) => Effect.sync(receiver.close)
  )
