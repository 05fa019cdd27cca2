// `oidc-provider` ships no types (and the DefinitelyTyped ones are for its v8); the tests use it
// only to start a provider (`test/support/Oidc.ts`).
declare module "oidc-provider" {
  const Provider: unknown
  export default Provider
}
