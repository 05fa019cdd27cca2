/**
 * A webhook receiver a merchant copies: a plain Node HTTP server that reads the raw body, verifies
 * `X-Service-Signature` with `verifyWebhook`, and answers 2xx only for a genuine event (anything
 * else makes the engine retry). It imports only the package (`payment-orchestration-engine/webhooks`,
 * which needs `effect` only), so it runs as it is in your own project: copy it into an ES module
 * package (`"type": "module"`, `npm pkg set type=module`) and run
 * `WEBHOOK_SECRET=whsec_... PORT=4000 npx tsx main.ts` (`PORT=0` picks a free port).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { verifyWebhook } from "payment-orchestration-engine/webhooks"

export interface ReceivedEvent {
  readonly id: string
  readonly type: string
  readonly deliveryId: string | undefined
  readonly envelope: Record<string, unknown>
}

const parseObject = (text: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

export const startReceiver = (options: {
  readonly port: number
  readonly secret: string
  readonly onEvent: (event: ReceivedEvent) => void
}): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", async () => {
        const rawBody = Buffer.concat(chunks).toString("utf8")
        const { reason, valid } = await verifyWebhook(rawBody, req.headers["x-service-signature"], options.secret)
        if (!valid) {
          res.writeHead(400, { "content-type": "text/plain" }).end(`bad signature: ${reason}`)
          return
        }
        // A genuine signature over a body that is not a JSON object is still not an event: say
        // so (400) rather than let the parse throw out of the handler and take the server down.
        const envelope = parseObject(rawBody)
        if (envelope === undefined) {
          res.writeHead(400, { "content-type": "text/plain" }).end("the body is not a JSON object")
          return
        }
        options.onEvent({
          id: String(envelope["id"]),
          type: String(envelope["type"]),
          deliveryId: req.headers["x-service-delivery"] as string | undefined,
          envelope
        })
        res.writeHead(204).end()
      })
    })
    server.listen(options.port, "127.0.0.1", () => resolve(server))
  })

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env["WEBHOOK_SECRET"]
  if (secret === undefined) throw new Error("set WEBHOOK_SECRET to the webhook's whsec_ secret")
  const port = Number(process.env["PORT"] ?? 4000)
  const server = await startReceiver({ port, secret, onEvent: (e) => console.log(`${e.type} ${e.id}`, JSON.stringify(e.envelope["data"])) })
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
}
