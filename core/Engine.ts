/**
 * The engine's core services in one layer, for embedders and for the reference host. It needs
 * the storage ports (memory or SQL adapter) and a `TokenSigner`; ids and hashing are inside.
 */
import { Layer } from "effect"
import { Digest } from "effect/crypto"
import { Auth } from "./auth/Auth.ts"
import { Ids } from "./Ids.ts"
import { Merchants } from "./tenancy/Merchants.ts"

/** The core services, needing ids, hashing, the storage ports and a token signer. */
export const services = Layer.mergeAll(Auth.layer, Merchants.layer)

/** Production ids (ULIDs) and WebCrypto hashing. */
export const Foundation = Layer.mergeAll(Ids.layer, Digest.layerWebCrypto)

/** Deterministic ids (`TXN-000001`, ...) and WebCrypto hashing, for tests. */
export const FoundationTest = Layer.mergeAll(Ids.layerTest, Digest.layerWebCrypto)

export const Engine = {
  services,
  layer: services.pipe(Layer.provideMerge(Foundation)),
  layerTest: services.pipe(Layer.provideMerge(FoundationTest))
}
