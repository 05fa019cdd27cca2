/**
 * The vault as an HTTP server: its services, its routes (API and card page), bound on
 * `config.host:config.port` once everything is built (store open, tables migrated).
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { createServer } from "node:http"
import { apiRoutes } from "./http/ApiRoutes.ts"
import { pageRoutes } from "./pages/PageRoutes.ts"
import type { VaultConfig } from "./VaultConfig.ts"
import { servicesLayer } from "./VaultServices.ts"

/** The routes on a router, with every service they run on (exposed too: a test reads the store). */
export const appLayer = (config: VaultConfig) =>
  Layer.mergeAll(apiRoutes(config), pageRoutes(config)).pipe(
    Layer.provideMerge(servicesLayer(config)),
    Layer.provideMerge(HttpRouter.layer)
  )

/** The vault listening; the port is bound only after the application is built. */
export const serverLayer = (config: VaultConfig) => {
  const app = appLayer(config)
  const server = NodeHttpServer.layerServer(() => createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }), { port: config.port, host: config.host })
  const serving = Layer.unwrap(Effect.map(Effect.service(HttpRouter.HttpRouter), (router) => HttpServer.serve()(router.asHttpEffect())))
  return serving.pipe(Layer.provideMerge(server), Layer.provideMerge(app), Layer.provideMerge(NodeHttpServer.layerHttpServices))
}
