/**
 * `payment-orchestration-engine/providers/kit`: shared pieces for writing a provider plugin:
 * `UpstreamHttp` (one upstream call: timeout, error classification, secret scrubbing, exact
 * JSON decimals), `SimulatorServer` (an upstream in miniature over a real socket),
 * `callbackReceiver`, `statusOf` and `StatusMap` (a documented status map, total by type, read
 * off the wire), and `defineConnector`, which declares a connector (rails, wire, status maps,
 * flows) and gives the `Connector` descriptor a host configures it from, its layer, its
 * standalone simulator entry and its conformance harness (`hostServices`: what the harness
 * provides, as a host does). The
 * conformance suites are in `providers/conformance` (they need vitest).
 */
export { type CallbackReceiver, callbackReceiver } from "./CallbackReceiver.ts"
export {
  type BuiltPlugin,
  type CommonOptions,
  type ConformanceDefinition,
  type Connector,
  type ConnectorConformance,
  type ConnectorDefinition,
  type ConnectorRequirements,
  type ConnectorSettings,
  type DefinedConnector,
  defineConnector,
  type HostServices,
  hostServices,
  type OwnOptions,
  type PaymentConnectorRequirements,
  type Simulated,
  type SimulatorMoves,
  type SimulatorStarted
} from "./Connector.ts"
export {
  type Answer,
  type Handled,
  type RecordedRequest,
  type SentCallback,
  SimulatorServer,
  type SimulatorRequest
} from "./SimulatorServer.ts"
export { clear } from "./Buyer.ts"
export { type CardForwardOptions, forwardCard } from "./CardForward.ts"
export { type StatusMap, statusOf } from "./StatusMap.ts"
export { type ProviderFailures, UpstreamHttp, type UpstreamHttpOptions, type UpstreamWords, type Verdict } from "./UpstreamHttp.ts"
export { type TestCard, TestCardVault, type TestCardVaultOptions } from "./TestCardVault.ts"
