/**
 * An OTLP/HTTP JSON receiver on loopback for the telemetry tests: keeps every span it is sent,
 * as the exporter encoded it.
 */
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly links?: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>
  readonly name: string
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

/** The value of a span's attribute, whatever its OTLP type (`stringValue`, `intValue`...). */
export const attributeOf = (span: Span, key: string): unknown => Object.values(span.attributes.find((a) => a.key === key)?.value ?? {})[0]

/** The receiver, closed with the scope: its base URL and the spans received so far. */
export const receiver = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ url: string; spans: Array<Span>; close: () => void }>((resolve) => {
      const spans: Array<Span> = []
      const server = createServer((req, res) => {
        let body = ""
        req.on("data", (c) => (body += c))
        req.on("end", () => {
          if (req.url === "/v1/traces") {
            const doc = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Span> }> }> }
            for (const r of doc.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans)
          }
          res.writeHead(200, { "content-type": "application/json" }).end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => server.close() }))
    })
  ),
  (r) => Effect.sync(r.close)
)
