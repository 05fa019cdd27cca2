/** Every vault service (keys, store, security codes, cards, forwarder) from a `VaultConfig`. */
import { Duration, Layer } from "effect"
import { Cards } from "./cards/Cards.ts"
import { SecurityCodes } from "./cards/SecurityCodes.ts"
import { Forwarder } from "./forward/Forwarder.ts"
import * as LocalKeyManagement from "./keys/LocalKeyManagement.ts"
import { storeLayer } from "./store/Database.ts"
import type { VaultConfig } from "./VaultConfig.ts"

export const servicesLayer = (config: Omit<VaultConfig, "port" | "host" | "engineKey" | "sessionSecret">) =>
  Forwarder.layer({ hosts: config.forwardHosts, allowHttpLoopback: config.allowHttpLoopback, defaultTimeoutMs: config.forwardTimeoutMs }).pipe(
    Layer.provideMerge(Cards.layer({ fingerprintSecret: config.fingerprintSecret })),
    Layer.provideMerge(Layer.mergeAll(
      LocalKeyManagement.layer(config.keks),
      SecurityCodes.layer(Duration.millis(config.securityCodeTtlMs)),
      storeLayer(config.database)
    ))
  )
