/**
 * The memory store through the embedding: `examples/embed-engine`'s `makeEmbeddedEngine` with its
 * rate limits lifted (`rateLimits: false`), its Fetch handler mounted on `node:http` the way an
 * embedder would, on a loopback port. It onboards a merchant, takes an access token for its
 * sandbox key through the API, and prints `{"port":n,"token":"..."}` once it listens.
 *
 * The example imports the package by name, which resolves to the built `dist/` (`npm run build`;
 * `bench/embed/Measure.ts` builds it when stale).
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { makeEmbeddedEngine } from "../../examples/embed-engine/main.ts"

const engine = makeEmbeddedEngine({ jwtSecret: "bench-embedded-jwt-secret-of-32-bytes!", publicUrl: "http://127.0.0.1", rateLimits: false })
const { keys } = await engine.onboard("Bench", "bench@example.com")
const answer = await engine.handler(new Request("http://127.0.0.1/api/v1/auth/token", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ apiKey: keys.sandbox.publishableKey, secretKey: keys.sandbox.secretKey })
}))
if (!answer.ok) throw new Error(`POST /auth/token: HTTP ${answer.status} ${await answer.text()}`)
const { accessToken } = await answer.json() as { accessToken: string }

const headersOf = (req: IncomingMessage) => {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  return headers
}

const server = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => {
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks)
    engine.handler(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method ?? "GET", headers: headersOf(req), body: body ?? null }))
      .then(async (response) => {
        const payload = Buffer.from(await response.arrayBuffer())
        res.writeHead(response.status, [...response.headers].flat())
        res.end(payload)
      })
      .catch((error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error))
      })
  })
})

server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, token: accessToken }))
})
process.once("SIGTERM", () => {
  server.close()
  void engine.dispose().then(() => process.exit(0))
})
