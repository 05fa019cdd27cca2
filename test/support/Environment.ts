/**
 * Every test file's setup: the processes the tests start (child hosts, the bench, simulators) get
 * the machine's environment, not vitest's. Vite puts `BASE_URL=/` into `process.env`, which a child
 * host would take as its public URL (the host refuses to start with it).
 */
if (process.env["BASE_URL"] === "/") delete process.env["BASE_URL"]
