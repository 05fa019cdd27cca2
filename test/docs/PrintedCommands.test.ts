/**
 * The commands the docs print that need the host on port 8080, run as printed, one after another
 * (one file, so they never race for the port):
 *
 * - The connector guide's "Run a simulator on its own" recipe: its bash block is taken from
 *   `docs/connectors.md` and run from the repository's folder (the Mercado Pago simulator on
 *   12111, the host by `npm start` on 8080). Only the shell's environment is the test's: the
 *   host's embedded store in a temporary folder, and bash's trace with timestamps to see each step.
 * - The README's "Five calls": `npm start` on an empty store prints the demo's sandbox key; each
 *   `curl` of the README's block then runs in bash as printed, with the key the host printed in
 *   `KEY=` and the created payment's id where the README writes `TXN-...`.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const repo = resolve(import.meta.dirname, "../..")

const recipe = () => {
  const readme = readFileSync(join(repo, "docs/connectors.md"), "utf8")
  const section = readme.slice(readme.indexOf("**Run a simulator on its own.**"))
  const block = /```bash\n([\s\S]*?)```/.exec(section)
  assert.isNotNull(block, "the recipe's bash block")
  return block![1]!
}

/** A merchant's shell: without what vitest adds to the environment (`BASE_URL=/` would be the host's). */
const shellEnvironment = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "" }
  for (const name of Object.keys(env)) {
    // Nor the suite's own DATABASE_URL (CI sets one): the recipe's host runs on its embedded store.
    if (/^(VITEST|VITE_)/.test(name) || ["BASE_URL", "MODE", "DEV", "PROD", "SSR", "TEST", "NODE_ENV", "DATABASE_URL"].includes(name)) delete env[name]
  }
  return env
}

/** Nothing answers on the port (a host left running would answer the recipe's calls) and it can be bound. */
const portFree = (port: number) =>
  new Promise<boolean>((resolveFree) => {
    const probe = connect(port, "127.0.0.1")
    probe.once("connect", () => {
      probe.destroy()
      resolveFree(false)
    })
    probe.once("error", () => {
      const server = createServer().once("error", () => resolveFree(false))
      server.listen(port, () => server.close(() => resolveFree(true)))
    })
  })

/** The README's "Five calls" block, as its commands: continuation lines joined, the comment lines kept. */
const tour = () => {
  const readme = readFileSync(join(repo, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("## Five calls"))
  const block = /```sh\n([\s\S]*?)```/.exec(section)
  assert.isNotNull(block, "the tour's sh block")
  return block![1]!.replace(/\\\n\s*/g, "").split("\n").filter((line) => line.trim() !== "")
}

/** Runs one command line in bash, answering what it printed. */
const bash = (line: string, env: NodeJS.ProcessEnv) =>
  new Promise<string>((resolveRun, rejectRun) => {
    const child = spawn("bash", ["-c", line], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (chunk) => void (out += chunk))
    child.stderr.on("data", (chunk) => void (out += chunk))
    child.on("exit", (code) => code === 0 ? resolveRun(out) : rejectRun(new Error(`${line}\nexited with ${code}: ${out}`)))
  })

describe("the README's five calls", () => {
  it("run as printed against npm start: the methods, a paid PIX payment, read back completed, its balance, its refund", async () => {
    assert.isTrue(await portFree(8080), "port 8080, which the README uses, is taken")
    const dataDir = mkdtempSync(join(tmpdir(), "tour-"))
    const env = { ...shellEnvironment(), DATA_DIR: dataDir, LOG_LEVEL: "Warn" }
    const host = spawn("npm", ["start"], { cwd: repo, detached: true, stdio: ["ignore", "pipe", "pipe"], env })
    let printed = ""
    host.stdout.on("data", (chunk) => void (printed += chunk))
    host.stderr.on("data", (chunk) => void (printed += chunk))
    try {
      const started = Date.now()
      while (!/sk_test_\w+/.test(printed) || !(await bash("curl -sf localhost:8080/openapi.json -o /dev/null", env).then(() => true, () => false))) {
        assert.isBelow(Date.now() - started, 60_000, `npm start printed no key or did not answer within a minute:\n${printed}`)
        await new Promise((r) => setTimeout(r, 250))
      }
      const key = /sk_test_\w+/.exec(printed)![0]
      const [assignment, ...calls] = tour()
      assert.match(assignment!, /^KEY=sk_test_\.\.\. /, "the block starts by setting KEY to the printed key")
      const answers: Array<string> = []
      let transactionId = "TXN-..."
      for (const call of calls) {
        const answer = await bash(`KEY=${key}\n${call.replaceAll("TXN-...", transactionId)}`, env)
        answers.push(answer)
        const created = /"transactionId":"(TXN-[^"]+)"/.exec(answer)
        if (created !== null) transactionId = created[1]!
      }
      const curls = answers.filter((_, i) => calls[i]!.startsWith("curl "))
      assert.lengthOf(curls, 5, "five calls")
      for (const answer of curls) assert.notMatch(answer, /"error":\{/, `a call is refused: ${answer}`)
      const [methods, created, read, balance, refund] = curls.map((a) => JSON.parse(a))
      assert.isTrue(methods.methods.some((m: { paymentMethodId: string }) => m.paymentMethodId === "sbx_pix"), "the Brazilian methods list the sandbox PIX")
      assert.strictEqual(created.amount, 100)
      assert.strictEqual(read.status, "completed", "read back completed, as the README's comment says")
      assert.isTrue(JSON.stringify(balance).includes("USD"), `the balance the payment made: ${JSON.stringify(balance)}`)
      assert.strictEqual(refund.transactionId ?? refund.paymentId ?? transactionId, transactionId)
      assert.isAbove(Number(refund.amount), 0, `the refund of all that remains: ${JSON.stringify(refund)}`)
    } finally {
      // The whole group (npm and the host it started), and only once it is gone is port 8080 free for the recipe.
      const exited = host.exitCode !== null || host.signalCode !== null ? Promise.resolve() : new Promise((r) => host.once("exit", r))
      try {
        process.kill(-host.pid!, "SIGKILL")
      } catch {
        // already gone
      }
      await exited
      while (!(await portFree(8080))) await new Promise((r) => setTimeout(r, 100))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe("the connector guide's simulator recipe", () => {
  it("runs as pasted: the payment completes and the refund settles from the simulator's notifications", async () => {
    for (const port of [8080, 12111]) assert.isTrue(await portFree(port), `port ${port}, which the recipe uses, is taken`)
    const dataDir = mkdtempSync(join(tmpdir(), "recipe-"))
    // Its own process group, so that the simulator and the host it starts in the background end with it.
    // Traced with timestamps (bash, run as root, takes no PS4 from the environment).
    const shell = spawn("bash", ["-c", `PS4='+ $EPOCHREALTIME '; set -x\n${recipe()}`], {
      cwd: repo,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...shellEnvironment(), DATA_DIR: dataDir, LOG_LEVEL: "Warn" }
    })
    let output = ""
    shell.stdout.on("data", (chunk) => void (output += chunk))
    shell.stderr.on("data", (chunk) => void (output += chunk))
    try {
      const code = await new Promise<number | null>((resolveExit) => {
        const timer = setTimeout(() => resolveExit(null), 150_000)
        shell.on("exit", (exitCode) => {
          clearTimeout(timer)
          resolveExit(exitCode)
        })
      })
      // The trace without the polling of the `until` lines.
      const trace = output.split("\n").filter((l) => !/sleep 0\.|grep -q|openapi\.json -o|^\+ [\d.]+ curl -s localhost:8080\/api\/v1\/(payments|claims)\/[^/ ]+ -H/.test(l)).join("\n")
      writeFileSync(join(tmpdir(), "simulator-recipe.log"), output)
      assert.strictEqual(code, 0, `the recipe did not finish (all of it in ${join(tmpdir(), "simulator-recipe.log")}):\n${trace.slice(-6000)}`)
      for (const answer of ['{"refundsPending":true}', '"notifications":{"drop":false,"delayMs":5000,"repeat":2}']) {
        assert.include(output, answer)
      }
      assert.notMatch(output, /"error":\{"code"/, "no call of the recipe is refused")
      // The refund is settled from the simulator's notification, not at the engine's follow-up a minute later.
      // The trace's line of a command; stdout and stderr share the buffer, so a command's own output
      // may have landed before its trace on the same line: the stamp is read where the trace starts.
      const at = (pattern: RegExp) => {
        const traced = new RegExp(String.raw`\+ (\d+\.\d+) [^\n]*?${pattern.source}`).exec(output)
        assert.isNotNull(traced, `${pattern} in the trace`)
        return Number(traced![1])
      }
      const settled = at(/_simulator\/refunds\/\d+\/settle/)
      const learned = at(/_simulator\/notifications/)
      assert.isBelow(learned - settled, 15, "seconds from the settle to the engine's settled refund")
    } finally {
      try {
        process.kill(-shell.pid!, "SIGKILL")
      } catch {
        // already gone
      }
      rmSync(join(repo, "sim.env"), { force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
