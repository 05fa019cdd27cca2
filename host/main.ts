#!/usr/bin/env node
/** `npm start`, or `payment-engine` (the package's bin): the reference host. Stops gracefully on SIGTERM or SIGINT. */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HostConfig } from "./Config.ts"
import { withVaultIfAsked } from "./DevelopmentVault.ts"
import { hostLayer } from "./Host.ts"

Effect.flatMap(HostConfig, (config) => Layer.launch(withVaultIfAsked(config, hostLayer))).pipe(NodeRuntime.runMain)
