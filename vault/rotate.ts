/**
 * `tsx vault/rotate.ts`: re-wraps every card record's data key under the current KEK (the first
 * of `VAULT_KEK`), with the same environment as the vault, while the vault keeps serving.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { Cards } from "./cards/Cards.ts"
import { fromEnv } from "./VaultConfig.ts"
import { servicesLayer } from "./VaultServices.ts"

const config = fromEnv()

NodeRuntime.runMain(
  Effect.gen(function*() {
    const report = yield* (yield* Cards).rotateKeys()
    yield* Console.log(`re-wrapped ${report.rewrapped} card keys under KEK "${config.keks[0]!.id}"`)
  }).pipe(Effect.provide(servicesLayer(config)))
)
