/** A loopback provider for forward tests: records every request it receives and answers as told. */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export type Answer = { readonly status: number; readonly headers?: Record<string, string>; readonly body: (received: Received) => string } | "hang"

export const startProviderStub = async () => {
  const received: Array<Received> = []
  let answer: Answer = { status: 200, body: () => "{}" }
  const server = createServer((req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (body += chunk))
    req.on("end", () => {
      const entry = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body }
      received.push(entry)
      if (answer === "hang") return
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
      res.end(answer.body(entry))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (next: Answer) => {
      answer = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
