/**
 * `payment-orchestration-engine/providers/sandbox`: the sandbox provider, serving every rail in
 * sandbox (`SandboxProvider.layer({ formBaseUrl, callbackSecret })` registers it).
 */
export { SandboxProvider } from "./SandboxProvider.ts"
export { sandboxProviderId } from "../../core/ports/SandboxForm.ts"
