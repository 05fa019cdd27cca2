/**
 * `payment-orchestration-engine/providers/kit`: shared pieces for writing a provider plugin:
 * `UpstreamHttp` (one upstream call: timeout, error classification, secret scrubbing, exact
 * JSON decimals), `SimulatorServer` (an upstream in miniature over a real socket),
 * `callbackReceiver`, `statusOf` (a documented status map read off the wire), and the
 * `Connector` descriptor a host configures a plugin from. The
 * conformance suites are in `providers/conformance` (they need vitest).
 */
export { type CallbackReceiver, callbackReceiver } from "./CallbackReceiver.ts"
export type { Connector, ConnectorRequirements, ConnectorSettings } from "./Connector.ts"
export {
  type Answer,
  type Handled,
  type RecordedRequest,
  type SentCallback,
  SimulatorServer,
  type SimulatorRequest
} from "./SimulatorServer.ts"
export { type StatusMap, statusOf } from "./StatusMap.ts"
export { UpstreamHttp, type UpstreamHttpOptions, type UpstreamWords } from "./UpstreamHttp.ts"
