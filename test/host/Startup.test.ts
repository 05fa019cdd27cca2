/**
 * The start-up window, as a load balancer or a readiness probe meets it: the host (a child
 * process, on a fresh embedded store that it migrates first) is asked every 100 ms from the
 * moment it is spawned. Until it is ready a request is refused at once (the port is not bound
 * yet); it is never left hanging, and the first answer is a real one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../support/ChildHost.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))

describe("host start-up", () => {
  it.live("no request sent while the host starts is left without an answer", () =>
    Effect.promise(async () => {
      const port = await freePort()
      const dataDir = mkdtempSync(join(tmpdir(), "startup-"))
      const child = spawn(process.execPath, ["--import", "tsx", "host/main.ts"], {
        cwd: root,
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "Warn", DATABASE_URL: "" },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      child.stdout!.on("data", (chunk) => void (output += chunk))
      child.stderr!.on("data", (chunk) => void (output += chunk))
      const outcomes: Array<string> = []
      try {
        const deadline = Date.now() + 60_000
        const probes: Array<Promise<void>> = []
        let answered = false
        while (!answered && Date.now() < deadline) {
          probes.push(
            fetch(`http://127.0.0.1:${port}/openapi.json`, { signal: AbortSignal.timeout(3_000) }).then(
              async (response) => {
                await response.arrayBuffer()
                outcomes.push(String(response.status))
                answered = true
              },
              (error: Error) => void outcomes.push(error.name === "TimeoutError" ? "hung" : "refused")
            )
          )
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        await Promise.all(probes)
        assert.isTrue(answered, `the host answered within 60 s:\n${output}`)
        assert.notInclude(outcomes, "hung", `a request sent during start-up hung (${outcomes.join(",")})`)
        assert.strictEqual(outcomes.find((o) => o !== "refused"), "200")
      } finally {
        child.kill("SIGKILL")
        rmSync(dataDir, { recursive: true, force: true })
      }
    }), 90_000)
})
