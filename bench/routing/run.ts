/**
 * `npm run bench:routing [payments] [seed]`: the routing simulation (`Simulation.ts`) for every
 * scenario, printing last one JSON line per scenario with the conversion of each strategy; then
 * the card scenario (`CardSimulation.ts`): approval rates of static single-acquirer routing, the
 * engine's failover, success-rate routing and BIN rules (both with failover), and the oracle.
 */
import { cardScenario, simulateCards } from "./CardSimulation.ts"
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
const cards = simulateCards(cardScenario, payments, seed)
console.error(
  `${cards.scenario.padEnd(14)} static ${cards.static.toFixed(4)}  failover ${cards.failover.toFixed(4)}  successRate ${cards.successRate.toFixed(4)}  ` +
    `binRules ${cards.binRules.toFixed(4)}  oracle ${cards.oracle.toFixed(4)}  (approval rates; failover +${((cards.failover - cards.static) * 100).toFixed(1)} points over static)`
)
console.log(JSON.stringify(cards))
