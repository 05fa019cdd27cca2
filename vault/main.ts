/**
 * The vault process: configuration from the environment (`VaultConfig.fromEnv`), the server until
 * SIGINT/SIGTERM. `npm run vault`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpServer } from "effect/http"
import { serverLayer } from "./Server.ts"
import { fromEnv } from "./VaultConfig.ts"

NodeRuntime.runMain(Layer.launch(HttpServer.withLogAddress(serverLayer(fromEnv()))))
