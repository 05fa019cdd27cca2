/**
 * A TCP proxy in front of PostgreSQL (or PGlite's socket) that counts the client's round trips:
 * each simple `Query` message, and each `Sync` that closes an extended-protocol exchange (parse,
 * bind, execute), is one trip to the database and back. It also keeps the SQL text of the
 * statements it saw, so the bench can show what one request runs.
 */
import { createServer, connect, type Server, type Socket } from "node:net"

export interface WireCounter {
  readonly port: number
  /** Round trips since the last reset. */
  readonly trips: () => number
  /** SQL texts since the last reset, in order (BEGIN/COMMIT included). */
  readonly statements: () => ReadonlyArray<string>
  readonly reset: () => void
  readonly close: () => Promise<void>
}

export const startWireCounter = (target: { readonly host: string; readonly port: number }): Promise<WireCounter> =>
  new Promise((resolve) => {
    let trips = 0
    let texts: Array<string> = []
    const sockets = new Set<Socket>()
    const server: Server = createServer((client) => {
      const upstream = connect(target.port, target.host)
      sockets.add(client).add(upstream)
      let buffered = Buffer.alloc(0)
      let started = false
      let pending: Array<string> = []
      const prepared = new Map<string, string>()
      client.on("data", (chunk) => {
        upstream.write(chunk)
        buffered = Buffer.concat([buffered, chunk])
        // The startup message (and an SSL request) has no type byte: a length, then the body.
        while (!started && buffered.length >= 8) {
          const length = buffered.readInt32BE(0)
          if (buffered.length < length) return
          const code = buffered.readInt32BE(4)
          buffered = buffered.subarray(length)
          if (code !== 80877103) started = true // not an SSLRequest: the real startup
        }
        while (started && buffered.length >= 5) {
          const length = buffered.readInt32BE(1)
          if (buffered.length < length + 1) return
          const type = String.fromCharCode(buffered[0]!)
          const body = buffered.subarray(5, length + 1)
          if (type === "Q") {
            trips++
            texts.push(body.subarray(0, body.indexOf(0)).toString())
          } else if (type === "P") {
            const nameEnd = body.indexOf(0)
            prepared.set(body.subarray(0, nameEnd).toString(), body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)).toString())
          } else if (type === "B") {
            const portalEnd = body.indexOf(0)
            pending.push(prepared.get(body.subarray(portalEnd + 1, body.indexOf(0, portalEnd + 1)).toString()) ?? "?")
          } else if (type === "S") {
            trips++
            texts.push(...(pending.length > 0 ? pending : ["(prepared statement)"]))
            pending = []
          }
          buffered = buffered.subarray(length + 1)
        }
      })
      upstream.on("data", (chunk) => client.write(chunk))
      const end = () => {
        client.destroy()
        upstream.destroy()
      }
      client.on("close", end).on("error", end)
      upstream.on("close", end).on("error", end)
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        trips: () => trips,
        statements: () => texts,
        reset: () => {
          trips = 0
          texts = []
        },
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
