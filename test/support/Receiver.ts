/** A webhook endpoint on loopback for tests: it answers 200 to every POST and keeps each body, parsed. */
import { Effect } from "effect"
import { createServer } from "node:http"

export const webhookReceiver = Effect.acquireRelease(
  Effect.promise(async () => {
    const bodies: Array<any> = []
    const server = createServer((req, res) => {
      let text = ""
      req.on("data", (chunk) => (text += chunk))
      req.on("end", () => {
        bodies.push(JSON.parse(text))
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    return { server, bodies, url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hooks` }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)
