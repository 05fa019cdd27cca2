/**
 * `payment-orchestration-engine/providers/sandbox`: the sandbox provider, serving every rail in
 * sandbox (`SandboxProvider.layer({ formBaseUrl, callbackSecret })` registers it).
 */
export { SandboxProvider, sandboxProviderId } from "./SandboxProvider.ts"
