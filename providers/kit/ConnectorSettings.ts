/**
 * One configured instance of a connector as the host reads it (from `CONNECTORS` or a connector
 * account): the core's `ConnectorSettings`, in its own file so that the connector's declaration
 * (`Connector.ts`) and its conformance harness (`ConnectorConformance.ts`) both depend on it and
 * not on each other.
 */
export type { ConnectorSettings } from "../../core/ports/ConnectorKinds.ts"
