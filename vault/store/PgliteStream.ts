/**
 * A PostgreSQL wire connection to an embedded PGlite in this process, so `PgClient` (and the same
 * SQL and migrations) run against it as against a server. The vault keeps its own copy of the
 * engine's stream: it imports nothing of the engine but the card port.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

const sslRequestCode = 80877103
const cancelRequestCode = 80877102
const terminate = 0x58

export const pgliteStream = (db: PGlite): Duplex => {
  let buffered: Buffer = Buffer.alloc(0)
  let started = false
  let pending: Promise<void> = Promise.resolve()
  /** Complete messages at the front of the buffer (the startup packet has no type byte). */
  const takeMessages = () => {
    const messages: Array<Uint8Array> = []
    for (;;) {
      const headerless = !started
      if (buffered.length < (headerless ? 8 : 5)) break
      const length = headerless ? buffered.readInt32BE(0) : 1 + buffered.readInt32BE(1)
      if (buffered.length < length) break
      const message = buffered.subarray(0, length)
      buffered = buffered.subarray(length)
      if (headerless) {
        const code = message.readInt32BE(4)
        if (code === sslRequestCode) {
          stream.push(Buffer.from("N"))
          continue
        }
        if (code === cancelRequestCode) continue
        started = true
      } else if (message[0] === terminate) {
        stream.push(null)
        continue
      }
      messages.push(new Uint8Array(message))
    }
    return messages
  }
  const stream: Duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
      const messages = takeMessages()
      pending = pending.then(async () => {
        for (const message of messages) {
          await db.execProtocolRawStream(message, {
            onRawData: (data) => {
              if (data.length > 0) stream.push(Buffer.from(data))
            }
          })
        }
      })
      pending.then(() => callback(), callback)
    },
    final(callback) {
      pending.then(() => callback(), callback)
    }
  })
  return stream
}
