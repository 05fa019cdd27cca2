/**
 * `payment-orchestration-engine/store/memory`: every storage port on one in-memory database
 * (`MemoryStore.layer`), for tests, demos and embedders that need no durability.
 */
export { MemoryStore } from "./MemoryStore.ts"
