/** A TCP proxy a test can cut and restore: a store that becomes unreachable and comes back. */
import { connect, createServer, type Server, type Socket } from "node:net"

/** A TCP proxy on loopback to `target`, which the test closes (every connection cut) and reopens on the same port. */
export const tcpProxy = (port: number, target: { host: string; port: number }) => {
  let server: Server | undefined
  const sockets = new Set<Socket>()
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on("close", () => sockets.delete(s))
          s.on("error", () => {
            client.destroy()
            upstream.destroy()
          })
        }
        client.pipe(upstream)
        upstream.pipe(client)
      })
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => resolve())
    })
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      sockets.clear()
      if (server === undefined) return resolve()
      server.close(() => resolve())
      server = undefined
    })
  return { open, close }
}
