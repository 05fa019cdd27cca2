/**
 * `npm run bench:routing [payments] [seed]`: the routing simulation (`Simulation.ts`) for every
 * scenario, printing last one JSON line per scenario with the conversion of each strategy.
 */
import { scenarios, simulate } from "./Simulation.ts"

const payments = Number(process.argv[2] ?? 20_000)
const seed = Number(process.argv[3] ?? 42)
const results = scenarios.map((scenario) => simulate(scenario, payments, seed))
for (const r of results) {
  console.error(
    `${r.scenario.padEnd(14)} static ${r.static.toFixed(4)}  health ${r.health.toFixed(4)}  successRate ${r.successRate.toFixed(4)}  oracle ${r.oracle.toFixed(4)}  ` +
      `(successRate/oracle ${(r.successRate / r.oracle).toFixed(3)}, +${((r.successRate - r.static) * 100).toFixed(1)} points over static)`
  )
}
for (const r of results) console.log(JSON.stringify(r))
